import { DataSource } from 'typeorm';
import { transaction } from '../src/common/database/transaction';
import { MailSettledPayload } from '../src/mail/outbox/mail.events';
import { MailOutbox, NewMail } from '../src/mail/outbox/mail-outbox.service';
import { SmtpSink, startSmtp } from './helpers/smtp';
import { createTestApp, outboxEvents, sleep, TestApp, until } from './helpers/test-app';

/**
 * The mail outbox (issue 42) on its own, with a kind of e-mail the test declares: one row per
 * e-mail and request, at most one e-mail per row, the states it moves through, and the owner's
 * record of the outcome in the settling transaction. The welcome, payslip and notification suites
 * cover the kinds that use it.
 */
describe('mail outbox', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let outbox: MailOutbox;
  let ds: DataSource;
  /** What the test kind's `settled` saw, and whether its transaction was the settling one. */
  const outcomes: Array<MailSettledPayload & { inTransaction: boolean }> = [];
  /** Refs the test kind skips (nothing to send any more). */
  const skipped = new Set<string>();

  const queue = async (mail: Omit<NewMail, 'purpose'>) => {
    await transaction(ds, (em) => outbox.enqueue(em, [{ purpose: 'test', ...mail }]));
    return outbox.queuedOf('test', [mail.ref]);
  };
  const row = async (ref: string) =>
    (
      await ds.query<Array<{ id: number; status: string; error: string | null }>>(
        `SELECT id, status, error FROM outgoing_mail WHERE purpose = 'test' AND ref = ?`,
        [ref],
      )
    )[0];
  const to = (ref: string) => `${ref}@outbox.test`;
  const mailsTo = (ref: string) => smtp.messages.filter((m) => m.to.includes(to(ref))).length;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_RETRY_BACKOFF_MS: '20' });
    outbox = t.app.get(MailOutbox);
    ds = t.app.get(DataSource);
    outbox.define('test', {
      compose: async (mail) =>
        skipped.has(mail.ref)
          ? { skip: 'not needed any more' }
          : { to: to(mail.ref), subject: `Mail ${mail.ref}`, html: '<p>Hi</p>', text: 'Hi' },
      settled: async (em, outcome) => {
        // The e-mail's row, read through `em`, is already settled: the same transaction.
        const [mine] = await em.query<Array<{ status: string }>>('SELECT status FROM outgoing_mail WHERE id = ?', [outcome.id]);
        outcomes.push({ ...outcome, inTransaction: mine.status === outcome.status });
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends each e-mail once, records mail.settled and runs the kind’s settled in the settling transaction', async () => {
    const queued = await queue({ ref: 'once', requestId: 'r-1' });
    // The same owner and request again: still one e-mail (a retried request).
    await queue({ ref: 'once', requestId: 'r-1' });
    expect(queued).toHaveLength(1);
    const [job] = await outbox.dispatch(queued);
    expect(await job.firstAttempt(5000)).toBe('completed');
    expect(await row('once')).toMatchObject({ status: 'sent', error: null });
    expect(mailsTo('once')).toBe(1);
    expect(outcomes.filter((o) => o.ref === 'once')).toEqual([
      expect.objectContaining({ purpose: 'test', request: 'r-1', status: 'sent', error: null, inTransaction: true }),
    ]);
    expect((await outboxEvents(t.app, 'mail.settled')).map((e) => e.data)).toContainEqual(
      expect.objectContaining({ id: queued[0].id, purpose: 'test', ref: 'once', status: 'sent' }),
    );

    // Its job run again (a stalled-job check, a second sweep): nothing is sent, nothing changes.
    await outbox.deliver(queued[0].id, { jobId: 'again', attempt: 1, attempts: 5 });
    expect(mailsTo('once')).toBe(1);
    expect(outcomes.filter((o) => o.ref === 'once')).toHaveLength(1);
  });

  it('a row found claimed by an attempt that never settled is unknown and not sent; nothing to send any more fails with the reason', async () => {
    const [stuck] = await queue({ ref: 'stuck' });
    await ds.query(`UPDATE outgoing_mail SET status = 'sending' WHERE id = ?`, [stuck.id]);
    await outbox.deliver(stuck.id, { jobId: 'x', attempt: 2, attempts: 5 });
    expect(await row('stuck')).toMatchObject({ status: 'unknown', error: expect.stringMatching(/may or may not have arrived/) });
    expect(mailsTo('stuck')).toBe(0);

    skipped.add('skip');
    const [skip] = await queue({ ref: 'skip' });
    await outbox.deliver(skip.id, { jobId: 'y', attempt: 1, attempts: 5 });
    expect(await row('skip')).toMatchObject({ status: 'failed', error: 'not needed any more' });
    expect(outcomes.filter((o) => ['stuck', 'skip'].includes(o.ref)).map((o) => [o.ref, o.status])).toEqual([
      ['stuck', 'unknown'],
      ['skip', 'failed'],
    ]);
  });

  it('a 4xx is queued again and retried with backoff, then failed; a 5xx fails at once', async () => {
    smtp.setRejectCode(451);
    try {
      const attempts = smtp.attempts;
      const [mail] = await queue({ ref: 'busy' });
      await outbox.dispatch([mail]);
      await until(async () => (await row('busy')).status === 'failed', 10_000);
      expect(smtp.attempts - attempts).toBe(5);
      expect((await row('busy')).error).toMatch(/Mailbox unavailable/);

      smtp.setRejectCode(550);
      const before = smtp.attempts;
      const [refused] = await queue({ ref: 'refused' });
      await outbox.dispatch([refused]);
      await until(async () => (await row('refused')).status === 'failed', 10_000);
      await sleep(200); // a few backoffs: time for a retry, should there be one
      expect(smtp.attempts - before).toBe(1);
    } finally {
      smtp.setRejectCode(null);
    }
  });

  it('a job given up after its worker died: queued → failed, sending → unknown, settled rows untouched', async () => {
    const [waiting] = await queue({ ref: 'abandoned-queued' });
    const [claimed] = await queue({ ref: 'abandoned-sending' });
    await ds.query(`UPDATE outgoing_mail SET status = 'sending' WHERE id = ?`, [claimed.id]);
    const reason = 'the worker stopped while running this job 3 times';
    await outbox.abandon(waiting.id, reason);
    await outbox.abandon(claimed.id, reason);
    expect(await row('abandoned-queued')).toMatchObject({ status: 'failed', error: `${reason}; send it again` });
    expect(await row('abandoned-sending')).toMatchObject({ status: 'unknown', error: `${reason}; send it again` });
    const sent = await row('once');
    await outbox.abandon(sent.id, reason);
    expect(await row('once')).toMatchObject({ status: 'sent', error: null });
  });

  it('send_after holds an e-mail until the sweep finds it due', async () => {
    const later = new Date(Date.now() + 60_000);
    const held = await queue({ ref: 'later', sendAfter: later });
    expect(await outbox.dispatch(held)).toEqual([]);
    await outbox.queueDue(new Date());
    await sleep(200);
    expect((await row('later')).status).toBe('queued');
    await outbox.queueDue(new Date(later.getTime() + 1000));
    await until(async () => (await row('later')).status === 'sent', 5000);
    expect(mailsTo('later')).toBe(1);
  });
});
