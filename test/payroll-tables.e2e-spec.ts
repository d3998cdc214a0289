import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, processPayroll, TestApp, until } from './helpers/test-app';

type Grid = { rows: Array<{ employee: { id: number }; values: Record<string, string | null> }> };

const BRACKETS_2025 = [
  { from: '0.00', to: '10000.00', rate: '0', fixed: '0.00' },
  { from: '10000.00', to: '20000.00', rate: '0.2', fixed: '0.00' },
  { from: '20000.00', to: null, rate: '0.4', fixed: '0.00' },
];
const BRACKETS_JUNE = [
  { from: '0.00', to: '12000.00', rate: '0', fixed: '0.00' },
  { from: '12000.00', to: null, rate: '0.3', fixed: '0.00' },
];

/**
 * Dated payroll tables (issue 44, docs/api/decisions.md §20, item 4): a yearly tax as brackets in two versions, a
 * run reading the one in force on its last day, explained, kept, and bounded.
 */
describe('payroll tables (issue 44)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  let table: { id: number; name: string; kind: string; versions: Array<{ effective_from: string; rows: object[] }> };
  const col: Record<string, number> = {};

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object) => okCaller(t.app)(method, url, admin, body);
  const run = async (month: string, columns = Object.values(col)) => {
    const last = new Date(Date.UTC(2025, Number(month), 0)).toISOString().slice(0, 10);
    return (
      await ok('POST', '/payroll_config/payrolls', {
        name: `2025-${month}`,
        pay_period: 4,
        department: c.departments.engineering,
        date_start: `2025-${month}-01`,
        date_end: last,
        columns,
      })
    ).id as number;
  };
  const cell = async (id: number, employee: number, column: number) =>
    ((await ok('GET', `/payroll_config/payrolls/${id}/data?limit=100`)) as Grid).rows.find((r) => r.employee.id === employee)
      ?.values[String(column)];
  const refused = async (body: object, status: number, field?: string) => {
    const res = await call('POST', '/payroll_config/tables', admin, body);
    expect({ status: res.statusCode, field: field && res.json().error.details?.map((d: { field: string }) => d.field) }).toEqual({
      status,
      field: field && expect.arrayContaining([field]),
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    table = await ok('POST', '/payroll_config/tables', {
      name: 'income_tax',
      kind: 'brackets',
      versions: [
        { effective_from: '2025-01-01', rows: BRACKETS_2025 },
        { effective_from: '2025-06-01', rows: BRACKETS_JUNE },
      ],
    });
    col.basic = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Basic',
      variable: 'basic',
      salary_components: [basic],
    }).then((x) => x.id);
    col.tax = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Tax',
      variable: 'tax',
      script: 'bracket("income_tax", basic * 12) / 12',
    }).then((x) => x.id);
    for (const [employee, amount] of [
      [c.emp.manager, '2500.00'], // 30 000 a year
      [c.emp.report1, '1000.00'], // 12 000 a year
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
  });
  afterAll(() => t.close());

  it('keeps a table as sent, amounts as decimal texts; a PUT takes what GET gave', async () => {
    expect(table).toEqual({
      id: expect.any(Number),
      name: 'income_tax',
      kind: 'brackets',
      versions: [
        { effective_from: '2025-01-01', rows: BRACKETS_2025 },
        { effective_from: '2025-06-01', rows: BRACKETS_JUNE },
      ],
    });
    expect(await ok('GET', `/payroll_config/tables/${table.id}`)).toEqual(table);
    expect(await ok('PUT', `/payroll_config/tables/${table.id}`, table)).toEqual(table);
    expect((await ok('GET', '/payroll_config/tables')).map((x: { name: string }) => x.name)).toContain('income_tax');
  });

  it('refuses overlapping, unordered or negative brackets, too many rows, duplicate keys and names', async () => {
    const brackets = (rows: object[]) => ({ name: 'x', kind: 'brackets', versions: [{ effective_from: '2025-01-01', rows }] });
    await refused(brackets([BRACKETS_2025[1], BRACKETS_2025[0]]), 400, 'versions[0].rows[1].from');
    await refused(
      brackets([BRACKETS_2025[0], { from: '9000', to: '20000', rate: '0.2', fixed: '0' }]),
      400,
      'versions[0].rows[1].from',
    );
    await refused(brackets([{ from: '0', to: null, rate: '-0.1', fixed: '0' }]), 400, 'versions[0].rows[0].rate');
    await refused(
      brackets([
        { from: '0', to: null, rate: '0.1' },
        { from: '10', to: null, rate: '0.1' },
      ]),
      400,
      'versions[0].rows[1].from',
    );
    await refused(brackets([{ from: '10', to: '5', rate: '0.1' }]), 400, 'versions[0].rows[0].to');
    await refused(
      brackets(Array.from({ length: 201 }, (_, i) => ({ from: String(i), to: String(i + 1), rate: '0', fixed: '0' }))),
      400,
      'versions.0.rows',
    );
    await refused(
      {
        name: 'grades',
        kind: 'lookup',
        versions: [
          {
            effective_from: '2025-01-01',
            rows: [
              { key: '1', value: '1' },
              { key: 1, value: '2' },
            ],
          },
        ],
      },
      400,
      'versions[0].rows[1].key',
    );
    await refused(
      { name: 'income_tax', kind: 'lookup', versions: [{ effective_from: '2025-01-01', rows: [{ key: 'a', value: '1' }] }] },
      409,
    );
    expect((await ok('GET', '/payroll_config/tables')).length).toBe(1);
  });

  it('a run reads the version in force on its last day, and explain shows table, version and rows', async () => {
    const may = await run('05');
    const june = await run('06');
    await processPayroll(t.app, admin, may);
    await processPayroll(t.app, admin, june);
    // May: 10 000 × 20 % + 10 000 × 40 % = 6 000 a year, 500 a month; 12 000 a year: 2 000 × 20 % = 400, 33.33 a month.
    expect([await cell(may, c.emp.manager, col.tax), await cell(may, c.emp.report1, col.tax)]).toEqual(['500.00', '33.33']);
    // June: (30 000 − 12 000) × 30 % = 5 400, 450 a month; 12 000 is the first bracket's top: 0.
    expect([await cell(june, c.emp.manager, col.tax), await cell(june, c.emp.report1, col.tax)]).toEqual(['450.00', '0.00']);
    const explained = await ok('GET', `/payroll_config/payrolls/${june}/cells/${c.emp.manager}/${col.tax}/explain`);
    expect(explained.inputs).toEqual(
      expect.arrayContaining([
        { kind: 'table', name: 'income_tax', value: '2025-06-01', table: table.id, version: '2025-06-01', rows: BRACKETS_JUNE },
      ]),
    );
    // June against May: the tax cells changed for the new version, and nothing else.
    const diff = (await ok('GET', `/payroll_config/payrolls/${june}/diff?against=${may}&limit=100`)) as Array<{
      employee: number;
      column: number;
      causes: object[];
    }>;
    expect(diff.map((r) => [r.employee, r.column, r.causes])).toEqual(
      [c.emp.manager, c.emp.report1].map((e) => [
        e,
        col.tax,
        [{ kind: 'table', table: table.id, name: 'income_tax', old: '2025-01-01', new: '2025-06-01' }],
      ]),
    );
    expect(explained.steps).toEqual(expect.arrayContaining([{ expression: 'bracket("income_tax", basic * 12)', value: '5400' }]));
  });

  it('a version a Processed run read cannot change or go; a new version can be added', async () => {
    const changed = await call('PUT', `/payroll_config/tables/${table.id}`, admin, {
      ...table,
      versions: [{ effective_from: '2025-01-01', rows: BRACKETS_JUNE }, table.versions[1]],
    });
    expect([changed.statusCode, changed.json().error.code]).toEqual([409, 'IN_USE']);
    const gone = await call('DELETE', `/payroll_config/tables/${table.id}`, admin);
    expect([gone.statusCode, gone.json().error.code]).toEqual([409, 'IN_USE']);
    const added = await ok('PUT', `/payroll_config/tables/${table.id}`, {
      ...table,
      versions: [...table.versions, { effective_from: '2026-01-01', rows: BRACKETS_JUNE }],
    });
    expect(added.versions.map((v: { effective_from: string }) => v.effective_from)).toEqual([
      '2025-01-01',
      '2025-06-01',
      '2026-01-01',
    ]);
    expect(await ok('GET', `/payroll_config/tables/${table.id}`)).toEqual(added);
  });

  it('an unknown table or key, or an amount outside the brackets, is a cell error naming the table, never a 500', async () => {
    const unknown = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Grade',
      variable: 'grade',
      script: 'lookup("grades", 1)',
    });
    const id = await run('07', [col.basic, unknown.id]);
    await ok('POST', `/payroll_config/payrolls/${id}/process`);
    await until(async () => (await ok('GET', `/payroll_config/payrolls/${id}`)).status !== 'Processing', 10_000);
    expect((await ok('GET', `/payroll_config/payrolls/${id}`)).status).toBe('Failed');
    const errors = (await ok('GET', `/payroll_config/payrolls/${id}/errors`)) as Array<{ message: string }>;
    expect(errors.map((e) => e.message)).toEqual([
      'no payroll table "grades" is in force',
      'no payroll table "grades" is in force',
    ]);
  });
});
