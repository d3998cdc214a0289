import { DataSource } from 'typeorm';
import { transaction } from '../src/common/database/transaction';
import { OutboxEventName, OutboxEventPayloads, recordEvent } from '../src/common/outbox/outbox';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { SmtpSink, startSmtp } from './helpers/smtp';
import { apiCaller, createTestApp, createUser, okCaller, sleep, TestApp, until } from './helpers/test-app';

describe('tasks: made by the service from events, each once; the owner sets the status', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let annual: number;
  let smtp: SmtpSink;

  const ok = (method: Parameters<typeof call>[0], url: string, token: string, body?: object) =>
    okCaller(t.app)(method, url, token, body);
  const tasksOf = async (token: string, query = '') =>
    (await ok('GET', `/tasks${query}`, token)) as Array<Record<string, unknown>>;
  /** An event recorded as its module would (the relay hands it to the tasks subscriber). */
  const record = <E extends OutboxEventName>(event: E, data: OutboxEventPayloads[E]) =>
    transaction(t.app.get(DataSource), (em) => recordEvent(em, event, data));
  /** Waits for the relay, then a little longer for any duplicate. */
  const settle = async (token: string, pred: (tasks: Array<Record<string, unknown>>) => boolean) => {
    await until(async () => pred(await tasksOf(token)), 5000);
    await sleep(100);
    return tasksOf(token);
  };

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ SMTP_URL: smtp.url, MAIL_STATUS_WAIT_MS: '5000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    await ok('POST', '/leave-periods', admin, { name: '2026', date_start: '2026-01-01', date_end: '2026-12-31' });
    annual = (await ok('POST', '/leave-types', admin, { name: 'Annual', default_days: 20 })).id;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('a leave request gives the supervisor one Open approval task, completed when the request is decided', async () => {
    const employee = c.users.employee; // report1, supervised by the manager
    const request = await ok('POST', '/leaves', employee.token, {
      leave_type: annual,
      date_start: '2026-06-01',
      date_end: '2026-06-02',
    });
    const open = await settle(c.users.manager.token, (ts) =>
      ts.some((x) => x.source === 'leave-approval' && x.source_id === request.id),
    );
    const mine = open.filter((x) => x.source === 'leave-approval' && x.source_id === request.id);
    expect(mine).toEqual([
      {
        id: expect.any(Number),
        user: c.users.manager.user.id,
        title: expect.stringMatching(/^Approve the leave request of /),
        description: expect.stringContaining(`/leaves/${request.id}/approve`),
        status: 'Open',
        priority: 'Normal',
        due_date: null,
        link: `/app/api/leaves/${request.id}`,
        source: 'leave-approval',
        source_id: request.id,
        created_at: expect.any(String),
        completed_at: null,
      },
    ]);
    // Not the requester's, not the Admin's (the employee has a supervisor with a user).
    expect((await tasksOf(employee.token)).filter((x) => x.source === 'leave-approval')).toEqual([]);
    expect((await tasksOf(admin)).filter((x) => x.source === 'leave-approval')).toEqual([]);
    // The same request announced again does not double it.
    await record('leave.requested', { id: request.id, employee: c.emp.report1, changes: {} });
    await sleep(600);
    expect(
      (await tasksOf(c.users.manager.token)).filter((x) => x.source_id === request.id && x.source === 'leave-approval'),
    ).toHaveLength(1);

    await ok('POST', `/leaves/${request.id}/approve`, c.users.manager.token);
    const after = await settle(c.users.manager.token, (ts) =>
      ts.some((x) => x.source_id === request.id && x.status === 'Completed'),
    );
    expect(after.filter((x) => x.source === 'leave-approval' && x.source_id === request.id)).toEqual([
      expect.objectContaining({ status: 'Completed', completed_at: expect.any(String) }),
    ]);
    expect(await tasksOf(c.users.manager.token, '?filters={"status":"Open"}')).not.toContainEqual(
      expect.objectContaining({ source_id: request.id, source: 'leave-approval' }),
    );
  });

  it('without a supervisor who has a user, the Admins get the approval task; time entries the same, completed on decision', async () => {
    const lonely = (await ok('POST', '/employees', admin, employeeBody({ department: c.departments.sales }))).id;
    const user = await createUser(t.app, 'Employee', { employeeId: lonely });
    const entry = (await ok('POST', '/timesheets', user.token, { date: '2026-03-11', start: '09:00', end: '12:00' })).id;
    await ok('POST', `/timesheets/${entry}/submit`, user.token);
    const adminTasks = await settle(admin, (ts) => ts.some((x) => x.source === 'timesheet-approval' && x.source_id === entry));
    expect(adminTasks.filter((x) => x.source === 'timesheet-approval' && x.source_id === entry)).toEqual([
      expect.objectContaining({
        status: 'Open',
        link: `/app/api/timesheets/${entry}`,
        title: expect.stringMatching(/^Approve a time entry of /),
      }),
    ]);
    await ok('POST', `/timesheets/${entry}/approve`, admin);
    await settle(admin, (ts) =>
      ts.some((x) => x.source_id === entry && x.source === 'timesheet-approval' && x.status === 'Completed'),
    );
  });

  it('a user created with a temporary password gets "change your temporary password", done when it changes it', async () => {
    const employee = (await ok('POST', '/employees', admin, employeeBody())).id;
    const created = await ok('POST', `/employees/${employee}/create-user`, admin, {
      username: 'newbie',
      email: 'newbie@company.test',
    });
    expect(created.email_status).toBe('sent');
    const password = smtp.messages.find((m) => m.to.includes('newbie@company.test'))?.password;
    const login = await t.app.inject({
      method: 'POST',
      url: '/app/api/oauth/token',
      payload: { grant_type: 'password', username: 'newbie', password },
    });
    expect(login.statusCode).toBe(200);
    const token = login.json().access_token as string;
    const tasks = await settle(token, (ts) => ts.length > 0);
    expect(tasks).toEqual([
      expect.objectContaining({ source: 'password-change', source_id: created.user.id, status: 'Open', priority: 'High' }),
    ]);
    // The same event again: still one.
    await record('user.must_change_password', { user: created.user.id });
    await sleep(600);
    expect(await tasksOf(token)).toHaveLength(1);
    await ok('POST', '/users/me/password', token, { current_password: password, new_password: 'a-New-Secret-42' });
    expect(await settle(token, (ts) => ts[0]?.status === 'Completed')).toEqual([
      expect.objectContaining({ status: 'Completed' }),
    ]);
  });

  it('payroll events: every Admin gets one review task, completed with the payslips; a failure task, completed when processed', async () => {
    const second = await createUser(t.app, 'Admin');
    await record('payroll.failed', { id: 901, status: 'Failed', employees: 0, errors: 3 });
    for (const token of [admin, second.token]) {
      const ts = await settle(token, (x) => x.some((y) => y.source === 'payroll-failed'));
      expect(ts.filter((x) => x.source === 'payroll-failed')).toEqual([
        expect.objectContaining({ source_id: 901, status: 'Open', priority: 'High' }),
      ]);
    }
    await record('payroll.processed', { id: 901, status: 'Processed', employees: 12, errors: 0 });
    await record('payroll.processed', { id: 901, status: 'Processed', employees: 12, errors: 0 });
    for (const token of [admin, second.token]) {
      const ts = await settle(token, (x) => x.some((y) => y.source === 'payroll-review'));
      expect(ts.filter((x) => x.source_id === 901)).toEqual([
        expect.objectContaining({ source: 'payroll-review', status: 'Open', link: '/app/api/payroll_config/payrolls/901/data' }),
        expect.objectContaining({ source: 'payroll-failed', status: 'Completed' }),
      ]);
    }
    expect((await tasksOf(c.users.restricted.token)).filter((x) => x.source_id === 901)).toEqual([]);
    await record('payroll.completed', { id: 901, status: 'Completed', employees: 12, errors: 0 });
    await settle(second.token, (x) => x.filter((y) => y.source_id === 901).every((y) => y.status === 'Completed'));
  });

  it('status: the owner sets Open or Completed; others get 404; other values 400; Admins add tasks for users', async () => {
    const created = await ok('POST', '/tasks', admin, {
      user: c.users.employee.user.id,
      title: '  Sign the handbook ',
      priority: 'Low',
      due_date: '2026-12-31',
      link: '/app/api/employees/me',
    });
    expect(created).toMatchObject({
      user: c.users.employee.user.id,
      title: 'Sign the handbook',
      status: 'Open',
      priority: 'Low',
      due_date: '2026-12-31',
      source: 'manual',
      source_id: null,
    });
    const mine = await tasksOf(c.users.employee.token);
    expect(mine[0].id).toBe(created.id); // newest first
    const done = await ok('POST', `/task-list/${created.id}/status`, c.users.employee.token, { status: 'Completed' });
    expect(done).toMatchObject({ status: 'Completed', completed_at: expect.any(String) });
    expect(await ok('POST', `/task-list/${created.id}/status`, c.users.employee.token, { status: 'Open' })).toMatchObject({
      status: 'Open',
      completed_at: null,
    });
    for (const token of [admin, c.users.manager.token]) {
      const res = await call('POST', `/task-list/${created.id}/status`, token, { status: 'Completed' });
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'NOT_FOUND']);
    }
    for (const body of [{ status: 'Done' }, { status: 'open' }, { status: null }, {}, { status: 'Open', extra: 1 }]) {
      const res = await call('POST', `/task-list/${created.id}/status`, c.users.employee.token, body);
      expect([JSON.stringify(body), res.statusCode, res.json().error.code]).toEqual([
        JSON.stringify(body),
        400,
        'VALIDATION_FAILED',
      ]);
    }
    expect((await call('POST', '/task-list/abc/status', c.users.employee.token, { status: 'Open' })).statusCode).toBe(400);
    // Only Admins add tasks; to users that exist.
    expect((await call('POST', '/tasks', c.users.manager.token, { user: c.users.employee.user.id, title: 'x' })).statusCode).toBe(
      403,
    );
    const missing = await call('POST', '/tasks', admin, { user: 999999, title: 'x' });
    expect([missing.statusCode, missing.json().error.details]).toEqual([400, [{ field: 'user', message: 'does not exist' }]]);
    // Filters and paging.
    const open = await call('GET', '/tasks?filters={"status":"Open"}&limit=1', c.users.employee.token);
    expect(open.json()).toMatchObject({ total: expect.any(Number), limit: 1 });
    expect(open.json().data.every((x: { status: string }) => x.status === 'Open')).toBe(true);
    expect((await call('GET', '/tasks?filters={"status":"Later"}', c.users.employee.token)).statusCode).toBe(400);
    expect((await call('GET', '/tasks', '')).statusCode).toBe(401);
  });
});
