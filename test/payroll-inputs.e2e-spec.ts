import { computePayroll, engineColumn, planColumns } from '../src/payroll/engine/payroll-engine';
import { HookColumn, PayrollInputsService } from '../src/payroll/runs/payroll-inputs.service';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, TestApp } from './helpers/test-app';

/** The calculation hooks computed from attendance, timesheets and leave, then fed to the engine. */
describe('payroll calculation hooks from our own data', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  const from = '2025-03-01';
  const to = '2025-03-31';
  const attendance: number[] = [];
  const entries: number[] = [];
  let request: number;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    const admin = c.users.admin.token;
    const ok = async (method: 'POST', url: string, body: object, token = admin) => {
      const res = await call(method, url, token, body);
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({ url, status: 200, body: expect.anything() });
      return res.json().data;
    };
    const employee = c.emp.report1;
    // Attendance: one record before the period, 10 h on the 3rd, 6.5 h on the 4th (two records), one still open.
    for (const [i, o] of [
      ['2025-02-28T08:00:00Z', '2025-02-28T18:00:00Z'],
      ['2025-03-03T08:00:00Z', '2025-03-03T18:00:00Z'],
      ['2025-03-04T08:00:00Z', '2025-03-04T12:00:00Z'],
      ['2025-03-04T13:00:00Z', '2025-03-04T15:30:00Z'],
    ])
      attendance.push((await ok('POST', '/attendance', { employee, in_time: i, out_time: o })).id);
    await ok('POST', '/attendance', { employee, in_time: '2025-03-05T08:00:00Z' });
    // Timesheets: two approved entries (3 h on project A, 1.5 h without project) and a draft.
    const project = (await ok('POST', '/projects', { name: 'Payroll hooks project' })).id;
    const me = c.users.employee.token;
    for (const body of [
      { project, date: '2025-03-10', start: '09:00', end: '12:00' },
      { date: '2025-03-11', start: '09:00', end: '10:30' },
    ]) {
      const id = (await ok('POST', '/timesheets', body, me)).id;
      entries.push(id);
      await ok('POST', `/timesheets/${id}/submit`, {}, me);
      await ok('POST', `/timesheets/${id}/approve`, {});
    }
    await ok('POST', '/timesheets', { date: '2025-03-12', start: '09:00', end: '17:00' }, me);
    // Leave: approved Thu 27 March to Tue 1 April = 3 working days in March (27, 28, 31), 4 in all.
    const type = (await ok('POST', '/leave-types', { name: 'Hooks annual', default_days: 30 })).id;
    await ok('POST', '/leave-periods', { name: 'Hooks 2025', date_start: '2025-01-01', date_end: '2025-12-31' });
    request = (await ok('POST', '/leaves', { leave_type: type, date_start: '2025-03-27', date_end: '2025-04-01' }, me)).id;
    await ok('POST', `/leaves/${request}/approve`, {});
  });
  afterAll(() => t.close());

  it('computes every hook for the period with the records it came from, zero without records, and the engine uses them', async () => {
    const hooks: HookColumn[] = [
      { id: 1, hook: 'hours_worked', args: {} },
      { id: 2, hook: 'regular_hours', args: {} },
      { id: 3, hook: 'overtime_hours', args: {} },
      { id: 4, hook: 'overtime_hours', args: { daily_threshold: 6 } },
      { id: 5, hook: 'approved_timesheet_hours', args: {} },
      { id: 6, hook: 'approved_timesheet_hours', args: { project: 1 } },
      { id: 7, hook: 'approved_leave_days', args: {} },
      { id: 8, hook: 'employee_field', args: { field: 'years_of_service' } },
    ];
    const inputs = t.app.get(PayrollInputsService);
    const ids = [c.emp.report1, c.emp.report2];
    const stored = await inputs.hookInputs(hooks, ids, from, to);
    const values = (column: number, employee: number) => stored.get(column)?.get(employee)?.value;
    const of = (employee: number) => hooks.map((h) => values(h.id, employee));
    const records = (employee: number) => hooks.map((h) => stored.get(h.id)?.get(employee)?.records ?? []);
    // Overtime lists only the days that had some (the 3rd; the 4th too over 6 h); the field has none.
    const [, march3, march4a, march4b] = attendance;
    expect(records(c.emp.report1)).toEqual([
      [march3, march4a, march4b],
      [march3, march4a, march4b],
      [march3],
      [march3, march4a, march4b],
      entries,
      [entries[0]],
      [request],
      [],
    ]);
    expect(records(c.emp.report2)).toEqual([[], [], [], [], [], [], [], []]);
    // 10 + 6.5 h; regular min(h, 8) per day = 8 + 6.5; overtime 2, or with a 6 h threshold 4 + 0.5.
    expect(of(c.emp.report1)).toEqual(['16.5', '14.5', '2', '4.5', '4.5', '3', '3', '5']);
    expect(of(c.emp.report2)).toEqual(['0', '0', '0', '0', '0', '0', '0', '5']); // joined 2020-01-15

    const column = engineColumn;
    const { plan } = planColumns([
      column(3, 'overtime', { hook: 'overtime_hours' }),
      column(10, 'overtime_pay', { script: 'overtime * 25.125' }),
      column(7, 'unpaid', { hook: 'approved_leave_days' }),
    ]);
    const fields = await inputs.engineFields(ids, to);
    const result = computePayroll(
      plan!,
      ids.map((id) => ({ id, minorUnit: 2, fields: fields.get(id)!, salary: new Map() })),
      values,
    );
    const row = (i: number) => Object.fromEntries(result.columns.map((id, k) => [id, result.rows[i].values[k]]));
    expect(row(0)).toEqual({ 3: '2.00', 10: '50.25', 7: '3.00' });
    expect(row(1)).toEqual({ 3: '0.00', 10: '0.00', 7: '0.00' });
    expect(result.errors).toEqual([]);
  });
});
