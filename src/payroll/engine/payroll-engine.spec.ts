import { computePayroll, EngineColumn, EngineEmployee, engineColumn, explainCell, planColumns } from './payroll-engine';

const column = engineColumn;

const employee = (id: number, salary: Record<number, string>, minorUnit = 2, fields = {}): EngineEmployee => ({
  id,
  minorUnit,
  fields,
  salary: new Map(Object.entries(salary).map(([k, v]) => [Number(k), v])),
});

function run(columns: EngineColumn[], employees: EngineEmployee[], hooks?: Parameters<typeof computePayroll>[2]) {
  const { plan, errors } = planColumns(columns);
  expect(errors).toEqual([]);
  const result = computePayroll(plan!, employees, hooks);
  const byVariable = (employeeId: number) => {
    const row = result.rows.find((r) => r.employee === employeeId)!;
    return Object.fromEntries(result.columns.map((id, i) => [columns.find((c) => c.id === id)!.variable, row.values[i]]));
  };
  return { result, byVariable };
}

describe('payroll engine', () => {
  // Salary components: 1 basic, 2 allowance.
  const gross = column(3, 'gross', { script: 'basic + allowance' });
  const basic = column(1, 'basic', { salaryComponents: [1] });
  const allowance = column(2, 'allowance', { salaryComponents: [2] });
  const tax = column(4, 'tax', { script: 'if(gross > 5000, (gross - 5000) * 0.2, 0)' });
  const net = column(5, 'net', { script: 'gross - tax' });

  it('computes gross, a progressive tax and net exactly, in dependency order (the acceptance table)', () => {
    const { byVariable } = run(
      [net, tax, gross, allowance, basic], // any order in, dependency order out
      [
        employee(1, { 1: '5000.00', 2: '999.99' }),
        employee(2, { 1: '3000', 2: '250.50' }),
        employee(3, { 1: '7000', 2: '0.01' }),
      ],
    );
    // Hand-computed: 5999.99 → tax (999.99 × 0.2 = 199.998) 200.00 → net 5799.99.
    expect(byVariable(1)).toEqual({ basic: '5000.00', allowance: '999.99', gross: '5999.99', tax: '200.00', net: '5799.99' });
    expect(byVariable(2)).toEqual({ basic: '3000.00', allowance: '250.50', gross: '3250.50', tax: '0.00', net: '3250.50' });
    // 7000.01 → 2000.01 × 0.2 = 400.002 → 400.00 → net 6600.01
    expect(byVariable(3)).toEqual({ basic: '7000.00', allowance: '0.01', gross: '7000.01', tax: '400.00', net: '6600.01' });
  });

  it('is exact where binary floats are not: 1.005 + 1.67 = 2.68, 0.1 + 0.2 = 0.30, half-up at .005', () => {
    const { byVariable } = run(
      [
        column(1, 'a', { script: '1.005 + 1.67' }),
        column(2, 'b', { script: '0.1 + 0.2' }),
        column(3, 'c', { script: '2.675' }),
        column(4, 'd', { script: '-2.675' }),
        column(5, 'e', { script: 'if((0.1 + 0.2) * 3 == 0.9, 1, 0)' }),
      ],
      [employee(1, {})],
    );
    expect(byVariable(1)).toEqual({ a: '2.68', b: '0.30', c: '2.68', d: '-2.68', e: '1.00' });
  });

  it('later columns see the stored (rounded) value, so a payslip adds up', () => {
    const { byVariable } = run(
      [column(1, 'third', { script: '100 / 3' }), column(2, 'tripled', { script: 'third * 3' })],
      [employee(1, {})],
    );
    expect(byVariable(1)).toEqual({ third: '33.33', tripled: '99.99' });
  });

  it('rounds to the currency minor unit: 0 places for JPY, 3 for KWD', () => {
    const cols = [column(1, 'pay', { salaryComponents: [1] }), column(2, 'bonus', { script: 'pay * 0.0125' })];
    expect(run(cols, [employee(1, { 1: '333333' }, 0)]).byVariable(1)).toEqual({ pay: '333333', bonus: '4167' });
    expect(run(cols, [employee(1, { 1: '1234.567' }, 3)]).byVariable(1)).toEqual({ pay: '1234.567', bonus: '15.432' });
  });

  it('sums components, adds and subtracts columns, and a script replaces the sum', () => {
    const { byVariable } = run(
      [
        column(1, 'basic', { salaryComponents: [1] }),
        column(2, 'extras', { salaryComponents: [2, 3] }),
        column(3, 'deduction', { defaultValue: '50.00' }),
        column(4, 'total', { addColumns: [1, 2], subColumns: [3] }),
        column(5, 'capped', { addColumns: [1, 2], script: 'min(total, 1000)' }),
      ],
      [employee(9, { 1: '900', 2: '100', 3: '25.5' })],
    );
    expect(byVariable(9)).toEqual({ basic: '900.00', extras: '125.50', deduction: '50.00', total: '975.50', capped: '975.50' });
  });

  it('a three-column chain and a hook that replaces everything (no value → the default)', () => {
    const hooked = column(1, 'hours', { hook: 'hours_worked', script: '999', salaryComponents: [1], defaultValue: '0' });
    const { byVariable } = run(
      [column(3, 'pay', { script: 'rate * 2' }), column(2, 'rate', { script: 'hours * 10' }), hooked],
      [employee(1, { 1: '1' }), employee(2, {})],
      (col, emp) => (col === 1 && emp === 1 ? '7.25' : null),
    );
    expect(byVariable(1)).toEqual({ hours: '7.25', rate: '72.50', pay: '145.00' });
    expect(byVariable(2)).toEqual({ hours: '0.00', rate: '0.00', pay: '0.00' });
  });

  it('refuses a dependency cycle and unknown columns or variables when planning', () => {
    const cyc = planColumns([
      column(1, 'a', { script: 'c + 1' }),
      column(2, 'b', { addColumns: [1] }),
      column(3, 'c', { script: 'b * 2' }),
      column(4, 'free', { script: '1' }),
    ]);
    expect(cyc.plan).toBeNull();
    expect(cyc.errors.map((e) => e.columnId).sort()).toEqual([1, 2, 3]);
    expect(cyc.errors[0].message).toMatch(/dependency cycle among a, b, c/);
    const unknown = planColumns([column(1, 'a', { script: 'nope + 1', addColumns: [42] })]);
    expect(unknown.errors).toEqual([
      { columnId: 1, message: 'column 42 does not exist' },
      { columnId: 1, message: 'unknown variable nope', line: 1, column: 1 },
    ]);
  });

  it('collects per-cell errors (division by zero, a missing salary, a failed input) and goes on', () => {
    const { result, byVariable } = run(
      [
        column(1, 'basic', { salaryComponents: [1] }),
        column(2, 'ratio', { script: 'basic / (basic - basic)' }),
        column(3, 'after', { script: 'ratio + 1' }),
        column(4, 'ok', { script: '2 * 2' }),
        column(5, 'flag', { script: 'basic > 1' }),
        column(6, 'huge', { script: '1e39 * 10' }),
        column(7, 'age', { script: 'employee.age' }),
      ],
      [employee(1, { 1: '10' }, 2, { age: 40 }), employee(2, {})],
    );
    expect(byVariable(1)).toMatchObject({
      basic: '10.00',
      ratio: null,
      after: null,
      ok: '4.00',
      flag: null,
      huge: null,
      age: '40.00',
    });
    expect(byVariable(2)).toMatchObject({ basic: null, ok: '4.00', age: null });
    expect(result.errors).toEqual(
      expect.arrayContaining([
        { employee: 1, column: 2, message: 'division by zero' },
        { employee: 1, column: 3, message: 'ratio has no value: its cell failed' },
        { employee: 1, column: 5, message: 'the script gave true, not an amount' },
        { employee: 1, column: 6, message: 'the result is out of range' },
        { employee: 2, column: 1, message: 'no salary amount for component 1' },
        { employee: 2, column: 7, message: 'employee.age is not set for this employee' },
      ]),
    );
  });
});

