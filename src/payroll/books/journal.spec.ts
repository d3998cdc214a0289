import { toMinorUnits } from '../../common/money/money';
import { ColumnPosting, ColumnSums, journalOf, journalTotals } from './journal';

describe('the payroll journal', () => {
  // Random payrolls: columns with random totals (negative and zero too) per department and
  // currency, random mappings (split by department or not, some not posted): the journal balances
  // in total and per account pair, and every posted column's amount is there once on each side.
  it('balances for random payrolls', () => {
    let seed = 46;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 500; run++) {
      const columns = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) => ({ id: i + 1, name: `Column ${i + 1}` }));
      const postings = new Map<number, ColumnPosting>();
      const sums = new Map<number, ColumnSums>();
      for (const c of columns) {
        const posted = random() < 0.85;
        postings.set(c.id, {
          debit: posted ? `6${c.id}` : null,
          credit: posted ? `4${c.id}` : null,
          costCentre: random() < 0.5 ? 'department' : 'none',
        });
        const byCentre: ColumnSums = new Map();
        for (let k = 0; k < 1 + Math.floor(random() * 4); k++) {
          const department = random() < 0.3 ? null : 1 + Math.floor(random() * 5);
          const currency = random() < 0.8 ? 'EUR' : 'JPY';
          const minor = BigInt(Math.floor((random() - 0.3) * 10_000_000));
          byCentre.set(`${department}:${currency}:${k}`, { department, currency, digits: currency === 'JPY' ? 0 : 2, minor });
        }
        sums.set(c.id, byCentre);
      }
      const { lines, unmapped } = journalOf({ payrollName: 'P', columns, postings, sums, departmentNames: new Map() });
      expect(unmapped).toEqual([]);
      const totals = journalTotals(lines);
      expect(totals.debit).toBe(totals.credit);
      for (const currency of ['EUR', 'JPY']) {
        const digits = currency === 'JPY' ? 0 : 2;
        const of = (f: 'debit' | 'credit') =>
          lines.filter((l) => l.currency === currency).reduce((s, l) => s + toMinorUnits(l[f], digits), 0n);
        expect(of('debit')).toBe(of('credit'));
        const posted = [...sums].filter(([c]) => postings.get(c)!.debit !== null);
        const absolute = posted.flatMap(([, m]) => [...m.values()]).filter((s) => s.currency === currency);
        expect(of('debit')).toBe(absolute.reduce((s, x) => s + (x.minor < 0n ? -x.minor : x.minor), 0n));
      }
    }
  });

  it('debits the accounts a column’s records name, the rest the column’s own, against one credit of the whole', () => {
    const sums = new Map<number, ColumnSums>([
      [
        1,
        new Map([
          ['3:EUR', { department: 3, currency: 'EUR', digits: 2, minor: 10_000n }],
          [':EUR', { department: null, currency: 'EUR', digits: 2, minor: -500n }],
        ]),
      ],
    ]);
    const postings = new Map<number, ColumnPosting>([[1, { debit: '6499', credit: '1755', costCentre: 'department' }]]);
    // 60.00 to meals, 30.00 to travel: 10.00 of the cell (an edit) is the column's own; a negative sum is not split.
    const splits = new Map([
      [
        1,
        new Map([
          [
            '3:EUR',
            new Map([
              ['6410', 6000n],
              ['6400', 3000n],
            ]),
          ],
          [':EUR', new Map([['6410', 500n]])],
        ]),
      ],
    ]);
    const { lines } = journalOf({
      payrollName: 'P',
      columns: [{ id: 1, name: 'Reimbursements' }],
      postings,
      sums,
      departmentNames: new Map([[3, 'Sales']]),
      splits,
    });
    expect(lines.map((l) => [l.cost_centre, l.account, l.debit, l.credit])).toEqual([
      [null, '1755', '5.00', '0.00'],
      [null, '6499', '0.00', '5.00'],
      ['Sales', '6400', '30.00', '0.00'],
      ['Sales', '6410', '60.00', '0.00'],
      ['Sales', '6499', '10.00', '0.00'],
      ['Sales', '1755', '0.00', '100.00'],
    ]);
  });

  it('names columns with amounts and no mapping, and leaves out zero totals', () => {
    const sums = new Map<number, ColumnSums>([
      [1, new Map([['a', { department: null, currency: 'EUR', digits: 2, minor: 100n }]])],
      [2, new Map([['a', { department: null, currency: 'EUR', digits: 2, minor: 0n }]])],
    ]);
    const { lines, unmapped } = journalOf({
      payrollName: 'P',
      columns: [
        { id: 1, name: 'Bonus' },
        { id: 2, name: 'Zero' },
      ],
      postings: new Map(),
      sums,
      departmentNames: new Map(),
    });
    expect([lines, unmapped]).toEqual([[], ['Bonus']]);
  });
});
