import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { simpleParser } from 'mailparser';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { NotificationMailer } from '../src/notifications/notification-mailer.service';
import { MailOutbox } from '../src/mail/outbox/mail-outbox.service';
import { nextLocalHour } from '../src/notifications/preferences.service';
import { buildCompany, Company } from './helpers/company';
import { SmtpSink, startSmtp } from './helpers/smtp';
import { apiCaller, createTestApp, INTEGRATION, okCaller, TestApp, until } from './helpers/test-app';
import { scaled } from './helpers/time-scale';

const PUBLIC_URL = 'https://hr.example.com/hr';

// The e-mails go dispatcher → queue → SMTP sink; beside the integration run's other worker on
// MariaDB one took over 10 s once (a clean-clone .ci/run, 1 of 4 runs): 20 s waits, 60 s tests.
jest.setTimeout(scaled(60_000));

/** Notification e-mails (issue 30): once per event and user, preferences, digests, the rate limit, templates. */
describe('notification e-mails', () => {
  let t: TestApp;
  let c: Company;
  let smtp: SmtpSink;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let ds: DataSource;
  let day = 0;
  const dispatch = async () => {
    while ((await t.app.get(OutboxRelay).relay()) > 0);
  };
  const mailer = () => t.app.get(NotificationMailer);
  /** The messages to `address` received since `from` (an index into smtp.messages), parsed. */
  const mailsTo = async (address: string, from = 0) =>
    Promise.all(
      smtp.messages
        .slice(from)
        .filter((m) => m.to.includes(address))
        .map((m) => simpleParser(m.raw)),
    );
  /** A task from the Admin to `userId` (one task.assigned event). */
  const task = (userId: number, title: string) =>
    ok('POST', '/tasks', admin, { user: userId, title, priority: 'High', due_date: '2027-01-15' });
  const rowsOf = (userId: number) =>
    ds.query<Array<{ kind: string; mode: string; status: string; title: string; due_at: string }>>(
      'SELECT kind, mode, status, title, due_at FROM notification_emails WHERE user_id = ? ORDER BY id',
      [userId],
    );
  /** Makes the user's queued digest due now, then sweeps. */
  const digestNow = async (userId: number) => {
    await ds.query(`UPDATE notification_emails SET due_at = '2000-01-01 00:00:00.000' WHERE user_id = ? AND status = 'queued'`, [
      userId,
    ]);
    await mailer().sweep();
  };
  /** A one-day leave request on the next weekday of February 2027. */
  const request = (token: string) => {
    let date: Date;
    do date = new Date(Date.UTC(2027, 1, ++day));
    while ([0, 6].includes(date.getUTCDay()));
    const d = date.toISOString().slice(0, 10);
    return ok('POST', '/leaves', token, { leave_type: leaveType, date_start: d, date_end: d });
  };
  let leaveType: number;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      PUBLIC_URL,
      MAIL_RETRY_BACKOFF_MS: '10',
      OUTBOX_RELAY_MS: '600000',
      NOTIFICATION_EMAIL_SWEEP_MS: '600000',
      NOTIFICATION_EMAILS_PER_HOUR: '3',
    });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    ds = t.app.get(DataSource);
    await ok('POST', '/leave-periods', admin, { name: '2027', date_start: '2027-01-01', date_end: '2027-12-31' });
    leaveType = (await ok('POST', '/leave-types', admin, { name: 'Annual', default_days: 20 })).id;
    await dispatch(); // the fixture's own events
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('a leave request e-mails its approver once, with a link to the record and List-Unsubscribe to the preferences', async () => {
    const manager = c.users.manager.user;
    const from = smtp.messages.length;
    const leave = await request(c.users.employee.token);
    await dispatch();
    await until(async () => (await mailsTo(manager.email, from)).length === 1, 20_000);
    // Dispatching and sweeping again sends nothing more.
    await dispatch();
    await mailer().sweep();
    await new Promise((r) => setTimeout(r, 200));
    const [mail] = await mailsTo(manager.email, from);
    expect(await mailsTo(manager.email, from)).toHaveLength(1);
    expect(mail.subject).toMatch(/ requests leave$/);
    expect(mail.text).toContain(`${PUBLIC_URL}/app/api/leaves/${leave.id}`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/app/api/leaves/${leave.id}"`);
    const raw = smtp.messages.slice(from).find((m) => m.to.includes(manager.email))!.raw;
    const headers = raw.slice(0, raw.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ');
    expect(headers).toMatch(
      /^List-Unsubscribe: <https:\/\/hr\.example\.com\/hr\/app\/api\/users\/me\/notification-preferences>$/m,
    );
    expect(await rowsOf(manager.id)).toEqual([
      expect.objectContaining({ kind: 'leave.requested', mode: 'immediate', status: 'sent' }),
    ]);
  });

  it('e-mail switched off: the decision is in the feed, not in the inbox; the Admin default applies to users who chose nothing', async () => {
    const employee = c.users.employee.user;
    await ok('PUT', '/users/me/notification-preferences', c.users.employee.token, {
      items: [{ kind: 'leave.decided', email: false }],
    });
    const leave = await request(c.users.employee.token);
    await ok('POST', `/leaves/${leave.id}/approve`, c.users.manager.token);
    const from = smtp.messages.length;
    await dispatch();
    await mailer().sweep();
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(employee.email, from)).toEqual([]);
    const feed = await ok('GET', '/notifications?filters={"kind":"leave.decided"}', c.users.employee.token);
    expect(feed.map((n: { link: string }) => n.link)).toContain(`/leaves/${leave.id}`);

    // The Admin switches task e-mails off by default: the orphan user (who chose nothing) gets none.
    await ok('PUT', '/settings', admin, { name: 'Notify by E-mail: task.assigned', value: 'No' });
    try {
      const prefs = await ok('GET', '/users/me/notification-preferences', c.users.orphan.token);
      expect(prefs.find((p: { kind: string }) => p.kind === 'task.assigned')).toMatchObject({ email: false, in_app: true });
      await task(c.users.orphan.user.id, 'Read the handbook');
      await dispatch();
      expect(await rowsOf(c.users.orphan.user.id)).toEqual([]);
    } finally {
      await ok('PUT', '/settings', admin, { name: 'Notify by E-mail: task.assigned', value: 'Yes' });
    }
  });

  it('daily frequency: nothing at once, then one digest at the hour the user chose in its time zone, holding the day’s items', async () => {
    const user = c.users.restricted.user;
    const token = c.users.restricted.token;
    await ok('PUT', '/users/me/notification-preferences', token, { items: [{ kind: 'task.assigned', frequency: 'daily' }] });
    expect(await ok('PUT', '/users/me/notification-settings', token, { digest_hour: 7, time_zone: 'Asia/Kolkata' })).toEqual({
      digest_hour: 7,
      time_zone: 'Asia/Kolkata',
      effective_digest_hour: 7,
      effective_time_zone: 'Asia/Kolkata',
    });
    expect((await call('PUT', '/users/me/notification-settings', token, { time_zone: 'Mars/Olympus' })).statusCode).toBe(400);
    expect((await call('PUT', '/users/me/notification-settings', token, { digest_hour: 24 })).statusCode).toBe(400);
    const from = smtp.messages.length;
    const before = Date.now();
    await task(user.id, 'Review the budget');
    await task(user.id, 'Sign the policy');
    await dispatch();
    await mailer().sweep();
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(user.email, from)).toEqual([]);
    const rows = await rowsOf(user.id);
    expect(rows.map((r) => [r.mode, r.status])).toEqual([
      ['digest', 'queued'],
      ['digest', 'queued'],
    ]);
    // 07:00 in Kolkata (UTC+5:30) is 01:30 UTC: the next one after the request.
    const value = rows[0].due_at as string | Date; // a Date from mysql2, text from SQLite
    const due = value instanceof Date ? value : new Date(`${value.replace(' ', 'T')}Z`);
    expect(due.getUTCHours() * 60 + due.getUTCMinutes()).toBe(90);
    expect(due.getTime()).toBeGreaterThan(before);
    expect(due.getTime() - before).toBeLessThanOrEqual(86_400_000);

    await digestNow(user.id);
    await until(async () => (await mailsTo(user.email, from)).length === 1, 20_000);
    const [digest] = await mailsTo(user.email, from);
    expect(digest.subject).toMatch(/^2 notifications from /);
    expect(digest.text).toContain('New task: Review the budget');
    expect(digest.text).toContain('New task: Sign the policy');
    await mailer().sweep();
    await new Promise((r) => setTimeout(r, 200));
    expect(await mailsTo(user.email, from)).toHaveLength(1);
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('the rate limit: past NOTIFICATION_EMAILS_PER_HOUR (3) a burst becomes one digest an hour later, not one e-mail each', async () => {
    const user = c.users.orphan.user;
    const from = smtp.messages.length;
    for (let i = 1; i <= 6; i++) await task(user.id, `Burst ${i}`);
    await dispatch();
    await until(async () => (await mailsTo(user.email, from)).length === 3, 20_000);
    const rows = (await rowsOf(user.id)).filter((r) => r.title.startsWith('New task: Burst'));
    expect(rows.map((r) => r.mode)).toEqual(['immediate', 'immediate', 'immediate', 'digest', 'digest', 'digest']);
    expect(new Set(rows.slice(3).map((r) => String(r.due_at))).size).toBe(1);
    await digestNow(user.id);
    await until(async () => (await mailsTo(user.email, from)).length === 4, 20_000);
    const digest = (await mailsTo(user.email, from)).find((m) => m.subject?.startsWith('3 notifications'));
    expect(digest?.text).toContain('Burst 6');
  });

  it("templates: an Admin's language variant reaches users of that language; what payslip templates refuse is refused", async () => {
    const user = c.users.orphan.user;
    await ds.query(`UPDATE users SET lang = 'de' WHERE id = ?`, [user.id]);
    await ds.query(`DELETE FROM notification_emails WHERE user_id = ?`, [user.id]); // below the rate limit again
    const created = await ok('POST', '/notification-templates', admin, {
      kind: 'task.assigned',
      lang: 'de',
      subject: 'Neue Aufgabe für {{recipient.name}}: {{notification.title}} & mehr',
      html: '<p>Hallo {{recipient.name}}, {{notification.body}} <a href="{{notification.url}}">Öffnen</a></p>',
      text: 'Hallo {{recipient.name}}, {{notification.body}} {{notification.url}} <&>',
    });
    expect(created).toMatchObject({ kind: 'task.assigned', lang: 'de' });
    const duplicate = await call('POST', '/notification-templates', admin, {
      kind: 'task.assigned',
      lang: 'de',
      subject: 'x',
      html: 'x',
      text: 'x',
    });
    expect(duplicate.statusCode).toBe(409);
    for (const [field, html] of [
      ['html', '{{{notification.body}}}'],
      ['html', '{{notification.secret}}'],
      ['html', '{{#with notification}}{{title}}{{/with}}'],
      ['html', '{{> partial}}'],
      ['html', '{{lookup notification "title"}}'],
    ]) {
      const refused = await call('POST', '/notification-templates', admin, {
        kind: 'task.assigned',
        lang: 'fr',
        subject: 'x',
        html,
        text: 'x',
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.details[0]).toMatchObject({ field });
    }
    expect(
      (await call('POST', '/notification-templates', admin, { kind: 'nope', subject: 'x', html: 'x', text: 'x' })).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/notification-templates', c.users.restricted.token, {
          kind: 'digest',
          subject: 'x',
          html: 'x',
          text: 'x',
        })
      ).statusCode,
    ).toBe(403);

    const preview = await ok('POST', '/notification-templates/preview', admin, { kind: 'task.assigned', lang: 'de' });
    expect(preview.subject).toBe('Neue Aufgabe für Ada Lovelace: Grace Hopper requests leave & mehr');
    expect(preview.html).toContain('Hallo Ada Lovelace');
    const shipped = await ok('POST', '/notification-templates/preview', admin, { kind: 'digest', html: '{{count}} items' });
    expect(shipped).toMatchObject({ subject: '2 notifications from Example Ltd', html: '2 items' });

    const from = smtp.messages.length;
    await task(user.id, 'Fill in <the> form');
    await dispatch();
    await until(async () => (await mailsTo(user.email, from)).length === 1, 20_000);
    const [mail] = await mailsTo(user.email, from);
    expect(mail.subject).toMatch(/^Neue Aufgabe für .*: New task: Fill in <the> form & mehr$/);
    expect(mail.text).toContain('Fill in <the> form');
    expect(mail.html).toContain('Fill in &lt;the&gt; form');

    // Deleted: the user's language falls back to the shipped English template.
    await ok('DELETE', `/notification-templates/${created.id}`, admin);
    await task(user.id, 'Back to English');
    await dispatch();
    await until(async () => (await mailsTo(user.email, from)).length === 2, 20_000);
    expect((await mailsTo(user.email, from))[1].subject).toBe('New task: Back to English');
  });

  it('a refused address fails the e-mail for good (5xx), and a claim left by a stopped sender is reported unknown, not sent again', async () => {
    const user = c.users.manager.user;
    await ds.query(`DELETE FROM notification_emails WHERE user_id = ?`, [user.id]);
    smtp.setRejectCode(550);
    try {
      await task(user.id, 'Refused');
      await dispatch();
      await until(async () => (await rowsOf(user.id)).some((r) => r.status === 'failed'), 20_000);
    } finally {
      smtp.setRejectCode(null);
    }
    await task(user.id, 'Stopped mid-call');
    const from = smtp.messages.length;
    await ds.query(`UPDATE notification_emails SET due_at = '2100-01-01 00:00:00.000' WHERE user_id = ? AND status = 'queued'`, [
      user.id,
    ]);
    await dispatch();
    const [row] = await ds.query<Array<{ id: number }>>(
      `SELECT id FROM notification_emails WHERE user_id = ? AND title = 'New task: Stopped mid-call'`,
      [user.id],
    );
    // What a sender killed between the claim and the answer leaves: the row claimed, its e-mail 'sending'.
    await ds.query(`UPDATE notification_emails SET status = 'sending', batch_key = ? WHERE id = ?`, [`email:${row.id}`, row.id]);
    await ds.query(
      `INSERT INTO outgoing_mail (purpose, ref, request_id, status, created_at, started_at) VALUES ('notification', ?, 'crashed', 'sending', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [`email:${row.id}`],
    );
    const [mail] = await ds.query<Array<{ id: number }>>(`SELECT id FROM outgoing_mail WHERE request_id = 'crashed'`);
    await t.app.get(MailOutbox).deliver(Number(mail.id), { jobId: 'x', attempt: 2, attempts: 5 });
    // The rows moved in the transaction that settled their e-mail.
    expect((await rowsOf(user.id)).map((r) => r.status)).toEqual(['failed', 'unknown']);
    expect(await mailsTo(user.email, from)).toEqual([]);
  });

  it('nextLocalHour: the next wall-clock hour in a zone, across a daylight-saving change', () => {
    expect(nextLocalHour(new Date('2026-11-26T10:00:00Z'), 8, 'UTC').toISOString()).toBe('2026-11-27T08:00:00.000Z');
    expect(nextLocalHour(new Date('2026-11-26T07:00:00Z'), 8, 'Europe/Berlin').toISOString()).toBe('2026-11-27T07:00:00.000Z');
    expect(nextLocalHour(new Date('2026-11-26T06:00:00Z'), 8, 'Europe/Berlin').toISOString()).toBe('2026-11-26T07:00:00.000Z');
    // Berlin moves to summer time on 2027-03-28: 08:00 is 06:00 UTC that day.
    expect(nextLocalHour(new Date('2027-03-27T08:00:00Z'), 8, 'Europe/Berlin').toISOString()).toBe('2027-03-28T06:00:00.000Z');
    expect(nextLocalHour(new Date('2026-11-26T00:00:00Z'), 7, 'Asia/Kolkata').toISOString()).toBe('2026-11-26T01:30:00.000Z');
  });
});

describeIf(INTEGRATION, NEEDS_SERVERS)('notification e-mails with two workers (MariaDB + Redis)', () => {
  let t: TestApp;
  let other: TestApp;
  let c: Company;
  let smtp: SmtpSink;

  beforeAll(async () => {
    smtp = await startSmtp();
    const env = { SMTP_URL: smtp.url, OUTBOX_RELAY_MS: '600000', NOTIFICATION_EMAIL_SWEEP_MS: '600000' };
    t = await createTestApp(env);
    other = await createTestApp({ ...env, QUEUE_PREFIX: t.config.queuePrefix }, { keepDatabase: true });
    c = await buildCompany(t.app);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
    await smtp.close();
  });

  it('each event reaches each recipient once, by feed and by e-mail, whichever worker dispatches and sends', async () => {
    const ok = okCaller(t.app);
    const users = [c.users.employee.user, c.users.manager.user, c.users.orphan.user];
    for (const user of users)
      for (let i = 1; i <= 3; i++)
        await ok('POST', '/tasks', c.users.admin.token, { user: user.id, title: `Twice ${i}`, priority: 'Low' });
    const dispatchAll = async (app: TestApp) => {
      while ((await app.app.get(OutboxRelay).relay()) > 0);
    };
    await Promise.all([dispatchAll(t), dispatchAll(other), dispatchAll(t), dispatchAll(other)]);
    await Promise.all([t.app.get(NotificationMailer).sweep(), other.app.get(NotificationMailer).sweep()]);
    const twice = (m: { raw: string }) => /Twice \d/.test(m.raw);
    await until(async () => smtp.messages.filter(twice).length >= 9, 15_000);
    await Promise.all([t.app.get(NotificationMailer).sweep(), other.app.get(NotificationMailer).sweep()]);
    await new Promise((r) => setTimeout(r, 500));
    const sent = smtp.messages.filter(twice).map((m) => `${m.to[0]} ${m.subject}`);
    expect(sent.sort()).toEqual(users.flatMap((u) => [1, 2, 3].map((i) => `${u.email} New task: Twice ${i}`)).sort());
    const ds = t.app.get(DataSource);
    const [{ n }] = await ds.query(`SELECT COUNT(*) AS n FROM notifications WHERE title LIKE 'New task: Twice %'`);
    expect(Number(n)).toBe(9);
  });
});
