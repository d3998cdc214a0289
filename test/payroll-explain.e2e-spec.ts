import { DataSource } from 'typeorm';
import { Payroll } from '../src/payroll/entities/payroll-run.entities';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, processPayroll, TestApp } from './helpers/test-app';

type Grid = { columns: Array<{ id: number }>; rows: Array<{ employee: { id: number }; values: Record<string, string | null> }> };
type Input = { kind: string; value: string; name: string; [k: string]: unknown };
type Explained = {
  column: number;
  variable: string;
  value: string | null;
  rule: string;
  script: string | null;
  inputs: Input[];
  steps: Array<{ expression: string; value: string }>;
  rounding: { exact: string; places: number; value: string } | null;
  error: string | null;
  depends_on: Explained[];
};

/** Explain a cell (issue 32, docs/api/decisions.md §18): from the inputs stored with the run, equal to the stored value. */
describe('payroll cell explanations (GET /payroll_config/payrolls/{id}/cells/{employee}/{column}/explain)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  const col: Record<string, number> = {};
  const attendance: number[] = [];
  let payroll: number;

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object, token = admin) =>
    okCaller(t.app)(method, url, token, body);
  const processed = (id: number) => processPayroll(t.app, admin, id);
  const explain = (employee: number, column: number, id = payroll, token = admin) =>
    call('GET', `/payroll_config/payrolls/${id}/cells/${employee}/${column}/explain`, token);
  const explained = async (employee: number, column: number, id = payroll): Promise<Explained> => {
    const res = await explain(employee, column, id);
    expect([res.statusCode, res.statusCode === 200 ? null : res.json()]).toEqual([200, null]);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', body)).id as number;
    col.basic = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    col.overtime = await column({ name: 'Overtime hours', variable: 'overtime', calculation_hook: 'overtime_hours' });
    col.bonus = await column({ name: 'Bonus', variable: 'bonus', editable: true, default_value: '0' });
    col.overtimePay = await column({ name: 'Overtime pay', variable: 'overtime_pay', script: 'overtime * basic / 173.333' });
    col.gross = await column({ name: 'Gross', variable: 'gross', add_columns: [col.basic, col.overtimePay, col.bonus] });
    col.tax = await column({ name: 'Tax', variable: 'tax', script: 'if(gross > 4000, (gross - 4000) * 0.25, 0)' });
    col.net = await column({ name: 'Net', variable: 'net', add_columns: [col.gross], sub_columns: [col.tax] });
    col.service = await column({
      name: 'Years of service',
      variable: 'service_years',
      calculation_hook: 'employee_field',
      calculation_hook_args: { field: 'years_of_service' },
    });
    for (const [employee, amount] of [
      [c.emp.manager, '5200.00'],
      [c.emp.report1, '3100.00'],
      [c.emp.report2, '4000.00'],
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
    // The manager: 10.5 h on the 3rd and 9 h on the 4th (overtime 2.5 + 1), 7 h on the 5th (none).
    for (const [i, o] of [
      ['2025-03-03T07:00:00Z', '2025-03-03T17:30:00Z'],
      ['2025-03-04T08:00:00Z', '2025-03-04T17:00:00Z'],
      ['2025-03-05T08:00:00Z', '2025-03-05T15:00:00Z'],
    ])
      attendance.push((await ok('POST', '/attendance', { employee: c.emp.manager, in_time: i, out_time: o })).id);
    payroll = (
      await ok('POST', '/payroll_config/payrolls', {
        name: 'Explained March',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-03-01',
        date_end: '2025-03-31',
        columns: Object.values(col),
      })
    ).id;
    await processed(payroll);
  });
  afterAll(() => t.close());

  it('explains every cell of the run with its stored value', async () => {
    const grid: Grid = await ok('GET', `/payroll_config/payrolls/${payroll}/data`);
    expect(grid.rows).toHaveLength(3);
    for (const row of grid.rows)
      for (const { id } of grid.columns)
        expect([row.employee.id, id, (await explained(row.employee.id, id)).value]).toEqual([
          row.employee.id,
          id,
          row.values[String(id)],
        ]);
  });

  it('names each input and its source: salary components, hook records, script steps, rounding, the cells it reads', async () => {
    // Overtime 3.5 h from the records of the 3rd and 4th (the 5th had none).
    const overtime = await explained(c.emp.manager, col.overtime);
    expect(overtime).toMatchObject({ value: '3.50', rule: 'hook', error: null });
    expect(overtime.inputs).toEqual([
      {
        kind: 'hook',
        value: '3.5',
        name: 'Overtime hours',
        hook: 'overtime_hours',
        args: {},
        source: 'attendance',
        records: [attendance[0], attendance[1]],
      },
    ]);
    // An employee field through its hook: joined 2020-01-15, five years at the end of March 2025.
    const service = await explained(c.emp.manager, col.service);
    expect(service).toMatchObject({ value: '5.00', rule: 'hook' });
    expect(service.inputs).toEqual([
      expect.objectContaining({ kind: 'hook', hook: 'employee_field', value: '5', source: 'employee', records: [] }),
    ]);
    // 3.5 × 5200 / 173.333 = 105.0002… → 105.00.
    const pay = await explained(c.emp.manager, col.overtimePay);
    expect(pay).toMatchObject({ rule: 'script', script: 'overtime * basic / 173.333', value: '105.00' });
    expect(pay.inputs.map((i) => [i.kind, i.variable, i.value])).toEqual([
      ['column', 'overtime', '3.5'],
      ['column', 'basic', '5200'],
    ]);
    expect(pay.steps.at(-1)).toEqual({ expression: '(overtime * basic) / 173.333', value: pay.rounding?.exact });
    expect(pay.rounding).toEqual({ exact: expect.stringMatching(/^105\.000201/), places: 2, value: '105.00' });
    const net = await explained(c.emp.manager, col.net);
    expect(net).toMatchObject({ rule: 'sum', value: '4978.75' }); // gross 5305, tax 326.25
    expect(net.inputs.map((i) => [i.name, i.sign, i.value])).toEqual([
      ['Gross', '+', '5305'],
      ['Tax', '-', '326.25'],
    ]);
    // The tree below: every cell net reads, directly or not, each with its own derivation.
    expect(net.depends_on.map((d) => d.variable)).toEqual(
      expect.arrayContaining(['basic', 'overtime', 'bonus', 'overtime_pay', 'gross', 'tax']),
    );
    expect(net.depends_on).toHaveLength(6);
    const basicCell = net.depends_on.find((d) => d.variable === 'basic');
    expect(basicCell?.inputs).toEqual([
      { kind: 'salary_component', value: '5200.00', name: 'Basic', sign: '+', component: basic },
    ]);
    expect(net.depends_on.find((d) => d.variable === 'bonus')).toMatchObject({ rule: 'default', value: '0.00' });
    // A branch not taken is not a step: report1 (gross 3100) takes the 0.
    const tax = await explained(c.emp.report1, col.tax);
    expect(tax.steps.map((s) => s.expression)).not.toContain('(gross - 4000) * 0.25');
    expect(tax.value).toBe('0.00');
  });

  it('explains an edit with who made it and when, and follows it into the cells that read it', async () => {
    const before = Date.now();
    await ok('POST', `/payroll_config/payrolls/${payroll}/data`, {
      values: [{ employee: c.emp.report2, column: col.bonus, amount: '300.00' }],
    });
    const bonus = await explained(c.emp.report2, col.bonus);
    expect(bonus).toMatchObject({ rule: 'edit', value: '300.00' });
    expect(bonus.inputs).toEqual([
      {
        kind: 'edit',
        value: '300.00',
        name: 'Bonus',
        column: col.bonus,
        edited_by: c.users.admin.user.id,
        edited_at: expect.any(String),
      },
    ]);
    expect(Date.parse(bonus.inputs[0].edited_at as string)).toBeGreaterThanOrEqual(before - 1000);
    // gross 4300 → tax 75; the net's tree holds the edit.
    const net = await explained(c.emp.report2, col.net);
    expect(net.value).toBe('4225.00');
    expect(net.depends_on.find((d) => d.variable === 'bonus')?.rule).toBe('edit');
  });

  it('explains the run from its own inputs after salaries, attendance and columns changed (and an edit recomputes from them too)', async () => {
    const grid: Grid = await ok('GET', `/payroll_config/payrolls/${payroll}/data`);
    // A raise back-dated into the run's month, recorded after it ran.
    await ok('POST', `/employees/${c.emp.manager}/changes`, {
      effective_date: '2025-03-01',
      reason: 'Back-dated raise',
      salary: [{ component: basic, amount: '9999.00' }],
    });
    await ok('POST', '/attendance', {
      employee: c.emp.manager,
      in_time: '2025-03-10T06:00:00Z',
      out_time: '2025-03-10T20:00:00Z',
    });
    await ok('POST', '/payroll_config/payroll-columns', {
      id: col.tax,
      name: 'Tax',
      variable: 'tax',
      script: 'if(gross > 4000, (gross - 4000) * 0.5, 0)',
    });
    const net = await explained(c.emp.manager, col.net);
    expect(net.value).toBe(grid.rows.find((r) => r.employee.id === c.emp.manager)?.values[String(col.net)]);
    expect(net.depends_on.find((d) => d.variable === 'basic')?.inputs[0].value).toBe('5200.00');
    expect(net.depends_on.find((d) => d.variable === 'tax')?.script).toBe('if(gross > 4000, (gross - 4000) * 0.25, 0)');
    expect(net.depends_on.find((d) => d.variable === 'overtime')?.inputs[0].records).toEqual([attendance[0], attendance[1]]);
    // A grid edit recomputes the row from the run's inputs: only the edit and what follows from it change.
    await ok('POST', `/payroll_config/payrolls/${payroll}/data`, {
      values: [{ employee: c.emp.manager, column: col.bonus, amount: '100.00' }],
    });
    const after: Grid = await ok('GET', `/payroll_config/payrolls/${payroll}/data`);
    const values = after.rows.find((r) => r.employee.id === c.emp.manager)?.values;
    // basic 5200 (not 9999), overtime 3.5 (not 17.5), gross 5405, tax at 25 %: 351.25.
    expect([values?.[col.basic], values?.[col.overtime], values?.[col.gross], values?.[col.tax], values?.[col.net]]).toEqual([
      '5200.00',
      '3.50',
      '5405.00',
      '351.25',
      '5053.75',
    ]);
    expect((await explained(c.emp.manager, col.net)).value).toBe('5053.75');
    // Processing again takes the inputs and columns as known now.
    await processed(payroll);
    const again = await explained(c.emp.manager, col.basic);
    expect(again.inputs[0].value).toBe('9999.00');
  });

  it('answers 404 outside the payroll or the caller’s scope, 403 below Restricted Admin, 409 before processing', async () => {
    expect((await explain(c.emp.outsider, col.net)).statusCode).toBe(404); // Sales: not in the payroll
    expect((await explain(c.emp.manager, 999_999)).statusCode).toBe(404);
    expect((await explain(c.emp.manager, col.net, 999_999)).statusCode).toBe(404);
    expect((await explain(c.emp.manager, col.net, payroll, c.users.restricted.token)).statusCode).toBe(200);
    expect((await explain(c.emp.manager, col.net, payroll, c.users.manager.token)).statusCode).toBe(403);
    const bad = await call('GET', `/payroll_config/payrolls/${payroll}/cells/abc/${col.net}/explain`, admin);
    expect([bad.statusCode, bad.json().error.details[0].field]).toEqual([400, 'employee']);
    const draft = (
      await ok('POST', '/payroll_config/payrolls', {
        name: 'Not yet',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-04-01',
        date_end: '2025-04-30',
        columns: [col.basic],
      })
    ).id;
    // Nobody in it yet: the employee is not in the payroll.
    expect((await explain(c.emp.manager, col.basic, draft)).statusCode).toBe(404);
    // A run computed before runs kept their inputs: 409 until processed again.
    await t.app.get(DataSource).getRepository(Payroll).update(payroll, { columnSetId: null });
    const old = await explain(c.emp.manager, col.net);
    expect([old.statusCode, old.json().error.code]).toEqual([409, 'INVALID_STATE']);
    await processed(payroll);
    expect((await explain(c.emp.manager, col.net)).statusCode).toBe(200);
  });
});
