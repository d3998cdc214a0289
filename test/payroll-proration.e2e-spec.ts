import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, processPayroll, TestApp } from './helpers/test-app';

type Grid = { columns: Array<{ id: number }>; rows: Array<{ employee: { id: number }; values: Record<string, string | null> }> };
type Segment = { from: string; to: string; days: number; amount: string; change: number };
type SalaryInput = {
  kind: string;
  value: string;
  component: number;
  proration?: { rule: string; period_days: number; segments: Segment[] };
};

/**
 * Payroll on dates (issue 44, docs/api/decisions.md §20), item 1 and 2: a raise from the 22nd, a joiner on the
 * 10th and a leaver on the 18th are paid by the days in force, by the payroll's or its pay
 * frequency's rule, and explain lists the segments.
 */
describe('payroll proration (issue 44)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  let bonus: number;
  const col: Record<string, number> = {};
  let joiner: number;
  let lateJoiner: number;
  let earlyLeaver: number;
  let raise: number;
  let june: number;

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object) => okCaller(t.app)(method, url, admin, body);
  const cells = async (payroll: number, column: number): Promise<Record<number, string | null>> => {
    const grid: Grid = await ok('GET', `/payroll_config/payrolls/${payroll}/data?limit=100`);
    return Object.fromEntries(grid.rows.map((r) => [r.employee.id, r.values[String(column)]]));
  };
  const salaryInput = async (payroll: number, employee: number, column = col.basic): Promise<SalaryInput> =>
    (await ok('GET', `/payroll_config/payrolls/${payroll}/cells/${employee}/${column}/explain`)).inputs[0];
  const payrollFor = async (name: string, extra: object = {}) =>
    (
      await ok('POST', '/payroll_config/payrolls', {
        name,
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-06-01',
        date_end: '2025-06-30',
        columns: Object.values(col),
        ...extra,
      })
    ).id as number;
  const employ = async (body: object, amount: string) => {
    const id = (await ok('POST', '/employees', employeeBody({ department: c.departments.engineering, ...body }))).id as number;
    await ok('PUT', `/employees/${id}/salary`, {
      items: [
        { component: basic, amount },
        { component: bonus, amount: '0' },
      ],
    });
    await ok('POST', '/payroll_config/payroll-employees', { employee: id, pay_frequency: 4, currency: 'EUR' });
    return id;
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    bonus = (await ok('POST', '/payroll_config/salary-components', { name: 'Bonus', component_type: 'Earning' })).id;
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', body)).id as number;
    col.basic = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    col.bonus = await column({ name: 'Bonus', variable: 'bonus', salary_components: [bonus] });
    col.gross = await column({ name: 'Gross', variable: 'gross', add_columns: [col.basic, col.bonus] });
    col.tax = await column({ name: 'Tax', variable: 'tax', script: 'gross * 0.2' });
    col.net = await column({ name: 'Net', variable: 'net', add_columns: [col.gross], sub_columns: [col.tax] });
    col.extra = await column({ name: 'Extra', variable: 'extra', editable: true, default_value: '0' });
    for (const [employee, amount] of [
      [c.emp.manager, '3000.00'],
      [c.emp.report1, '3100.00'],
      [c.emp.report2, '3000.00'],
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, {
        items: [
          { component: basic, amount },
          { component: bonus, amount: '0' },
        ],
      });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
    // The manager's raise from the 22nd (a Sunday), recorded now.
    raise = (
      await ok('POST', `/employees/${c.emp.manager}/changes`, {
        effective_date: '2025-06-22',
        reason: 'Raise',
        salary: [
          { component: basic, amount: '3600.00' },
          { component: bonus, amount: '0' },
        ],
      })
    ).id;
    // A leaver on the 18th; a joiner on the 10th; one who joined after June, one who left before it.
    await ok('PUT', `/employees/${c.emp.report2}`, { termination_date: '2025-06-18', status: 'Terminated' });
    joiner = await employ({ joined_date: '2025-06-10' }, '2200.00');
    lateJoiner = await employ({ joined_date: '2025-07-05' }, '2500.00');
    earlyLeaver = await employ({ joined_date: '2020-01-15', termination_date: '2025-05-31', status: 'Terminated' }, '2500.00');
    june = await payrollFor('June, calendar days');
    await processPayroll(t.app, admin, june);
  });
  afterAll(() => t.close());

  it("an employee's first salary takes effect from the day it joined, a later one today", async () => {
    const changes = async (id: number) =>
      ((await ok('GET', `/employees/${id}/changes`)) as Array<{ effective_date: string; salary: unknown[] | null }>).filter(
        (x) => x.salary?.length,
      );
    expect((await changes(joiner)).map((x) => x.effective_date)).toEqual(['2025-06-10']);
    expect((await changes(c.emp.report1)).map((x) => x.effective_date)).toEqual(['2020-01-15']);
    const joined = (await ok('GET', '/employees/' + c.emp.outsider)).joined_date as string;
    await ok('PUT', `/employees/${c.emp.outsider}/salary`, { items: [{ component: basic, amount: '1000.00' }] });
    await ok('PUT', `/employees/${c.emp.outsider}/salary`, { items: [{ component: basic, amount: '1100.00' }] });
    const dated = (await changes(c.emp.outsider)).map((x) => x.effective_date);
    expect(dated[0]).toBe(joined);
    expect(dated[1]).toBe(new Date().toISOString().slice(0, 10));
  });

  it('selects who was employed on some day of the period: joiners and leavers in, those before or after out', async () => {
    const rows = (await ok('GET', `/payroll_config/payrolls/${june}/employees?limit=100`)) as Array<{ id: number }>;
    expect(rows.map((r) => r.id).sort((a, b) => a - b)).toEqual(
      [c.emp.manager, c.emp.report1, c.emp.report2, joiner].sort((a, b) => a - b),
    );
    expect(rows.map((r) => r.id)).not.toContain(lateJoiner);
    expect(rows.map((r) => r.id)).not.toContain(earlyLeaver);
  });

  it('prorates by calendar days: a raise on the 22nd, a joiner on the 10th, a leaver on the 18th; the rest whole', async () => {
    expect(await cells(june, col.basic)).toEqual({
      [c.emp.manager]: '3180.00', // 3000 × 21/30 + 3600 × 9/30
      [c.emp.report1]: '3100.00',
      [c.emp.report2]: '1800.00', // 3000 × 18/30
      [joiner]: '1540.00', // 2200 × 21/30
    });
    // Formulas see the prorated amounts.
    expect((await cells(june, col.net))[c.emp.manager]).toBe('2544.00');
  });

  it('explains a prorated amount part by part, with the rule and the change of each part; a whole one has no proration', async () => {
    const manager = await salaryInput(june, c.emp.manager);
    const first = (
      (await ok('GET', `/employees/${c.emp.manager}/changes`)) as Array<{
        id: number;
        effective_date: string;
        salary: unknown[] | null;
      }>
    ).find((x) => x.salary?.length && x.effective_date === '2020-01-15')!.id;
    expect(manager).toEqual({
      kind: 'salary_component',
      name: 'Basic',
      component: basic,
      value: '3180.00',
      sign: '+',
      proration: {
        rule: 'calendar_days',
        period_days: 30,
        segments: [
          { from: '2025-06-01', to: '2025-06-21', days: 21, amount: '3000.00', change: first },
          { from: '2025-06-22', to: '2025-06-30', days: 9, amount: '3600.00', change: raise },
        ],
      },
    });
    expect((await salaryInput(june, joiner)).proration).toMatchObject({
      period_days: 30,
      segments: [{ from: '2025-06-10', to: '2025-06-30', days: 21, amount: '2200.00' }],
    });
    expect((await salaryInput(june, c.emp.report2)).proration?.segments).toEqual([
      expect.objectContaining({ from: '2025-06-01', to: '2025-06-18', days: 18 }),
    ]);
    expect(await salaryInput(june, c.emp.report1)).not.toHaveProperty('proration');
  });

  it("a run's total is the sum of its explained cells", async () => {
    const grid: Grid = await ok('GET', `/payroll_config/payrolls/${june}/data?limit=100`);
    let total = 0;
    let explained = 0;
    for (const row of grid.rows)
      for (const { id } of grid.columns) {
        total += Number(row.values[String(id)]);
        explained += Number((await ok('GET', `/payroll_config/payrolls/${june}/cells/${row.employee.id}/${id}/explain`)).value);
      }
    expect(explained.toFixed(2)).toBe(total.toFixed(2));
  });

  it("by working days (the payroll's rule), and none (the pay frequency's), with a PUT that takes what GET gave", async () => {
    const byWorkingDays = await payrollFor('June, working days', { proration: 'working_days' });
    expect((await ok('GET', `/payroll_config/payrolls/${byWorkingDays}`)).proration).toBe('working_days');
    await processPayroll(t.app, admin, byWorkingDays);
    // June 2025 has 21 weekdays: 15 before the 22nd and 6 after; 15 from the 10th; 13 up to the 18th.
    expect(await cells(byWorkingDays, col.basic)).toEqual({
      [c.emp.manager]: '3171.43', // (3000 × 15 + 3600 × 6) / 21
      [c.emp.report1]: '3100.00',
      [c.emp.report2]: '1857.14', // 3000 × 13 / 21
      [joiner]: '1571.43', // 2200 × 15 / 21
    });
    expect((await salaryInput(byWorkingDays, c.emp.manager)).proration).toMatchObject({ rule: 'working_days', period_days: 21 });

    const frequencies = (await ok('GET', '/payroll_config/pay-frequencies')) as Array<{
      id: number;
      name: string;
      proration: string;
    }>;
    const monthly = frequencies.find((f) => f.id === 4)!;
    expect(monthly.proration).toBe('calendar_days');
    const renamed = await call('PUT', '/payroll_config/pay-frequencies/4', admin, { ...monthly, name: 'Lunar' });
    expect([renamed.statusCode, renamed.json().error.details[0].field]).toEqual([400, 'name']);
    const bad = await call('PUT', '/payroll_config/pay-frequencies/4', admin, { proration: 'hourly' });
    expect(await ok('GET', '/payroll_config/pay-frequencies/4')).toEqual(monthly);
    expect(bad.statusCode).toBe(400);
    expect((await call('PUT', '/payroll_config/pay-frequencies/4', c.users.restricted.token, monthly)).statusCode).toBe(403);
    expect(await ok('PUT', '/payroll_config/pay-frequencies/4', { ...monthly, proration: 'none' })).toEqual({
      ...monthly,
      proration: 'none',
    });
    try {
      await processPayroll(t.app, admin, june);
      expect(await cells(june, col.basic)).toEqual({
        [c.emp.manager]: '3600.00',
        [c.emp.report1]: '3100.00',
        [c.emp.report2]: '3000.00',
        [joiner]: '2200.00',
      });
      expect((await salaryInput(june, c.emp.manager)).proration?.rule).toBe('none');
    } finally {
      await ok('PUT', '/payroll_config/pay-frequencies/4', monthly);
      await processPayroll(t.app, admin, june);
    }
    const wrong = await call('POST', '/payroll_config/payrolls', admin, {
      name: 'x',
      pay_period: 4,
      department: c.departments.engineering,
      date_start: '2025-06-01',
      date_end: '2025-06-30',
      columns: [col.basic],
      proration: 'hourly',
    });
    expect([wrong.statusCode, wrong.json().error.details[0].field]).toEqual([400, 'proration']);
  });

  it('a holiday in the period: working days prorate anew, and the diff against a run of the period names the calendar', async () => {
    const before = await payrollFor('June, before the holiday', { proration: 'working_days' });
    await processPayroll(t.app, admin, before);
    const calendar = ((await ok('GET', '/calendars')) as Array<{ id: number; is_default: boolean }>).find(
      (x) => x.is_default,
    )!.id;
    const holiday = await ok('POST', `/calendars/${calendar}/holidays`, { date: '2025-06-09', name: 'Whit Monday' });
    try {
      const after = await payrollFor('June, after the holiday', { proration: 'working_days' });
      await processPayroll(t.app, admin, after);
      // 20 working days: the manager 14 before the raise, the leaver 12, the joiner (from the 10th) still 15.
      expect(await cells(after, col.basic)).toEqual({
        [c.emp.manager]: '3180.00', // (3000 × 14 + 3600 × 6) / 20
        [c.emp.report1]: '3100.00',
        [c.emp.report2]: '1800.00', // 3000 × 12 / 20
        [joiner]: '1650.00', // 2200 × 15 / 20
      });
      const diff = (await ok(
        'GET',
        `/payroll_config/payrolls/${after}/diff?limit=200&against=${before}&column=${col.basic}`,
      )) as Array<{
        employee: number;
        causes: Array<{ kind: string }>;
      }>;
      // Beside the prorated salary's new amounts (no new employment change), the calendar that made them.
      const causes = [
        expect.objectContaining({ kind: 'salary', changes: [] }),
        { kind: 'calendar', calendars: [calendar], old: 21, new: 20 },
      ];
      expect(Object.fromEntries(diff.map((r) => [r.employee, r.causes]))).toEqual({
        [c.emp.manager]: causes,
        [c.emp.report2]: causes,
        [joiner]: causes,
      });
      const summary = await ok('GET', `/payroll_config/payrolls/${after}/diff/summary?against=${before}`);
      expect(JSON.stringify(summary)).toContain('"calendar":');
      // Against a run of another period, only a change of calendar is a cause: June's days are not May's.
      const may = await ok('POST', '/payroll_config/payrolls', {
        name: 'May',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-05-01',
        date_end: '2025-05-31',
        columns: Object.values(col),
        proration: 'working_days',
      });
      await processPayroll(t.app, admin, may.id);
      const acrossMonths = (await ok('GET', `/payroll_config/payrolls/${after}/diff?limit=200&against=${may.id}`)) as Array<{
        causes: Array<{ kind: string }>;
      }>;
      expect(acrossMonths.length).toBeGreaterThan(0);
      expect(acrossMonths.flatMap((r) => r.causes).filter((x) => x.kind === 'calendar')).toEqual([]);
    } finally {
      await ok('DELETE', `/calendars/${calendar}/holidays/${holiday.id}`);
    }
  });

  it('a grid edit of a run computes from the inputs it kept; processing again reads the history as known now', async () => {
    // A back-dated raise of report1 from the 16th, recorded after the run.
    await ok('POST', `/employees/${c.emp.report1}/changes`, {
      effective_date: '2025-06-16',
      reason: 'Late raise',
      salary: [
        { component: basic, amount: '4000.00' },
        { component: bonus, amount: '0' },
      ],
    });
    await ok('POST', `/payroll_config/payrolls/${june}/data`, {
      values: [{ employee: c.emp.report1, column: col.extra, amount: '5' }],
    });
    expect((await cells(june, col.basic))[c.emp.report1]).toBe('3100.00');
    await processPayroll(t.app, admin, june);
    expect((await cells(june, col.basic))[c.emp.report1]).toBe('3550.00'); // 3100 × 15/30 + 4000 × 15/30
    expect((await cells(june, col.extra))[c.emp.report1]).toBe('5.00');
  });
});
