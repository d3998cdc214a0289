import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, processPayroll, TestApp, until } from './helpers/test-app';

type Grid = { rows: Array<{ employee: { id: number }; values: Record<string, string | null> }> };
type Part = { payroll: number; recomputed: string; paid: string; already_paid: string; amount: string; changes: number[] };

/**
 * Arrears (issue 44, docs/api/decisions.md §20, item 3): a raise back-dated three months, recorded after those
 * months were paid, comes back as the difference of the three runs recomputed, explained run by
 * run; recording it again pays no more, and a correction pays only what is still owed.
 */
describe('payroll arrears (issue 44)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  let template: number;
  const col: Record<string, number> = {};
  const runs: Record<string, number> = {};

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object) => okCaller(t.app)(method, url, admin, body);
  const lastDay = (month: string) => new Date(Date.UTC(2025, Number(month), 0)).toISOString().slice(0, 10);
  const run = async (month: string) => {
    const id = (
      await ok('POST', '/payroll_config/payrolls', {
        name: `2025-${month}`,
        pay_period: 4,
        department: c.departments.engineering,
        date_start: `2025-${month}-01`,
        date_end: lastDay(month),
        columns: Object.values(col),
        payslip_template: template,
      })
    ).id as number;
    await processPayroll(t.app, admin, id);
    return id;
  };
  const complete = async (id: number) => {
    await ok('POST', `/payroll_config/payrolls/${id}/generate-payslips`);
    await until(async () => (await ok('GET', `/payroll_config/payrolls/${id}`)).status === 'Completed', 20_000);
  };
  const cell = async (id: number, employee: number, column: number) => {
    const grid: Grid = await ok('GET', `/payroll_config/payrolls/${id}/data?limit=100`);
    return grid.rows.find((r) => r.employee.id === employee)?.values[String(column)];
  };
  const raise = async (amount: string, corrects?: number) =>
    corrects === undefined
      ? ((
          await ok('POST', `/employees/${c.emp.manager}/changes`, {
            effective_date: '2025-03-01',
            reason: 'Back-dated raise',
            salary: [{ component: basic, amount }],
          })
        ).id as number)
      : ((
          await ok('POST', `/employees/${c.emp.manager}/changes/${corrects}/correct`, {
            reason: 'Corrected raise',
            salary: [{ component: basic, amount }],
          })
        ).id as number);

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', body)).id as number;
    col.basic = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    col.arrears = await column({
      name: 'Arrears',
      variable: 'arrears',
      calculation_hook: 'arrears',
      calculation_hook_args: { column: col.basic },
    });
    col.gross = await column({ name: 'Gross', variable: 'gross', add_columns: [col.basic, col.arrears] });
    template = (await ok('POST', '/payroll_config/payslip-templates', { name: 'Plain', content: '{{employee.name}}' })).id;
    for (const [employee, amount] of [
      [c.emp.manager, '3000.00'],
      [c.emp.report1, '3100.00'],
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
    for (const month of ['03', '04', '05']) {
      runs[month] = await run(month);
      await complete(runs[month]);
    }
  });
  afterAll(() => t.close());

  it('refuses an arrears column without another column to recompute', async () => {
    const res = await call('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Bad arrears',
      calculation_hook: 'arrears',
      calculation_hook_args: { column: 987654 },
    });
    expect([res.statusCode, res.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
      400,
      ['calculation_hook_args.column'],
    ]);
    const missing = await call('POST', '/payroll_config/payroll-columns', admin, {
      name: 'No column',
      calculation_hook: 'arrears',
    });
    expect(missing.statusCode).toBe(400);
  });

  let change: number;
  it('a raise back-dated three months pays the three months recomputed minus what they paid, explained run by run', async () => {
    change = await raise('3300.00');
    runs['06'] = await run('06');
    // (3300 − 3000) × 3, by hand; the employee without a late change has none.
    expect(await cell(runs['06'], c.emp.manager, col.arrears)).toBe('900.00');
    expect(await cell(runs['06'], c.emp.manager, col.basic)).toBe('3300.00');
    expect(await cell(runs['06'], c.emp.manager, col.gross)).toBe('4200.00');
    expect(await cell(runs['06'], c.emp.report1, col.arrears)).toBe('0.00');
    const explained = await ok('GET', `/payroll_config/payrolls/${runs['06']}/cells/${c.emp.manager}/${col.arrears}/explain`);
    expect(explained.inputs[0]).toMatchObject({ kind: 'hook', hook: 'arrears', source: 'payrolls', value: '900' });
    expect(explained.inputs[0].records).toEqual([runs['03'], runs['04'], runs['05']]);
    expect(explained.inputs[0].arrears as Part[]).toEqual(
      ['03', '04', '05'].map((m) => ({
        payroll: runs[m],
        recomputed: '3300.00',
        paid: '3000.00',
        already_paid: '0',
        amount: '300',
        changes: [change],
      })),
    );
  });

  it('recording the same change again pays no more, before and after the arrears are paid', async () => {
    await raise('3300.00');
    await processPayroll(t.app, admin, runs['06']);
    expect(await cell(runs['06'], c.emp.manager, col.arrears)).toBe('900.00');
    await complete(runs['06']);
    runs['07'] = await run('07');
    expect(await cell(runs['07'], c.emp.manager, col.arrears)).toBe('0.00');
    await raise('3300.00');
    await processPayroll(t.app, admin, runs['07']);
    expect(await cell(runs['07'], c.emp.manager, col.arrears)).toBe('0.00');
  });

  it('a correction pays only what is still owed: 100 for each of the four months paid at 3 300', async () => {
    await raise('3400.00', change);
    await processPayroll(t.app, admin, runs['07']);
    // March to May: 3400 − 3000 paid − 300 paid as arrears in June; June itself: 3400 − 3300.
    expect(await cell(runs['07'], c.emp.manager, col.arrears)).toBe('400.00');
    const parts = (await ok('GET', `/payroll_config/payrolls/${runs['07']}/cells/${c.emp.manager}/${col.arrears}/explain`))
      .inputs[0].arrears as Part[];
    expect(parts.map((p) => [p.payroll, p.recomputed, p.paid, p.already_paid, p.amount])).toEqual([
      [runs['03'], '3400.00', '3000.00', '300', '100'],
      [runs['04'], '3400.00', '3000.00', '300', '100'],
      [runs['05'], '3400.00', '3000.00', '300', '100'],
      [runs['06'], '3400.00', '3300.00', '0', '100'],
    ]);
  });
});
