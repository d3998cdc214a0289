import { fromMinorUnits, toMinorUnits } from '../../common/money/money';
import { CostCentre } from './books.entities';

/** A column's mapping to the books. */
export interface ColumnPosting {
  debit: string | null;
  credit: string | null;
  costCentre: CostCentre;
}

/** A journal line, amounts in minor units of its currency. */
export interface JournalLine {
  account: string;
  debit: string;
  credit: string;
  currency: string;
  cost_centre: string | null;
  description: string;
}

/** Σ of one column: by cost centre (a department id, or null) and currency, in minor units. */
export type ColumnSums = Map<string, { department: number | null; currency: string; digits: number; minor: bigint }>;

/** Of a column's sums, the parts that debit other accounts (a record's category): column → sum key → account → minor units. */
export type DebitSplits = Map<number, Map<string, Map<string, bigint>>>;

export interface JournalInput {
  payrollName: string;
  /** The payroll's columns in colorder. */
  columns: ReadonlyArray<{ id: number; name: string }>;
  postings: ReadonlyMap<number, ColumnPosting>;
  sums: ReadonlyMap<number, ColumnSums>;
  departmentNames: ReadonlyMap<number, string>;
  /** Debits of a positive sum that go to other accounts than the column's (JournalSplits); the rest debits the column's. */
  splits?: DebitSplits;
}

/**
 * The payroll's journal (issue 46): each mapped column posts its total, per cost centre and
 * currency, as a debit line on its debit account and a credit line of the same amount on its credit
 * account (a negative total the other way round), so the journal balances by construction, line
 * pair by line pair. A column whose records name their own debit accounts (`splits`: the
 * categories of reimbursed records) debits each of them its part and the column's account the rest, against one
 * credit line of the whole. Employer contributions post like any column. A column mapped to no accounts
 * (both null) is not posted; a column with a non-zero total and no mapping is answered in
 * `unmapped`, and the caller refuses the journal.
 */
export function journalOf(input: JournalInput): { lines: JournalLine[]; unmapped: string[] } {
  const lines: JournalLine[] = [];
  const unmapped: string[] = [];
  for (const column of input.columns) {
    const sums = [...(input.sums.get(column.id)?.values() ?? [])].filter((s) => s.minor !== 0n);
    if (!sums.length) continue;
    const posting = input.postings.get(column.id);
    if (!posting) {
      unmapped.push(column.name);
      continue;
    }
    if (posting.debit === null || posting.credit === null) continue;
    const named = [...(input.sums.get(column.id)?.entries() ?? [])]
      .filter(([, s]) => s.minor !== 0n)
      .map(([key, s]) => ({
        ...s,
        key,
        centre: s.department === null ? null : (input.departmentNames.get(s.department) ?? `Department ${s.department}`),
      }));
    named.sort((a, b) => (a.centre ?? '').localeCompare(b.centre ?? '') || a.currency.localeCompare(b.currency));
    for (const s of named) {
      const amount = fromMinorUnits(s.minor < 0n ? -s.minor : s.minor, s.digits);
      const zero = fromMinorUnits(0n, s.digits);
      const [debitAccount, creditAccount] = s.minor > 0n ? [posting.debit, posting.credit] : [posting.credit, posting.debit];
      const description = `${column.name}, ${input.payrollName}`;
      const base = { currency: s.currency, cost_centre: s.centre, description };
      // A positive sum whose records name their accounts debits them, the rest the column's account; one credit line of the whole.
      const split = s.minor > 0n ? input.splits?.get(column.id)?.get(s.key) : undefined;
      let rest = s.minor;
      for (const [account, minor] of [...(split ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
        if (minor <= 0n || minor > rest) continue;
        lines.push({ account, debit: fromMinorUnits(minor, s.digits), credit: zero, ...base });
        rest -= minor;
      }
      if (rest !== 0n || !split)
        lines.push({ account: debitAccount, debit: fromMinorUnits(rest < 0n ? -rest : rest, s.digits), credit: zero, ...base });
      lines.push({ account: creditAccount, debit: zero, credit: amount, ...base });
    }
  }
  return { lines, unmapped };
}

/** Σ of the lines' debits and credits (as decimal text with the most decimals among them). */
export function journalTotals(lines: readonly JournalLine[]): { debit: string; credit: string } {
  const digits = Math.max(2, ...lines.map((l) => l.debit.split('.')[1]?.length ?? 0));
  const minor = (text: string) => toMinorUnits(text, digits);
  let debit = 0n;
  let credit = 0n;
  for (const l of lines) {
    debit += minor(l.debit);
    credit += minor(l.credit);
  }
  return { debit: fromMinorUnits(debit, digits), credit: fromMinorUnits(credit, digits) };
}
