import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { DataSource } from 'typeorm';
import { MAIL_SEND_JOB, MailOutbox } from '../src/mail/outbox/mail-outbox.service';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { buildCompany, Company } from './helpers/company';
import { describeLongWithPdf, pdfText } from './helpers/pdf';
import { pdfAttachments, SmtpSink, startSmtp } from './helpers/smtp';
import { apiCaller, bearer, createTestApp, okCaller, TestApp, until } from './helpers/test-app';

type Payslip = {
  id: number;
  employee: number;
  delivery_status: string;
  delivered_at: string | null;
  delivery_error: string | null;
};

/** Payslip e-mails (issue 29): one per payslip and request, with the PDF, statuses, failures, re-sends. */
describeLongWithPdf('payslip delivery', () => {
  let t: TestApp;
  let c: Company;
  let smtp: SmtpSink;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let payroll: number;
  const staff: number[] = [];

  const settled = async (id: number) => {
    await until(
      async () => !['Processing', 'Completing'].includes((await ok('GET', `/payroll_config/payrolls/${id}`, admin)).status),
      30_000,
    );
    return ok('GET', `/payroll_config/payrolls/${id}`, admin);
  };
  const payslips = async (): Promise<Payslip[]> => ok('GET', `/payroll_config/payrolls/${payroll}/payslips`, admin);
  const statusOf = async (employee: number) => (await payslips()).find((p) => p.employee === employee)!;
  const send = (body: object = {}, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/app/api/payroll_config/payrolls/${payroll}/send-payslips`,
      headers: { ...bearer(admin), ...(key ? { 'idempotency-key': key } : {}) },
      payload: body,
    });
  const sendOne = (payslip: number, body: object = {}) =>
    call('POST', `/payroll_config/payrolls/${payroll}/payslips/${payslip}/send`, admin, body);
  const to = (employee: number) => `employee-${employee}@company.test`;
  const quiet = () => new Promise((r) => setTimeout(r, 300));

  beforeAll(async () => {
    smtp = await startSmtp();
    // Chunks of one payslip (issue 70): generated one employee a chunk, sent one payslip a window.
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_RETRY_BACKOFF_MS: '10', PAYSLIP_CHUNK_SIZE: '1' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    staff.push(c.emp.manager, c.emp.report1, c.emp.report2);
    const ds = t.app.get(DataSource);
    for (const id of staff)
      await ds.query('UPDATE employees SET work_email = ?, private_email = NULL WHERE id = ?', [to(id), id]);
    const basic = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic', component_type: 'Earning' })).id;
    for (const employee of staff) {
      await ok('PUT', `/employees/${employee}/salary`, admin, { items: [{ component: basic, amount: '2500.00' }] });
      await ok('POST', '/payroll_config/payroll-employees', admin, { employee, pay_frequency: 4, currency: 'EUR' });
    }
    const column = (await ok('POST', '/payroll_config/payroll-columns', admin, { name: 'Net pay', salary_components: [basic] }))
      .id;
    const template = await ok('POST', '/payroll_config/payslip-templates', admin, {
      name: 'Mailed',
      content: '<h1>{{payroll.name}}</h1><p>{{employee.name}}</p>{{#each columns}}<p>{{name}} {{value}}</p>{{/each}}',
    });
    const created = await ok('POST', '/payroll_config/payrolls', admin, {
      name: 'April 2026',
      pay_period: 4,
      department: c.departments.engineering,
      date_start: '2026-04-01',
      date_end: '2026-04-30',
      columns: [column],
      payslip_template: template.id,
    });
    payroll = created.id;
    await ok('POST', `/payroll_config/payrolls/${payroll}/process`, admin);
    expect((await settled(payroll)).status).toBe('Processed');
    // Not Completed yet: nothing to send.
    expect((await send()).json().error.code).toBe('INVALID_STATE');
    await ok('POST', `/payroll_config/payrolls/${payroll}/generate-payslips`, admin);
    expect((await settled(payroll)).status).toBe('Completed');
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('sends one e-mail per payslip with its PDF; the same Idempotency-Key, or a second request, sends nothing more', async () => {
    const first = await send({}, 'send-april');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toEqual({ request: expect.any(String), queued: 3, no_address: 0, skipped: 0, send_after: null });
    await until(async () => smtp.messages.length >= 3 && (await payslips()).every((p) => p.delivery_status === 'sent'), 15_000);
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual(staff.map(to).sort());
    for (const message of smtp.messages) {
      expect(message.subject).toBe('Your payslip: April 2026');
      const employee = staff.find((id) => to(id) === message.to[0])!;
      const name = (await ok('GET', `/employees/${employee}`, admin)).first_name;
      expect(message.raw).toContain(`Dear ${name},`);
      const [attachment, ...more] = pdfAttachments(message.raw);
      expect(more).toEqual([]);
      expect(attachment.filename).toMatch(/^payslip-April-2026-.+\.pdf$/);
      expect(pdfText(attachment.content)).toContain('April 2026');
    }
    for (const p of await payslips())
      expect(p).toMatchObject({ delivery_status: 'sent', delivered_at: expect.any(String), delivery_error: null });

    const replay = await send({}, 'send-april');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data).toEqual(first.json().data);
    const again = await send();
    expect(again.json().data).toMatchObject({ queued: 0, skipped: 3 });
    await quiet();
    expect(smtp.messages).toHaveLength(3);
    const events = await t.app.get(DataSource).query(`SELECT event FROM outbox_events WHERE event LIKE 'payslip.%'`);
    expect(events.map((e: { event: string }) => e.event)).toEqual(['payslip.sent', 'payslip.sent', 'payslip.sent']);
  });

  it('an SMTP refusal is failed with the reason, tasks the Admins, and a re-send succeeds', async () => {
    const target = await statusOf(c.emp.report1);
    smtp.setRejectCode(550);
    try {
      expect((await sendOne(target.id)).statusCode).toBe(200);
      await until(async () => (await statusOf(c.emp.report1)).delivery_status === 'failed', 10_000);
    } finally {
      smtp.setRejectCode(null);
    }
    expect((await statusOf(c.emp.report1)).delivery_error).toMatch(/^550 .*Mailbox unavailable/);
    const failed = await ok(
      'GET',
      `/payroll_config/payrolls/${payroll}/payslips?filters=${encodeURIComponent('{"delivery_status":"failed"}')}`,
      admin,
    );
    expect(failed.map((p: Payslip) => p.id)).toEqual([target.id]);
    const task = async () =>
      (await ok('GET', `/tasks?filters=${encodeURIComponent('{"source":"payslip-delivery"}')}`, admin)) as Array<{
        status: string;
        title: string;
      }>;
    await t.app.get(OutboxRelay).drain(); // the task comes from the outbox
    expect(await task()).toEqual([
      expect.objectContaining({ status: 'Open', title: `Payslip e-mails of payroll ${payroll} failed` }),
    ]);

    const before = smtp.messages.length;
    expect((await sendOne(target.id)).statusCode).toBe(200);
    await until(async () => (await statusOf(c.emp.report1)).delivery_status === 'sent', 10_000);
    expect(smtp.messages.length).toBe(before + 1);
    await t.app.get(OutboxRelay).drain();
    expect(await task()).toEqual([expect.objectContaining({ status: 'Completed' })]);
  });

  it('a delivery found claimed but never settled (its process died during the SMTP call) is unknown and not sent again', async () => {
    const target = await statusOf(c.emp.report2);
    const ds = t.app.get(DataSource);
    // What a worker killed between the claim and the answer leaves: the payslip's e-mail 'sending'.
    await ds.query(
      `INSERT INTO outgoing_mail (purpose, ref, request_id, status, address, created_at, started_at) VALUES ('payslip', ?, 'crashed', 'sending', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [String(target.id), to(c.emp.report2)],
    );
    const [{ id }] = await ds.query(`SELECT id FROM outgoing_mail WHERE request_id = 'crashed'`);
    const before = smtp.messages.length;
    await (await t.app.get(JobQueue).add(MAIL_SEND_JOB, { id: Number(id) })).firstAttempt(5000);
    expect((await t.app.get(MailOutbox).one(Number(id)))?.status).toBe('unknown');
    // The payslip's status moved in the transaction that settled its e-mail.
    expect(await statusOf(c.emp.report2)).toMatchObject({
      delivery_status: 'unknown',
      delivery_error: expect.stringMatching(/may or may not have arrived/),
    });
    // A payroll-wide request leaves it alone; sent one by one, it goes.
    expect((await send()).json().data).toMatchObject({ queued: 0, skipped: 3 });
    await quiet();
    expect(smtp.messages.length).toBe(before);
    await sendOne(target.id);
    await until(async () => (await statusOf(c.emp.report2)).delivery_status === 'sent', 10_000);
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('send_after holds the e-mails until then; an employee without an address is no_address', async () => {
    const ds = t.app.get(DataSource);
    await ds.query('UPDATE employees SET work_email = NULL WHERE id = ?', [c.emp.manager]);
    const manager = await statusOf(c.emp.manager);
    const before = smtp.messages.length;
    const later = new Date(Date.now() + 1500).toISOString();
    const res = await call('POST', `/payroll_config/payrolls/${payroll}/payslips/${manager.id}/send`, admin, {
      send_after: later,
    });
    expect(res.json().data).toMatchObject({ queued: 0, no_address: 1 });
    expect(await statusOf(c.emp.manager)).toMatchObject({
      delivery_status: 'no_address',
      delivery_error: 'the employee has no work e-mail',
    });

    await ds.query('UPDATE employees SET work_email = ? WHERE id = ?', [to(c.emp.manager), c.emp.manager]);
    const held = await send({ send_after: later, employees: [c.emp.manager] });
    expect(held.json().data).toMatchObject({ queued: 1, send_after: later });
    await t.app.get(MailOutbox).queueDue();
    await quiet();
    expect(smtp.messages.length).toBe(before);
    expect((await statusOf(c.emp.manager)).delivery_status).toBe('queued');
    await new Promise((r) => setTimeout(r, Date.parse(later) - Date.now() + 50));
    await t.app.get(MailOutbox).queueDue();
    await until(async () => (await statusOf(c.emp.manager)).delivery_status === 'sent', 10_000);
    expect(smtp.messages.length).toBe(before + 1);
  });

  it('the e-mail templates are settings checked on save and used as saved', async () => {
    const bad = await call('PUT', '/settings', admin, { name: 'Payslip E-mail Subject', value: 'Pay {{employee.salary}}' });
    expect([bad.statusCode, bad.json().error.details[0].field]).toEqual([400, 'value']);
    expect(bad.json().error.details[0].message).toMatch(/employee\.salary/);
    const partial = await call('PUT', '/settings', admin, { name: 'Payslip E-mail Body', value: '{{> evil}}' });
    expect(partial.statusCode).toBe(400);
    await ok('PUT', '/settings', admin, {
      name: 'Payslip E-mail Subject',
      value: '{{company.name}}: {{payroll.name}} for {{employee.name}}',
    });
    const companyName = (await ok('GET', '/settings?limit=100', admin)).find(
      (x: { name: string }) => x.name === 'Company Name',
    ).value;
    try {
      const target = await statusOf(c.emp.report2);
      const before = smtp.messages.length;
      await sendOne(target.id);
      await until(async () => smtp.messages.length > before, 10_000);
      const name = (await ok('GET', `/employees/${c.emp.report2}`, admin)) as { first_name: string; last_name: string };
      expect(smtp.messages[before].subject).toMatch(new RegExp(`: April 2026 for ${name.first_name} ${name.last_name}$`));
      // The subject is not HTML: a company called Smith & Sons is not "Smith &amp; Sons".
      await ok('PUT', '/settings', admin, { name: 'Company Name', value: 'Smith & Sons <Ltd>' });
      await sendOne(target.id);
      await until(async () => smtp.messages.length > before + 1, 10_000);
      expect(smtp.messages[before + 1].subject).toMatch(/^Smith & Sons <Ltd>: April 2026 for /);
    } finally {
      await ok('PUT', '/settings', admin, { name: 'Payslip E-mail Subject', value: 'Your payslip: {{payroll.name}}' });
      await ok('PUT', '/settings', admin, { name: 'Company Name', value: companyName });
    }
  });

  it('refuses what it cannot do: other levels, employees outside the payroll, a payslip queued already', async () => {
    expect((await call('POST', `/payroll_config/payrolls/${payroll}/send-payslips`, c.users.employee.token, {})).statusCode).toBe(
      403,
    );
    expect((await call('POST', `/payroll_config/payrolls/${payroll}/send-payslips`, c.users.manager.token, {})).statusCode).toBe(
      403,
    );
    const outside = await send({ employees: [c.emp.outsider] });
    expect([outside.statusCode, outside.json().error.details[0].field]).toEqual([400, 'employees']);
    expect((await send({ send_after: 'tomorrow' })).statusCode).toBe(400);
    const target = await statusOf(c.emp.report1);
    await sendOne(target.id, { send_after: new Date(Date.now() + 3_600_000).toISOString() });
    const twice = await sendOne(target.id);
    expect([twice.statusCode, twice.json().error.code]).toEqual([409, 'CONFLICT']);
  });
});
