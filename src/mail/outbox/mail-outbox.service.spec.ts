import 'reflect-metadata';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config';
import { transaction } from '../../common/database/transaction';
import { OutboxCursor, OutboxEvent } from '../../common/outbox/outbox.entities';
import type { JobQueue } from '../../common/queue/job-queue.service';
import type { JobContext } from '../../common/queue/queue.constants';
import { TemplateRenderError } from '../../common/template/template';
import type { MailService, OutgoingMail as MailMessage } from '../mail.service';
import { ComposedMail, MailKind, MailOutbox, NewMail } from './mail-outbox.service';
import type { MailSettledPayload } from './mail.events';
import { OutgoingMail } from './outgoing-mail.entity';
import { OutgoingMailRepository } from './outgoing-mail.repository';

/*
 * The mail outbox on its own (issue 64 item 7): an in-memory database with its table and the
 * events', an SMTP stand-in that records or refuses, and a job queue that records what was queued.
 * Its promise: one e-mail per row, claimed before the SMTP call and settled after it, with its
 * `mail.settled` event and the owner's record in the settling transaction; a temporary refusal is
 * retried, a permanent one or the last attempt fails it; an attempt that finds it claimed sends
 * nothing and says it may have gone.
 */

const ctx = (attempt = 1, attempts = 5): JobContext => ({ jobId: 'j', attempt, attempts });

