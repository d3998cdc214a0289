import { DataSource } from 'typeorm';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

interface Entry {
  id: number;
  at: string;
  actor: number | string;
  action: string;
  resource: string;
  resource_id: string;
  employee: number | null;
  changes: Record<string, [unknown, unknown]>;
  request_id: string | null;
}

/**
 * The audit log (issue 15): each kind of write leaves one entry, in its transaction, with who,
 * when, what and before/after; refused writes and rolled-back ones leave none; no secret is ever
 * recorded; Restricted Admins see their departments' employees only.
 */
describe('audit log', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let ds: DataSource;
  const count = async () => Number((await ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM audit_log'))[0].n);
  const entries = async (query = ''): Promise<Entry[]> => ok('GET', `/audit-log?limit=100${query}`, admin) as Promise<Entry[]>;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    ds = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it("an Admin changes a salary: the employee's audit log shows who, when, and the amounts before and after", async () => {
    const component = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic', component_type: 'Earning' }))
      .id;
    const employee = c.emp.report2;
    await ok('PUT', `/employees/${employee}/salary`, admin, { items: [{ component, amount: '2500.00' }] });
    const started = Date.now();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/app/api/employees/${employee}/salary`,
      headers: { authorization: `Bearer ${admin}`, 'x-request-id': 'raise-2026' },
      payload: { items: [{ component, amount: '2750.50' }] },
    });
    expect(res.statusCode).toBe(200);
    const log = (await ok(
      'GET',
      `/employees/${employee}/audit-log?filters=${encodeURIComponent('{"resource":"employees/salary"}')}`,
      admin,
    )) as Entry[];
    expect(log[0]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      actor: c.users.admin.user.id,
      action: 'update',
      resource: 'employees/salary',
      resource_id: String(employee),
      employee,
      changes: { [`component ${component}`]: ['2500', '2750.5'] },
      request_id: 'raise-2026',
    });
    expect(Math.abs(Date.parse(log[0].at) - started)).toBeLessThan(5000);
    expect(log[1].changes).toEqual({ [`component ${component}`]: [null, '2500'] });
  });

  it('employees: create, update (only changed fields; none recorded for no change) and delete', async () => {
    const before = await count();
    const created = await ok('POST', '/employees', admin, employeeBody({ first_name: 'Audra', department: c.departments.sales }));
    await ok('PUT', `/employees/${created.id}`, admin, { first_name: 'Audrey', city: 'Lyon' });
    await ok('PUT', `/employees/${created.id}`, admin, { first_name: 'Audrey' }); // no change
    await ok('DELETE', `/employees/${created.id}`, admin);
    const log = (
      await entries(`&filters=${encodeURIComponent(JSON.stringify({ resource: 'employees', resource_id: String(created.id) }))}`)
    ).reverse();
    expect(await count()).toBe(before + 3);
    expect(log.map((e) => e.action)).toEqual(['create', 'update', 'delete']);
    // resource_id as an integer, as ids are everywhere else, filters the same (issue 25).
    const byNumber = await entries(
      `&filters=${encodeURIComponent(JSON.stringify({ resource: 'employees', resource_id: created.id }))}`,
    );
    expect(byNumber.map((e) => e.id).sort()).toEqual(log.map((e) => e.id).sort());
    expect(log[0].changes).toMatchObject({ first_name: [null, 'Audra'], department: [null, c.departments.sales] });
    expect(log[0].changes).not.toHaveProperty('middle_name'); // null before and after
    expect(log[1].changes).toEqual({ first_name: ['Audra', 'Audrey'], city: [null, 'Lyon'] });
    expect(log[2].changes).toMatchObject({ first_name: ['Audrey', null], city: ['Lyon', null] });
    expect(log.every((e) => e.employee === created.id && e.actor === c.users.admin.user.id)).toBe(true);
  });

  it('refused writes leave no entry: validation, a forbidden field, out of scope, and a rollback inside the transaction', async () => {
    const before = await count();
    expect((await call('PUT', `/employees/${c.emp.report1}`, admin, { joined_date: 'yesterday' })).statusCode).toBe(400);
    expect(
      (await call('PUT', `/employees/${c.emp.report1}`, c.users.employee.token, { department: c.departments.sales })).statusCode,
    ).toBe(403);
    expect((await call('PUT', `/employees/${c.emp.outsider}`, c.users.restricted.token, { city: 'Oslo' })).statusCode).toBe(404);
    // Deleting the last active Admin's employee is refused by a removal hook after the delete's
    // audit entry was written in that transaction: both roll back.
    const lone = await ok('POST', '/employees', admin, employeeBody());
    const afterCreate = await count();
    await ds.query("UPDATE users SET active = 0 WHERE user_level = 'Admin'");
    await ds.query('UPDATE users SET active = 1, employee_id = ? WHERE id = ?', [lone.id, c.users.admin.user.id]);
    try {
      const refused = await call('DELETE', `/employees/${lone.id}`, admin);
      expect(refused.json().error.code).toBe('LAST_ADMIN');
      expect(await count()).toBe(afterCreate);
      expect((await call('GET', `/employees/${lone.id}`, admin)).statusCode).toBe(200);
    } finally {
      await ds.query('UPDATE users SET employee_id = NULL WHERE id = ?', [c.users.admin.user.id]);
      await ds.query("UPDATE users SET active = 1 WHERE user_level = 'Admin'");
    }
    expect(afterCreate).toBe(before + 1); // the create only
  });

  it('users, settings, reference data, leave decisions, time entries and attendance maintenance are recorded; secrets never', async () => {
    const user = await ok('POST', `/employees/${c.emp.grandReport}/create-user`, admin, {
      username: 'audited',
      email: 'audited@x.test',
    });
    await ok('PUT', `/users/${user.user.id}`, admin, { user_level: 'Manager' });
    await ok('POST', '/users/me/password', c.users.manager.token, {
      current_password: c.users.manager.password,
      new_password: 'a-new-Secret-42',
    });
    await ok('PUT', '/settings', admin, { name: 'Company Name', value: 'Audit Corp' });
    const title = await ok('POST', '/job-titles', admin, { name: 'Auditor' });
    await ok('PUT', `/job-titles/${title.id}`, admin, { name: 'Senior auditor' });
    await ok('DELETE', `/job-titles/${title.id}`, admin);
    await ok('POST', '/leave-periods', admin, { name: 'Audit 2026', date_start: '2026-01-01', date_end: '2026-12-31' });
    const type = await ok('POST', '/leave-types', admin, { name: 'Audit leave', default_days: 0, allow_negative: true });
    const leave = await ok('POST', '/leaves', c.users.employee.token, {
      leave_type: type.id,
      date_start: '2026-05-04',
      date_end: '2026-05-04',
    });
    await ok('POST', `/leaves/${leave.id}/approve`, c.users.manager.token, {});
    const entry = await ok('POST', '/timesheets', c.users.employee.token, { date: '2026-05-05', start: '09:00', end: '10:00' });
    await ok('POST', `/timesheets/${entry.id}/submit`, c.users.employee.token, {});
    await ok('POST', `/employees/${c.emp.report1}/status`, c.users.employee.token, { status: 'Auditing' });
    const record = await ok('POST', '/attendance', admin, {
      employee: c.emp.report1,
      in_time: '2026-05-05T08:00:00Z',
      out_time: '2026-05-05T16:00:00Z',
    });

    const log = await entries();
    const find = (resource: string, action: string, id?: number | string) =>
      log.find((e) => e.resource === resource && e.action === action && (id === undefined || e.resource_id === String(id)));
    expect(find('users', 'create', user.user.id)).toMatchObject({
      employee: c.emp.grandReport,
      changes: { username: [null, 'audited'] },
    });
    expect(find('users', 'update', user.user.id)?.changes).toEqual({ user_level: ['Employee', 'Manager'] });
    expect(log.find((e) => e.resource === 'employees/status')).toMatchObject({
      action: 'create',
      employee: c.emp.report1,
      actor: c.users.employee.user.id,
      changes: { status: [null, 'Auditing'] },
    });
    // A password change is recorded as such, with nothing of the password.
    expect(find('users', 'change-password', c.users.manager.user.id)).toMatchObject({
      actor: c.users.manager.user.id,
      changes: {},
    });
    expect(find('settings', 'update', 'Company Name')?.changes).toEqual({ value: ['My Company', 'Audit Corp'] });
    expect(find('job-titles', 'create', title.id)?.changes).toEqual({ name: [null, 'Auditor'] });
    expect(find('job-titles', 'update', title.id)?.changes).toEqual({ name: ['Auditor', 'Senior auditor'] });
    expect(find('job-titles', 'delete', title.id)?.changes).toEqual({ name: ['Senior auditor', null] });
    expect(find('leaves', 'create', leave.id)).toMatchObject({ actor: c.users.employee.user.id, employee: c.emp.report1 });
    expect(find('leaves', 'approve', leave.id)).toMatchObject({
      actor: c.users.manager.user.id,
      changes: { status: ['Pending', 'Approved'] },
    });
    expect(find('timesheets', 'submit', entry.id)?.changes).toEqual({ status: ['Draft', 'Submitted'] });
    expect(find('attendance', 'create', record.id)).toMatchObject({ employee: c.emp.report1, changes: { hours: [null, 8] } });
    // Nothing anywhere in the log holds a password, a hash or a token.
    const raw = (await ds.query<Array<{ changes: string }>>('SELECT changes FROM audit_log')).map((r) => r.changes).join('\n');
    expect(raw).not.toMatch(/password|scrypt\$|hra_|hrr_|a-new-Secret-42/i);
  });

  it('payroll configuration and runs: columns, payroll employees, payrolls, the request to process', async () => {
    const component = (
      await ok('POST', '/payroll_config/salary-components', admin, { name: 'Audit pay', component_type: 'Earning' })
    ).id;
    const column = await ok('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Audit pay',
      salary_components: [component],
    });
    await ok('POST', '/payroll_config/payroll-columns', admin, { id: column.id, name: 'Audit pay', enabled: false });
    const record = await ok('POST', '/payroll_config/payroll-employees', admin, {
      employee: c.emp.outsider,
      pay_frequency: 4,
      currency: 'EUR',
    });
    const payroll = await ok('POST', '/payroll_config/payrolls', admin, {
      name: 'Audit run',
      pay_period: 4,
      department: c.departments.sales,
      date_start: '2026-01-01',
      date_end: '2026-01-31',
      columns: [column.id],
    });
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`, admin);
    const log = await entries();
    const find = (resource: string, action: string, id: number) =>
      log.find((e) => e.resource === resource && e.action === action && e.resource_id === String(id));
    expect(find('payroll_config/payroll-columns', 'create', column.id)?.changes).toMatchObject({ name: [null, 'Audit pay'] });
    expect(find('payroll_config/payroll-columns', 'update', column.id)?.changes).toEqual({ enabled: [true, false] });
    expect(find('payroll_config/payroll-employees', 'create', record.id)).toMatchObject({
      employee: c.emp.outsider,
      changes: { currency: [null, 'EUR'] },
    });
    expect(find('payroll_config/payrolls', 'create', payroll.id)?.changes).toMatchObject({ name: [null, 'Audit run'] });
    expect(find('payroll_config/payrolls', 'process', payroll.id)).toMatchObject({
      actor: c.users.admin.user.id,
      changes: { status: ['Draft', 'Processing'] },
    });
  });

  it('a Restricted Admin sees the changes of its departments\u2019 employees only; filters and date range', async () => {
    const restricted = c.users.restricted.token;
    const seen = (await ok('GET', '/audit-log?limit=100', restricted)) as Entry[];
    const engineering = new Set([c.emp.manager, c.emp.report1, c.emp.report2, c.emp.grandReport]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => e.employee !== null && engineering.has(e.employee))).toBe(true);
    expect((await call('GET', `/employees/${c.emp.outsider}/audit-log`, restricted)).statusCode).toBe(404);
    expect((await call('GET', '/audit-log', c.users.manager.token)).statusCode).toBe(403);

    const byAction = await entries(`&filters=${encodeURIComponent('{"action":"approve"}')}`);
    expect(byAction.length).toBeGreaterThan(0);
    expect(byAction.every((e) => e.action === 'approve')).toBe(true);
    const byActor = await entries(`&filters=${encodeURIComponent(JSON.stringify({ actor: String(c.users.employee.user.id) }))}`);
    expect(byActor.map((e) => e.resource).sort()).toEqual(['employees/status', 'leaves', 'timesheets', 'timesheets']);
    expect(await entries('&from=2001-01-01&to=2001-12-31')).toEqual([]);
    const ids = (await entries()).map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a)); // newest first
    expect((await call('GET', '/audit-log?filters={"__proto__":1}', admin)).statusCode).toBe(400);
  });
});
