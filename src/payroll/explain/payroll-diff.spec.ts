import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { cellMap, DiffSide, diffRuns, employmentCause } from './payroll-diff';
import { EmployeeInputs } from '../engine/stored-inputs';

describe('diffRuns', () => {
  const column = (id: number, variable: string, over: Partial<PayrollColumnDto> = {}): PayrollColumnDto => ({
    id,
    name: variable,
    variable,
    colorder: id,
    enabled: true,
    editable: false,
    default_value: null,
    salary_components: [],
    add_columns: [],
    sub_columns: [],
    calculation_hook: null,
    calculation_hook_args: {},
    script: null,
    deduction_group: null,
    ...over,
  });
  const columns = [column(1, 'basic', { salary_components: [7] }), column(2, 'bonus', { script: '10' })];
  const side = (employees: number, basic: (e: number) => string): DiffSide => {
    const inputs = new Map<number, EmployeeInputs>();
    const cells: Array<[number, number, string, boolean]> = [];
    for (let e = 1; e <= employees; e++) {
      inputs.set(e, {
        settings: { pay_frequency: 4, currency: 'EUR', deduction_group: null },
        minorUnit: 2,
        salary: { 7: basic(e) },
        fields: {},
        hooks: {},
      });
      cells.push([e, 1, basic(e), false], [e, 2, '10.00', false]);
    }
    return { columns, inputs, cells: cellMap(cells) };
  };

  it('names the salary change as the cause of the cells that read it, and lets the event loop run on a large pair of runs', async () => {
    const n = 20_000;
    const older = side(n, (e) => `${1000 + e}.00`);
    const newer = side(n, (e) => `${1000 + e + (e % 2)}.00`);
    let done = false;
    let ranDuring = false;
    setImmediate(() => (ranDuring = !done));
    const rows = await diffRuns(
      older,
      newer,
      Array.from({ length: n }, (_, i) => i + 1),
    );
    done = true;
    expect(rows).toHaveLength(n / 2);
    expect(rows[0]).toEqual({
      employee: 1,
      column: 1,
      old: '1001.00',
      new: '1002.00',
      difference: '1.00',
      causes: [{ kind: 'salary', component: 7, old: '1001.00', new: '1002.00', changes: [] }],
    });
    expect(ranDuring).toBe(true);
  });
});

describe('employmentCause: joined and left told by the employment dates (issue 43)', () => {
  const runs = { older: { dateEnd: '2025-03-31' }, newer: { dateStart: '2025-04-01' } };

  it('a joiner hired after the older period is a new hire; one employed before was added to the payroll', () => {
    expect(employmentCause('joined', { joined: '2025-04-10', terminated: null }, runs)).toEqual({
      kind: 'joined',
      joined_date: '2025-04-10',
      hired: true,
    });
    expect(employmentCause('joined', { joined: '2025-03-31', terminated: null }, runs)).toMatchObject({ hired: false });
    expect(employmentCause('joined', undefined, runs)).toEqual({ kind: 'joined', joined_date: null, hired: false });
  });

  it('a leaver terminated before the newer period has left; one still employed was taken off the payroll', () => {
    expect(employmentCause('left', { joined: '2020-01-01', terminated: '2025-03-31' }, runs)).toEqual({
      kind: 'left',
      termination_date: '2025-03-31',
      terminated: true,
    });
    expect(employmentCause('left', { joined: '2020-01-01', terminated: '2025-04-01' }, runs)).toMatchObject({
      terminated: false,
    });
    expect(employmentCause('left', { joined: '2020-01-01', terminated: null }, runs)).toMatchObject({ terminated: false });
  });
});
