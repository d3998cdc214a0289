import { CompanyClock } from '../src/common/time/company-clock';
import { addDays } from '../src/common/time/days';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, okCaller, outboxEvents, TestApp, until } from './helpers/test-app';

/** Issue 67 item 4 (docs/api/checklists.md, "A leaver's access"): a leaver's access ends on its day, not before and not later. */
describe('a leaver on its day', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let clock: CompanyClock;
  const today = new Date().toISOString().slice(0, 10);
  /** A day far enough ahead that nothing else of the suite reaches it. */
  const leaving = addDays(today, 40);
  const at = (day: string, time: string) => new Date(`${day}T${time}Z`);

  beforeAll(async () => {
    // Tokens cached as in production: a leaver's must not outlive the start of its day in the cache.
    t = await createTestApp({ TOKEN_CACHE_MS: '5000', OUTBOX_RELAY_MS: '600000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    clock = t.app.get(CompanyClock);
  });
  afterEach(() => clock.moveTo(null));
  afterAll(() => t.close());

  const newEmployee = async (o: object = {}) =>
    (await ok('POST', '/employees', admin, employeeBody({ joined_date: '2024-01-10', department: c.departments.sales, ...o })))
      .id as number;
  const signIn = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload: { grant_type: 'password', username, password } });

  it('a termination recorded ahead: the token works to the day before and is refused from the first request of the day, before the job runs', async () => {
    const id = await newEmployee();
    const user = await createUser(t.app, 'Employee', { employeeId: id });
    await ok('PUT', `/employees/${id}`, admin, { termination_date: leaving });
    expect((await ok('GET', `/employees/${id}`, admin)).status).toBe('Active');

    clock.moveTo(at(addDays(leaving, -1), '23:59:58'));
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(200);
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(200);
    expect((await signIn(user.user.username, user.password)).statusCode).toBe(200);

    clock.moveTo(at(leaving, '00:00:01'));
    // No job ran: the account is still active in the table, and yet the token and the password are refused.
    expect((await ok('GET', `/users/${user.user.id}`, admin)).active).toBe(true);
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
    const refused = await signIn(user.user.username, user.password);
    expect([refused.statusCode, refused.json().error.code]).toEqual([401, 'INVALID_CREDENTIALS']);

    // The job makes it so in the tables: the user deactivated, the employee Terminated, once.
    await t.app.get(EmploymentHistoryJobs).run(at(leaving, '00:05:00'));
    await t.app.get(EmploymentHistoryJobs).run(at(leaving, '00:10:00'));
    expect((await ok('GET', `/users/${user.user.id}`, admin)).active).toBe(false);
    expect((await ok('GET', `/employees/${id}`, admin)).status).toBe('Terminated');
    const events = (await outboxEvents(t.app, 'employee.terminated')).filter((e) => (e.data as { id: number }).id === id);
    expect(events).toHaveLength(1);
    // An identity provider that polls SCIM sees the account inactive.
    const scimToken = (await ok('POST', '/scim-tokens', admin, { name: `leavers ${id}` })).token as string;
    const scim = await t.app.inject({
      method: 'GET',
      url: `/app/api/scim/v2/Users/${user.user.id}`,
      headers: { authorization: `Bearer ${scimToken}` },
    });
    expect([scim.statusCode, scim.json().active]).toEqual([200, false]);
  });

  it('a termination undone before its day undoes nothing early: the user was never deactivated', async () => {
    const id = await newEmployee();
    const user = await createUser(t.app, 'Employee', { employeeId: id });
    await ok('PUT', `/employees/${id}`, admin, { termination_date: leaving });
    clock.moveTo(at(addDays(leaving, -3), '12:00:00'));
    await t.app.get(EmploymentHistoryJobs).run();
    expect((await ok('GET', `/users/${user.user.id}`, admin)).active).toBe(true);
    await ok('PUT', `/employees/${id}`, admin, { termination_date: null });
    clock.moveTo(at(leaving, '09:00:00'));
    await t.app.get(EmploymentHistoryJobs).run();
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(200);
    expect((await ok('GET', `/employees/${id}`, admin)).status).toBe('Active');
  });

  it('PUT status Terminated takes effect at once, through the same path: Terminated, the user deactivated, employee.terminated', async () => {
    const id = await newEmployee();
    const user = await createUser(t.app, 'Employee', { employeeId: id });
    const put = await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
    expect(put).toMatchObject({ status: 'Terminated', termination_date: today });
    expect((await ok('GET', `/users/${user.user.id}`, admin)).active).toBe(false);
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
    const events = (await outboxEvents(t.app, 'employee.terminated')).filter((e) => (e.data as { id: number }).id === id);
    expect(events).toHaveLength(1);
  });

  it('an import row making an employee Terminated takes the same path: Terminated, the user deactivated', async () => {
    const id = await newEmployee();
    const user = await createUser(t.app, 'Employee', { employeeId: id });
    const code = (await ok('GET', `/employees/${id}`, admin)).employee_id as string;
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=employees&dry_run=false',
      headers: {
        authorization: `Bearer ${admin}`,
        'content-type': 'text/csv',
        'content-disposition': 'attachment; filename="leavers.csv"',
      },
      payload: `employee_id,status\n${code},Terminated\n`,
    });
    expect(res.statusCode).toBe(202);
    let status = '';
    await until(async () => {
      status = (await ok('GET', `/imports/${res.json().data.id}`, admin)).status as string;
      return ['Completed', 'Failed'].includes(status);
    }, 20_000);
    expect(status).toBe('Completed');
    expect((await ok('GET', `/employees/${id}`, admin)).status).toBe('Terminated');
    expect((await ok('GET', `/users/${user.user.id}`, admin)).active).toBe(false);
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
  });

  it('a leaving approver: its open steps go on without it (to the Admins when nobody is left), and later steps skip it', async () => {
    const year = Number(today.slice(0, 4)) + 1;
    for (const y of [year - 1, year])
      await call('POST', '/leave-periods', admin, { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    const annual = (await ok('POST', '/leave-types', admin, { name: 'Leaver test leave', default_days: 60 })).id as number;
    const boss = await newEmployee();
    const other = await newEmployee();
    const bossUser = await createUser(t.app, 'Manager', { employeeId: boss });
    const lonely = await newEmployee({ supervisor: boss });
    const shared = await newEmployee({ supervisor: boss, approver1: other });
    const lonelyUser = await createUser(t.app, 'Employee', { employeeId: lonely });
    const sharedUser = await createUser(t.app, 'Employee', { employeeId: shared });
    const leave = async (token: string, day: string) =>
      (await ok('POST', '/leaves', token, { leave_type: annual, date_start: day, date_end: day })) as {
        id: number;
        approval: { steps: Array<{ approvers: number[]; admins: boolean; substitutions: unknown[] }> };
      };
    const first = await leave(lonelyUser.token, `${year}-03-02`);
    const second = await leave(sharedUser.token, `${year}-03-03`);
    expect(first.approval.steps[0]).toMatchObject({ approvers: [boss], admins: false });
    expect(second.approval.steps[0]).toMatchObject({ approvers: [boss, other], admins: false });

    await ok('PUT', `/employees/${boss}`, admin, { status: 'Terminated' });
    expect((await ok('GET', `/leaves/${first.id}`, admin)).approval.steps[0]).toMatchObject({
      approvers: [],
      admins: true,
      substitutions: [{ approver: boss, by: null, reason: 'left' }],
    });
    expect((await ok('GET', `/leaves/${second.id}`, admin)).approval.steps[0]).toMatchObject({
      approvers: [other],
      admins: false,
      substitutions: [{ approver: boss, by: null, reason: 'left' }],
    });
    const pending = (await ok('GET', '/approvals/pending?limit=500', admin)) as Array<{ id: number }>;
    expect(pending.map((p) => p.id)).toContain(first.id);
    expect((await call('POST', `/leaves/${first.id}/approve`, bossUser.token)).statusCode).toBe(401);
    const left = (await outboxEvents(t.app, 'approval.approver_left')).map((e) => e.data);
    expect(left).toEqual(
      expect.arrayContaining([
        { id: first.id, kind: 'leave', employee: lonely, step: 1, left: boss, to_admins: true },
        { id: second.id, kind: 'leave', employee: shared, step: 1, left: boss, to_admins: false },
      ]),
    );
    // The Admins get the task of the step that went to them.
    await t.app.get(OutboxRelay).drain();
    const tasks = (await ok('GET', '/tasks?limit=500', admin)) as Array<{ source: string; source_id: number }>;
    expect(tasks).toContainEqual(expect.objectContaining({ source: 'leave-approval', source_id: first.id }));

    // A request made after the supervisor left skips it from the start.
    const later = await leave(lonelyUser.token, `${year}-03-04`);
    expect(later.approval.steps[0]).toMatchObject({
      approvers: [],
      admins: true,
      substitutions: [{ approver: boss, by: null, reason: 'left' }],
    });
  });
});
