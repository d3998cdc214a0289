import { PayrollDiffService } from '../src/payroll/explain/payroll-diff.service';
import { AuditService } from '../src/audit/audit.service';
import { DiffTable } from '../src/payroll/explain/diff-table';
import { PAYROLL_COLUMNS } from '../src/payroll/config/payroll-config.service';
import { PAYROLL_CELL_EDITS } from '../src/payroll/runs/payroll-runs.service';
import { DataSource } from 'typeorm';
import { Payroll } from '../src/payroll/entities/payroll-run.entities';
import { Dec } from '../src/payroll/formula/formula';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, processPayroll, TestApp } from './helpers/test-app';

type Cause = { kind: string; [k: string]: unknown };
type Row = {
  employee: number;
  column: number;
  old: string | null;
  new: string | null;
  difference: string | null;
  causes: Cause[];
};

/**
 * Diff of two runs (issue 32, docs/api/decisions.md §18): between March and April, one employee's attendance
 * changed (an overtime hook), one's salary, one's bonus was edited by hand, a column's formula
 * changed for everyone and an employee joined; each changed cell names exactly its cause.
 */
describe('payroll diff (GET /payroll_config/payrolls/{id}/diff)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  const col: Record<string, number> = {};
  const records: Record<string, number> = {};
  let march: number;
  let april: number;
  let hire: number;
  let raise: number;

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object, token = admin) =>
    okCaller(t.app)(method, url, token, body);
  const processed = (id: number) => processPayroll(t.app, admin, id);
  const payroll = async (name: string, month: string) =>
    (
      await ok('POST', '/payroll_config/payrolls', {
        name,
        pay_period: 4,
        department: c.departments.engineering,
        date_start: `2025-${month}-01`,
        date_end: `2025-${month}-${['04', '06'].includes(month) ? 30 : 31}`,
        columns: Object.values(col),
      })
    ).id as number;
  const diff = async (query = '', id = april): Promise<Row[]> =>
    ok('GET', `/payroll_config/payrolls/${id}/diff?limit=200${query}`);
  const causesOf = (rows: Row[], employee: number) =>
    Object.fromEntries(rows.filter((r) => r.employee === employee).map((r) => [r.column, r.causes.map((x) => x.kind)]));

  beforeAll(async () => {
    t = await createTestApp();
    // Every diff here is computed two employees at a time (as 1 000 at a time in production).
    t.app.get(PayrollDiffService).employeesPerChunk = 2;
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', body)).id as number;
    col.basic = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    col.overtime = await column({ name: 'Overtime hours', variable: 'overtime', calculation_hook: 'overtime_hours' });
    col.bonus = await column({ name: 'Bonus', variable: 'bonus', editable: true, default_value: '0' });
    col.overtimePay = await column({ name: 'Overtime pay', variable: 'overtime_pay', script: 'overtime * 20' });
    col.gross = await column({ name: 'Gross', variable: 'gross', add_columns: [col.basic, col.overtimePay, col.bonus] });
    col.tax = await column({ name: 'Tax', variable: 'tax', script: 'if(gross > 4000, (gross - 4000) * 0.25, 0)' });
    col.net = await column({ name: 'Net', variable: 'net', add_columns: [col.gross], sub_columns: [col.tax] });
    col.meal = await column({ name: 'Meal allowance', variable: 'meal', script: '30' });
    for (const [employee, amount] of [
      [c.emp.manager, '5200.00'],
      [c.emp.report1, '3100.00'],
      [c.emp.report2, '4000.00'],
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
    // The manager's overtime: 2.5 h in March, 4 h in April.
    const punch = async (i: string, o: string) =>
      (await ok('POST', '/attendance', { employee: c.emp.manager, in_time: i, out_time: o })).id;
    records.march = await punch('2025-03-03T07:00:00Z', '2025-03-03T17:30:00Z');
    records.april = await punch('2025-04-07T06:00:00Z', '2025-04-07T18:00:00Z');
    march = await payroll('March', '03');
    await processed(march);

    // Between the runs: report1's raise, the meal allowance's new amount, a joiner; then report2's bonus edited in April.
    raise = (
      await ok('POST', `/employees/${c.emp.report1}/changes`, {
        effective_date: '2025-04-01',
        reason: 'Raise',
        salary: [{ component: basic, amount: '3300.00' }],
      })
    ).id as number;
    await ok('POST', '/payroll_config/payroll-columns', { id: col.meal, name: 'Meal allowance', variable: 'meal', script: '35' });
    await ok('PUT', `/employees/${c.emp.grandReport}/salary`, { items: [{ component: basic, amount: '2000.00' }] });
    await ok('POST', '/payroll_config/payroll-employees', { employee: c.emp.grandReport, pay_frequency: 4, currency: 'EUR' });
    // A new hire of 10 April.
    hire = (await ok('POST', '/employees', employeeBody({ joined_date: '2025-04-10', department: c.departments.engineering })))
      .id as number;
    await ok('PUT', `/employees/${hire}/salary`, { items: [{ component: basic, amount: '2500.00' }] });
    await ok('POST', '/payroll_config/payroll-employees', { employee: hire, pay_frequency: 4, currency: 'EUR' });
    april = await payroll('April', '04');
    await processed(april);
    await ok('POST', `/payroll_config/payrolls/${april}/data`, {
      values: [{ employee: c.emp.report2, column: col.bonus, amount: '500.00' }],
    });
  });
  afterAll(() => t.close());

  it('attributes each changed cell to exactly its cause (against the previous run by default)', async () => {
    const rows = await diff();
    // The manager: overtime 2.5 → 4 h from other attendance records; what reads it follows.
    expect(causesOf(rows, c.emp.manager)).toEqual({
      [col.overtime]: ['input'],
      [col.overtimePay]: ['input'],
      [col.gross]: ['input'],
      [col.tax]: ['input'],
      [col.net]: ['input'],
      [col.meal]: ['column'],
    });
    const overtime = rows.find((r) => r.employee === c.emp.manager && r.column === col.overtime);
    expect(overtime).toMatchObject({ old: '2.50', new: '4.00', difference: '1.50' });
    expect(overtime?.causes).toEqual([
      {
        kind: 'input',
        column: col.overtime,
        name: 'Overtime hours',
        hook: 'overtime_hours',
        source: 'attendance',
        old: '2.5',
        new: '4',
        added: [records.april],
        removed: [records.march],
      },
    ]);
    // report1: the raise (tax stays 0 below 4000).
    expect(causesOf(rows, c.emp.report1)).toEqual({
      [col.basic]: ['salary'],
      [col.gross]: ['salary'],
      [col.net]: ['salary'],
      [col.meal]: ['column'],
    });
    const raised = rows.find((r) => r.employee === c.emp.report1 && r.column === col.basic);
    expect(raised).toMatchObject({ old: '3100.00', new: '3300.00', difference: '200.00' });
    // The cause names the employment change: its effective date, when and by whom it was recorded.
    expect(raised?.causes).toEqual([
      {
        kind: 'salary',
        component: basic,
        name: 'Basic',
        old: '3100.00',
        new: '3300.00',
        changed_by: c.users.admin.user.id,
        changed_at: expect.any(String),
        changes: [
          {
            id: raise,
            effective_date: '2025-04-01',
            reason: 'Raise',
            recorded_at: expect.any(String),
            recorded_by: c.users.admin.user.id,
          },
        ],
      },
    ]);
    // report2: the April edit of its bonus, and what reads it.
    expect(causesOf(rows, c.emp.report2)).toEqual({
      [col.bonus]: ['edit'],
      [col.gross]: ['edit'],
      [col.tax]: ['edit'],
      [col.net]: ['edit'],
      [col.meal]: ['column'],
    });
    expect(rows.find((r) => r.employee === c.emp.report2 && r.column === col.tax)).toMatchObject({
      old: '0.00',
      new: '125.00',
      causes: [{ kind: 'edit', column: col.bonus, name: 'Bonus', old: '0.00', new: '500.00', changed_by: c.users.admin.user.id }],
    });
    const meal = rows.find((r) => r.employee === c.emp.report2 && r.column === col.meal);
    expect(meal?.causes).toEqual([
      {
        kind: 'column',
        column: col.meal,
        name: 'Meal allowance',
        changes: { script: ['30', '35'] },
        changed_by: c.users.admin.user.id,
        changed_at: expect.any(String),
      },
    ]);
    // The joiners: every cell, no old value; the one employed since 2020 was added to the payroll, the other hired in April.
    const joined = rows.filter((r) => r.employee === c.emp.grandReport);
    expect(joined).toHaveLength(8);
    expect(joined.every((r) => r.old === null && r.difference === null)).toBe(true);
    expect(new Set(joined.map((r) => JSON.stringify(r.causes)))).toEqual(
      new Set([JSON.stringify([{ kind: 'joined', joined_date: '2020-01-15', hired: false }])]),
    );
    expect(new Set(rows.filter((r) => r.employee === hire).map((r) => JSON.stringify(r.causes)))).toEqual(
      new Set([JSON.stringify([{ kind: 'joined', joined_date: '2025-04-10', hired: true }])]),
    );
    expect(rows).toHaveLength(6 + 4 + 5 + 8 + 8);
  });

  it('is read two employees at a time and equals the diff of the two whole runs (issue 49)', async () => {
    const differ = t.app.get(PayrollDiffService);
    const payrolls = t.app.get(DataSource).getRepository(Payroll);
    const [older, newer] = await Promise.all([payrolls.findOneByOrFail({ id: march }), payrolls.findOneByOrFail({ id: april })]);
    const whole = await differ.rowsOf(await differ.side(older), await differ.side(newer), { older, newer });
    const rows = await diff();
    expect(new Set(rows.map((r) => r.employee)).size).toBeGreaterThan(2 * differ.employeesPerChunk);
    expect(rows).toEqual(JSON.parse(JSON.stringify(Array.from({ length: whole.size }, (_, i) => whole.row(i)))));
  });

  it("reads the pair's column changes and cell edits from the audit log once, not once per chunk", async () => {
    const differ = t.app.get(PayrollDiffService);
    const payrolls = t.app.get(DataSource).getRepository(Payroll);
    const [older, newer] = await Promise.all([payrolls.findOneByOrFail({ id: march }), payrolls.findOneByOrFail({ id: april })]);
    const read = jest.spyOn(t.app.get(AuditService), 'entriesOf');
    try {
      const table = await (differ as unknown as { compute(o: Payroll, n: Payroll): Promise<{ table: DiffTable }> }).compute(
        older,
        newer,
      );
      const kinds = new Set(Array.from({ length: table.table.size }, (_, i) => table.table.causeKinds(i)).flat());
      expect([kinds.has('column'), kinds.has('edit')]).toEqual([true, true]);
      const calls = (resource: string) => read.mock.calls.filter(([r]) => r === resource).length;
      expect([calls(PAYROLL_COLUMNS), calls(PAYROLL_CELL_EDITS)]).toEqual([1, 1]);
    } finally {
      read.mockRestore();
    }
  });

  it('compares any two runs: the other way round the joiner left', async () => {
    const rows = await diff(`&against=${april}`, march);
    expect(rows.filter((r) => r.employee === c.emp.grandReport).map((r) => [r.new, r.causes])).toEqual(
      Array.from({ length: 8 }, () => [null, [{ kind: 'left', termination_date: null, terminated: false }]]),
    );
    expect(rows.find((r) => r.employee === c.emp.report1 && r.column === col.basic)).toMatchObject({
      old: '3300.00',
      new: '3100.00',
      difference: '-200.00',
    });
  });

  it('filters by employee, column and cause, pages, sums per column and exports', async () => {
    const salary = await diff('&cause=salary');
    expect(salary.map((r) => [r.employee, r.column])).toEqual([
      [c.emp.report1, col.basic],
      [c.emp.report1, col.gross],
      [c.emp.report1, col.net],
    ]);
    expect((await diff(`&employee=${c.emp.report2}&column=${col.net}`)).map((r) => r.new)).toEqual(['4375.00']);
    const page = await call('GET', `/payroll_config/payrolls/${april}/diff?limit=5&page=2`, admin);
    expect(page.json().data).toHaveLength(5);
    expect(page.json()).toMatchObject({ total: 31, page: 2, limit: 5, nextPage: 3 });
    const summary = await ok('GET', `/payroll_config/payrolls/${april}/diff/summary`);
    expect(summary.find((s: { column: number }) => s.column === col.meal)).toEqual({
      column: col.meal,
      name: 'Meal allowance',
      changed: 5,
      total_difference: '15.00', // 3 × 5, the joiners have no old value
      causes: { salary: 0, input: 0, column: 3, edit: 0, joined: 2, left: 0, rounding: 0, table: 0, calendar: 0 },
    });
    expect(summary.find((s: { column: number }) => s.column === col.basic)).toMatchObject({
      changed: 3, // the raise and the two joiners
      total_difference: '200.00',
    });
    // Every column's sum (integers of thousandths since issue 49) equals the decimal sum of its rows.
    const sums = new Map<number, Dec>();
    for (const r of await diff())
      if (r.difference !== null) sums.set(r.column, (sums.get(r.column) ?? new Dec(0)).plus(r.difference));
    expect(sums.size).toBeGreaterThan(3);
    for (const s of summary as Array<{ column: number; total_difference: string }>)
      expect([s.column, new Dec(s.total_difference).eq(sums.get(s.column) ?? 0)]).toEqual([s.column, true]);
    const csv = await call('GET', `/payroll_config/payrolls/${april}/diff?format=csv&cause=salary`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split(/\r?\n/);
    expect(lines[0]).toBe('employee,employee_name,column,column_name,old,new,difference,causes');
    expect(lines).toHaveLength(4);
  });

  // Issue 41, item 5: every pair computed at once (and again once the cache dropped it while it ran).
  it('computes one diff per pair at a time and at most DIFF_MAX_CONCURRENT pairs: past it, 429 with Retry-After', async () => {
    const service = t.app.get(PayrollDiffService);
    const internals = service as unknown as {
      compute: (...args: unknown[]) => Promise<unknown>;
      computed: { clear(): void };
      config: { diff: { maxConcurrent: number } };
    };
    const original = internals.compute.bind(service);
    let computations = 0;
    const spy = jest.spyOn(internals, 'compute').mockImplementation(async (...args: unknown[]) => {
      computations++;
      await new Promise((r) => setTimeout(r, 200));
      return original(...args);
    });
    const limit = internals.config.diff.maxConcurrent;
    try {
      internals.computed.clear();
      const same = await Promise.all([1, 2, 3].map(() => call('GET', `/payroll_config/payrolls/${april}/diff?limit=1`, admin)));
      expect(same.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(computations).toBe(1);

      internals.computed.clear();
      internals.config.diff.maxConcurrent = 1;
      const pairs = await Promise.all([
        call('GET', `/payroll_config/payrolls/${april}/diff?limit=1&against=${march}`, admin),
        call('GET', `/payroll_config/payrolls/${march}/diff?limit=1&against=${april}`, admin),
      ]);
      expect(pairs.map((r) => r.statusCode).sort()).toEqual([200, 429]);
      const refused = pairs.find((r) => r.statusCode === 429)!;
      expect([refused.json().error.code, refused.headers['retry-after']]).toEqual(['RATE_LIMITED', '5']);
    } finally {
      internals.config.diff.maxConcurrent = limit;
      spy.mockRestore();
    }
  });

  it('refuses what it cannot compare: 404 without a previous run, 409 against an unprocessed one, 400 bad filters, 403 below Restricted Admin', async () => {
    const none = await call('GET', `/payroll_config/payrolls/${march}/diff`, admin);
    expect([none.statusCode, none.json().error.code]).toEqual([404, 'NOT_FOUND']);
    const draft = await payroll('May', '05');
    const unprocessed = await call('GET', `/payroll_config/payrolls/${april}/diff?against=${draft}`, admin);
    expect([unprocessed.statusCode, unprocessed.json().error.code]).toEqual([409, 'INVALID_STATE']);
    const bad = await call('GET', `/payroll_config/payrolls/${april}/diff?cause=weather`, admin);
    expect([bad.statusCode, bad.json().error.details[0].field]).toEqual([400, 'cause']);
    expect((await call('GET', `/payroll_config/payrolls/${april}/diff`, c.users.manager.token)).statusCode).toBe(403);
    expect((await call('GET', `/payroll_config/payrolls/${april}/diff`, c.users.restricted.token)).statusCode).toBe(200);
  });

  it('previews a column change on a run without saving it, as the diff after saving and processing again shows it', async () => {
    const [juneA, juneB] = [await payroll('June A', '06'), await payroll('June B', '06')];
    await processed(juneA);
    await processed(juneB);
    const change = { id: col.tax, name: 'Tax', variable: 'tax', script: 'if(gross > 4000, (gross - 4000) * 0.3, 0)' };
    const preview = await call(
      'POST',
      `/payroll_config/payroll-columns/preview-change?payroll=${juneB}&limit=200`,
      admin,
      change,
    );
    expect(preview.statusCode).toBe(200);
    const previewed: Row[] = preview.json().data;
    // Tax and net of the two above 4000 (the manager at 5200, the joiner is below), and nothing saved.
    expect(previewed.map((r) => [r.employee, r.column, r.old, r.new])).toEqual([
      [c.emp.manager, col.tax, '300.00', '360.00'],
      [c.emp.manager, col.net, '4900.00', '4840.00'],
    ]);
    expect(previewed[0].causes).toEqual([
      {
        kind: 'column',
        column: col.tax,
        name: 'Tax',
        changes: { script: ['if(gross > 4000, (gross - 4000) * 0.25, 0)', change.script] },
        changed_by: null,
        changed_at: null,
      },
    ]);
    expect((await ok('GET', `/payroll_config/payroll-columns/${col.tax}`)).script).toBe(
      'if(gross > 4000, (gross - 4000) * 0.25, 0)',
    );
    // Saved and processed again, June B differs from June A exactly as previewed (now with who changed it).
    await ok('POST', '/payroll_config/payroll-columns', change);
    await processed(juneB);
    const after = await diff(`&against=${juneA}`, juneB);
    const strip = (rows: Row[]) => rows.map((r) => ({ ...r, causes: r.causes.map(({ changed_by, changed_at, ...x }) => x) }));
    expect(strip(after)).toEqual(strip(previewed));
    expect(after[0].causes[0].changed_by).toBe(c.users.admin.user.id);
    // Bad changes are refused as a save refuses them; only the Admin previews.
    const bad = await call('POST', '/payroll_config/payroll-columns/preview-change', admin, { ...change, script: 'gross +' });
    expect(bad.statusCode).toBe(400);
    expect(
      (await call('POST', '/payroll_config/payroll-columns/preview-change', c.users.restricted.token, change)).statusCode,
    ).toBe(403);
    // A deleted payroll takes its stored inputs along.
    const stored = async (id: number) =>
      Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM payroll_run_inputs WHERE payroll_id = ?', [id]))[0].n);
    expect(await stored(juneA)).toBe(5); // the five employees of the run
    await ok('DELETE', `/payroll_config/payrolls/${juneA}`);
    expect(await stored(juneA)).toBe(0);
  });
});