describe('explaining a cell (issue 32)', () => {
  // Salary components 1 (basic) and 2 (allowance); a hook column; a column with a default; an editable one.
  const columns = [
    engineColumn(1, 'basic', { salaryComponents: [1] }),
    engineColumn(2, 'allowance', { salaryComponents: [2] }),
    engineColumn(3, 'overtime_hours', { hook: 'overtime_hours' }),
    engineColumn(4, 'overtime_pay', { script: 'round(basic / 173.33, 4) * overtime_hours * 1.5' }),
    engineColumn(5, 'gross', { addColumns: [1, 2, 4], subColumns: [6] }),
    engineColumn(6, 'unpaid', { defaultValue: '12.5' }),
    engineColumn(7, 'tax', { script: 'if(gross <= 1000, 0, (gross - 1000) * 0.14 + employee.age / 1000)' }),
    engineColumn(8, 'net', { script: 'gross - tax' }),
    engineColumn(9, 'bonus', { salaryComponents: [1] }),
  ];
  const { plan } = planColumns(columns);
  const hooks = (columnId: number, employeeId: number) => (employeeId % 3 === 0 ? null : String((employeeId * 7) % 11));
  const edits = (columnId: number, employeeId: number) => (columnId === 9 && employeeId % 4 === 0 ? '99.999' : undefined);
  const staff = Array.from({ length: 60 }, (_, i) => ({
    id: i + 1,
    minorUnit: i % 10 === 0 ? 0 : 2,
    fields: i % 7 === 0 ? {} : { age: 20 + i },
    salary: new Map(
      i % 13 === 5
        ? [[1, `${900 + i * 37}.5`]]
        : [
            [1, `${900 + i * 37}.5`],
            [2, `${i * 3}.333`],
          ],
    ),
  }));

  it('gives every cell of a whole run the value computePayroll stored, failures included', () => {
    const result = computePayroll(plan!, staff, hooks, edits);
    let compared = 0;
    for (const [r, row] of result.rows.entries())
      for (const [k, columnId] of result.columns.entries()) {
        const explained = explainCell(plan!, staff[r], columnId, hooks, edits)!;
        expect([row.employee, columnId, explained.value]).toEqual([row.employee, columnId, row.values[k]]);
        const error = result.errors.find((e) => e.employee === row.employee && e.column === columnId);
        expect(explained.error).toBe(error?.message ?? null);
        compared += 1;
      }
    expect(compared).toBe(60 * 9);
    expect(result.errors.length).toBeGreaterThan(0); // missing allowances and ages fail cells
  });

  it('names the rule, the inputs, the script steps and the rounding', () => {
    const someone = {
      id: 1,
      minorUnit: 2,
      fields: { age: 40 },
      salary: new Map([
        [1, '3466.60'],
        [2, '100.005'],
      ]),
    };
    const gross = explainCell(plan!, someone, 5, hooks, edits)!;
    expect(gross).toMatchObject({ rule: 'sum', value: '3764.11', error: null });
    expect(gross.inputs).toEqual([
      { kind: 'column', ref: 'basic', value: '3466.6', sign: '+' },
      { kind: 'column', ref: 'allowance', value: '100.01', sign: '+' },
      { kind: 'column', ref: 'overtime_pay', value: '210', sign: '+' },
      { kind: 'column', ref: 'unpaid', value: '12.5', sign: '-' },
    ]);
    const overtime = explainCell(plan!, someone, 3, hooks, edits)!;
    expect(overtime).toMatchObject({
      rule: 'hook',
      inputs: [{ kind: 'hook', ref: 'overtime_hours', value: '7' }],
      value: '7.00',
    });
    const pay = explainCell(plan!, someone, 4, hooks, edits)!;
    expect(pay.rule).toBe('script');
    // 3466.60 / 173.33 = 20 exactly; 20 × 7 h × 1.5.
    expect(pay.steps.at(-1)).toEqual({ expression: '(round(basic / 173.33, 4) * overtime_hours) * 1.5', value: '210' });
    expect(pay.rounding).toEqual({ exact: '210', places: 2, value: '210.00' });
    const odd = explainCell(
      plan!,
      {
        ...someone,
        salary: new Map([
          [1, '3000'],
          [2, '0'],
        ]),
      },
      4,
      hooks,
      edits,
    )!;
    // 3000 / 173.33 = 17.30802… → 17.308; × 7 × 1.5 = 181.734 → 181.73.
    expect(odd.rounding).toEqual({ exact: '181.734', places: 2, value: '181.73' });
    const tax = explainCell(plan!, someone, 7, hooks, edits)!;
    // Read twice by the script, listed once.
    expect(tax.inputs).toEqual([
      { kind: 'column', ref: 'gross', value: '3764.11' },
      { kind: 'employee_field', ref: 'age', value: '40' },
    ]);
    expect(explainCell(plan!, someone, 6, hooks, edits)).toMatchObject({ rule: 'default', inputs: [], value: '12.50' });
    const edited = explainCell(plan!, { ...someone, id: 4 }, 9, hooks, edits)!;
    expect(edited).toMatchObject({ rule: 'edit', inputs: [{ kind: 'edit', ref: 'bonus', value: '99.999' }], value: '100.00' });
    const noHook = explainCell(plan!, { ...someone, id: 3 }, 3, hooks, edits)!;
    expect(noHook).toMatchObject({ rule: 'default', value: '0.00' });
    const failed = explainCell(plan!, { ...someone, fields: {} }, 7, hooks, edits)!;
    expect(failed).toMatchObject({ value: null, error: 'employee.age is not set for this employee' });
    expect(explainCell(plan!, someone, 999, hooks, edits)).toBeNull();
  });
});