describe('MailOutbox', () => {
  let ds: DataSource;
  let outbox: MailOutbox;
  let sent: MailMessage[];
  let refusal: Error | null;
  let queued: Array<{ data: unknown; jobId: string }>;
  let settled: Array<{ outcome: MailSettledPayload; inTransaction: boolean }>;
  let compose: (mail: OutgoingMail) => Promise<ComposedMail | { skip: string }>;

  beforeEach(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [OutgoingMail, OutboxEvent, OutboxCursor],
      synchronize: true,
    });
    await ds.initialize();
    [sent, refusal, queued, settled] = [[], null, [], []];
    compose = (mail) =>
      Promise.resolve({ to: `user-${mail.ref}@example.com`, subject: `Hello ${mail.ref}`, html: '<p>hi</p>', text: 'hi' });
    const smtp = {
      enabled: true,
      send: (m: MailMessage) => (refusal ? Promise.reject(refusal) : (sent.push(m), Promise.resolve())),
    } as unknown as MailService;
    const jobs = {
      register: () => undefined,
      schedule: () => Promise.resolve(),
      add: (_job: unknown, data: unknown, options: { jobId: string }) => (
        queued.push({ data, jobId: options.jobId }),
        Promise.resolve({})
      ),
    } as unknown as JobQueue;
    outbox = new MailOutbox({ mailRetryBackoffMs: 10 } as AppConfig, ds, new OutgoingMailRepository(ds), smtp, jobs);
    const kind: MailKind = {
      compose: (mail) => compose(mail),
      settled: async (em, outcome) => {
        // The owner's record is written with the settling transaction: it sees the e-mail settled.
        const [row] = await em.query<Array<{ status: string }>>('SELECT status FROM outgoing_mail WHERE id = ?', [outcome.id]);
        settled.push({ outcome, inTransaction: row.status === outcome.status });
      },
    };
    outbox.define('welcome', kind);
  });
  afterEach(() => ds.destroy());

  const enqueue = (mails: NewMail[]) => transaction(ds, (em) => outbox.enqueue(em, mails));
  const only = async () => (await ds.getRepository(OutgoingMail).find())[0];
  const events = async () =>
    (await ds.query<Array<{ payload: string }>>("SELECT payload FROM outbox_events WHERE event = 'mail.settled'")).map(
      (r) => JSON.parse(r.payload) as MailSettledPayload,
    );

  it('queues one e-mail per purpose, ref and request, and dispatches only those due', async () => {
    await enqueue([{ purpose: 'welcome', ref: '7', requestId: 'r1' }]);
    await enqueue([{ purpose: 'welcome', ref: '7', requestId: 'r1' }]); // the same request retried
    await enqueue([{ purpose: 'welcome', ref: '8', sendAfter: new Date(Date.now() + 3_600_000) }]);
    const rows = await ds.getRepository(OutgoingMail).find({ order: { id: 'ASC' } });
    expect(rows.map((r) => [r.ref, r.status])).toEqual([
      ['7', 'queued'],
      ['8', 'queued'],
    ]);
    await outbox.dispatch([...(await outbox.queuedOf('welcome', ['7'], 'r1')), ...(await outbox.queuedOf('welcome', ['8']))]);
    expect(queued).toEqual([{ data: { id: rows[0].id }, jobId: `mail-${rows[0].id}-r1` }]);
    expect(() => outbox.define('welcome', { compose })).toThrow('mail kind welcome is defined twice');
  });

  it('sends once, settling with its event and the owner’s record in one transaction', async () => {
    await enqueue([{ purpose: 'welcome', ref: '7' }]);
    const { id } = await only();
    await outbox.deliver(id, ctx());
    await outbox.deliver(id, ctx(2)); // a duplicate job: the row is no longer queued
    expect(sent).toEqual([{ to: 'user-7@example.com', subject: 'Hello 7', html: '<p>hi</p>', text: 'hi' }]);
    expect(await only()).toMatchObject({
      status: 'sent',
      error: null,
      startedAt: expect.any(Date),
      finishedAt: expect.any(Date),
    });
    expect(await events()).toEqual([expect.objectContaining({ id, purpose: 'welcome', ref: '7', status: 'sent', error: null })]);
    expect(settled).toEqual([{ outcome: expect.objectContaining({ id, status: 'sent' }), inTransaction: true }]);
  });

  it('an attempt that finds the e-mail claimed (its sender died mid-call) sends nothing and says it may have gone', async () => {
    await enqueue([{ purpose: 'welcome', ref: '7' }]);
    const { id } = await only();
    await ds.query("UPDATE outgoing_mail SET status = 'sending' WHERE id = ?", [id]);
    await outbox.deliver(id, ctx(2));
    expect(sent).toEqual([]);
    expect((await only()).status).toBe('unknown');
    expect((await only()).error).toMatch(/may or may not have arrived/);
    expect((await events()).map((e) => e.status)).toEqual(['unknown']);
  });

  it('a temporary refusal queues it again for the retry; the last attempt or a permanent refusal fails it', async () => {
    await enqueue([{ purpose: 'welcome', ref: '7' }]);
    const { id } = await only();
    refusal = Object.assign(new Error('451 try later'), { responseCode: 451, response: '451 4.7.1 try later' });
    await expect(outbox.deliver(id, ctx(1))).rejects.toThrow('451 try later');
    expect(await only()).toMatchObject({ status: 'queued', error: '451 4.7.1 try later' });
    expect(await events()).toEqual([]);
    await outbox.deliver(id, ctx(5, 5));
    expect(await only()).toMatchObject({ status: 'failed', error: '451 4.7.1 try later' });

    await enqueue([{ purpose: 'welcome', ref: '8' }]);
    const second = (await ds.getRepository(OutgoingMail).findOneByOrFail({ ref: '8' })).id;
    refusal = Object.assign(new Error('550 no such user'), { responseCode: 550, response: '550 5.1.1 no such user' });
    await outbox.deliver(second, ctx(1)); // permanent: no retry
    expect(await ds.getRepository(OutgoingMail).findOneByOrFail({ id: second })).toMatchObject({ status: 'failed' });
    expect((await events()).map((e) => [e.ref, e.status])).toEqual([
      ['7', 'failed'],
      ['8', 'failed'],
    ]);
    expect(sent).toEqual([]);
  });

  it('fails without sending what its composer skips, cannot render or cannot address', async () => {
    const reasons: Array<[string, () => Promise<ComposedMail | { skip: string }>]> = [
      ['the payslip was deleted', () => Promise.resolve({ skip: 'the payslip was deleted' })],
      ['the template could not be rendered: bad {{', () => Promise.reject(new TemplateRenderError('bad {{'))],
      ['no address to send it to', () => Promise.resolve({ subject: 's', html: 'h', text: 'h' })],
    ];
    for (const [reason, composer] of reasons) {
      compose = composer;
      await enqueue([{ purpose: 'welcome', ref: reason.slice(0, 10) }]);
      const { id } = await ds.getRepository(OutgoingMail).findOneByOrFail({ ref: reason.slice(0, 10) });
      await outbox.deliver(id, ctx());
      expect(await ds.getRepository(OutgoingMail).findOneByOrFail({ id })).toMatchObject({ status: 'failed', error: reason });
    }
    expect(sent).toEqual([]);
  });

  it('a job given up after its worker died fails a queued e-mail and marks a claimed one unknown', async () => {
    await enqueue([
      { purpose: 'welcome', ref: '7' },
      { purpose: 'welcome', ref: '8' },
    ]);
    const [queuedOne, claimed] = await ds.getRepository(OutgoingMail).find({ order: { id: 'ASC' } });
    await ds.query("UPDATE outgoing_mail SET status = 'sending' WHERE id = ?", [claimed.id]);
    await outbox.abandon(queuedOne.id, 'its worker died 3 times');
    await outbox.abandon(claimed.id, 'its worker died 3 times');
    const after = await ds.getRepository(OutgoingMail).find({ order: { id: 'ASC' } });
    expect(after.map((m) => [m.status, m.error])).toEqual([
      ['failed', 'its worker died 3 times; send it again'],
      ['unknown', 'its worker died 3 times; send it again'],
    ]);
  });
});
