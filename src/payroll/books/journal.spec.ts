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
