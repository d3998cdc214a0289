import type { DiffCauseDto, PayrollDiffRowDto } from '../dto/payroll-explain.dto';
import { DiffTable, plainThousandths, thousandthsText } from './diff-table';
import { Dec } from '../formula/formula';

const salary = (employee: number): DiffCauseDto =>
  ({
    kind: 'salary',
    component: 3,
    name: 'Basic',
    old: '100.00',
    new: `${100 + employee}.00`,
    changes: [],
    changed_by: null,
    changed_at: null,
  }) as unknown as DiffCauseDto;
const table = { kind: 'table', table: 'Tax', version: 2 } as unknown as DiffCauseDto;

function rows(): PayrollDiffRowDto[] {
  const out: PayrollDiffRowDto[] = [];
  for (const employee of [7, 8, 9])
    for (const column of [1, 2])
      out.push({
        employee,
        employee_name: employee === 8 ? 'Zoë Ünal 张' : `Person ${employee}`,
        column,
        column_name: column === 1 ? 'Gross' : 'Tax',
        old: employee === 9 ? null : `${employee * 10}.5${column}`,
        new: column === 2 && employee === 7 ? null : `€${employee * 11}.00`,
        difference: employee === 9 || (column === 2 && employee === 7) ? null : `-${employee}.${column}0`,
        causes: column === 1 ? [salary(employee)] : [table],
      });
  return out;
}

function tableOf(list: PayrollDiffRowDto[]): DiffTable {
  const builder = DiffTable.builder(list.length);
  // A fresh copy of each cause list, as the service makes them: equal lists are kept once.
  for (const r of list)
    builder.add(r.employee, r.column, [r.old, r.new, r.difference], JSON.parse(JSON.stringify(r.causes)) as DiffCauseDto[]);
  const names = new Map(list.map((r) => [r.employee, r.employee_name]));
  return builder.build(names, new Map(list.map((r) => [r.column, r.column_name])));
}

describe('DiffTable', () => {
  it('gives back every row as it was added: values, nulls, names in any script, causes', () => {
    const list = rows();
    const t = tableOf(list);
    expect(t.size).toBe(list.length);
    expect(list.map((_, i) => t.row(i))).toEqual(list);
  });

  it('selects by employee, column, cause kind and the visible employees, in order', () => {
    const t = tableOf(rows());
    const pick = (s: Parameters<DiffTable['select']>[0]) => t.select(s).map((i) => [t.row(i).employee, t.row(i).column]);
    expect(pick({ visible: null, employee: 8 })).toEqual([
      [8, 1],
      [8, 2],
    ]);
    expect(pick({ visible: null, column: 2 })).toEqual([
      [7, 2],
      [8, 2],
      [9, 2],
    ]);
    expect(pick({ visible: null, cause: 'salary' })).toEqual([
      [7, 1],
      [8, 1],
      [9, 1],
    ]);
    expect(pick({ visible: new Set([9]), cause: 'table' })).toEqual([[9, 2]]);
    expect(pick({ visible: null, cause: 'edit' })).toEqual([]);
    expect(t.causeKinds(1)).toEqual(['table']);
  });

  it('keeps an equal list of causes once, and counts what it holds', () => {
    const list = rows();
    const t = tableOf(list);
    // The three 'table' rows share one list; each salary list differs by employee.
    expect(t.row(1).causes).toBe(t.row(3).causes);
    expect(t.row(0).causes).not.toBe(t.row(2).causes);
    const bigger = tableOf([...list, ...list.map((r) => ({ ...r, employee: r.employee + 100 }))]);
    expect(t.bytes).toBeGreaterThan(0);
    expect(bigger.bytes).toBeGreaterThan(t.bytes);
  });
});

describe('a difference in thousandths (the summary sums integers)', () => {
  const read = (text: string) => plainThousandths(Buffer.from(text), 0, Buffer.byteLength(text));

  it('reads plain decimals of at most 3 places exactly, and nothing else', () => {
    expect([read('12.5'), read('-0.001'), read('150'), read('-12.340'), read('99999999999.999')]).toEqual([
      12500, -1, 150000, -12340, 99999999999999,
    ]);
    for (const other of ['1.2345', '1e3', '€5', '', '-', '1.2.3', '1,5', '1234567890123.456']) expect(read(other)).toBeNaN();
  });

  it('prints them as decimal.js prints their value', () => {
    for (const n of [0, 1, -1, 1000, -1500, 123456, 2 ** 52, -(2 ** 52) + 7])
      expect(thousandthsText(n)).toBe(new Dec(n).div(1000).toString());
  });
});
