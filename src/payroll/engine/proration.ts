import { daysBetween } from '../../common/time/days';
import { Dec } from '../formula/formula';

/*
 * Proration (issue 44, docs/api/decisions.md §20): a salary that changed within a payroll's period, or an employee
 * who joined or left within it, is paid by the days each amount was in force. Pure: the inputs
 * loader reads the history's segments and the calendar, these rules turn them into the amounts the
 * engine sums, and the run keeps what they used so that explain shows it.
 */

export const PRORATION_RULES = ['calendar_days', 'working_days', 'none'] as const;
export type ProrationRule = (typeof PRORATION_RULES)[number];
export const DEFAULT_PRORATION: ProrationRule = 'calendar_days';

/** Decimal places a prorated amount keeps: far below a cent, and exact for any amount × days ÷ days to the cent. */
const PRORATED_PLACES = 12;

/** A stretch of the employee's history as the run reads it: its days (inclusive; `to` null: open), salary and change. */
export interface SalarySpan {
  from: string;
  to: string | null;
  salary: ReadonlyArray<{ component: number; amount: string }>;
  /** The change that began it. */
  change: number;
}

/** One part of the period in which one salary was in force (what a prorated cell's explanation lists). */
export interface ProratedSegment {
  from: string;
  to: string;
  /** Its days in the rule's unit (calendar or working days). */
  days: number;
  /** Component id → amount in force. */
  salary: Record<string, string>;
  change: number;
}

/** How a run prorated one employee's salary: kept with the run's inputs. */
export interface StoredProration {
  /** The rule applied (working_days over a period without working days counts calendar days). */
  rule: ProrationRule;
  /** The period's days in the rule's unit. */
  period_days: number;
  segments: ProratedSegment[];
}

/** An employee's salary over a period (prorate). */
export interface Prorated {
  /** Component id → amount (exact, at most PRORATED_PLACES decimals). */
  salary: Record<string, string>;
  /** Null: one salary in force for the whole period. */
  proration: StoredProration | null;
  /** The employment changes whose salaries were read, oldest first (a diff names those new since the other run). */
  changes: number[];
}

/** Counts the days of [from, to] (inclusive) in a rule's unit. */
export type DayCount = (from: string, to: string) => number;

export const calendarDays: DayCount = (from, to) => daysBetween(from, to) + 1;

/**
 * An employee's salary over a period, prorated by `rule`: each component is Σ amount × days in
 * force ÷ days of the period, over the parts of the period the employee was employed (`employed`:
 * its joined and termination dates). A component missing from a part is zero there. The whole
 * period under one salary is no proration (null). `none` pays the amount in force on the last day
 * employed within the period, whole (zero for a component the salary had earlier in the period and
 * no longer). Null as well when no span falls within the period.
 */
export function prorate(
  spans: readonly SalarySpan[],
  period: { from: string; to: string },
  employed: { from: string | null; to: string | null },
  rule: ProrationRule,
  workingDays: DayCount,
): Prorated | null {
  const start = employed.from && employed.from > period.from ? employed.from : period.from;
  const end = employed.to && employed.to < period.to ? employed.to : period.to;
  if (start > end) return null;
  const within = [...spans]
    .filter((s) => s.from <= end && (s.to === null || s.to >= start))
    .sort((a, b) => a.from.localeCompare(b.from))
    .map((s) => ({
      from: s.from > start ? s.from : start,
      to: s.to !== null && s.to < end ? s.to : end,
      salary: Object.fromEntries(s.salary.map((l) => [String(l.component), l.amount])),
      change: s.change,
    }));
  if (!within.length) return null;
  const changes = [...new Set(within.map((w) => w.change))];
  if (within.length === 1 && within[0].from === period.from && within[0].to === period.to)
    return { salary: within[0].salary, proration: null, changes };
  const effective: ProrationRule = rule === 'working_days' && workingDays(period.from, period.to) === 0 ? 'calendar_days' : rule;
  const count = effective === 'working_days' ? workingDays : calendarDays;
  const segments: ProratedSegment[] = within.map((p) => ({ ...p, days: count(p.from, p.to) }));
  const periodDays = count(period.from, period.to);
  const proration: StoredProration = { rule: effective, period_days: periodDays, segments };
  const components = [...new Set(segments.flatMap((p) => Object.keys(p.salary)))].sort((a, b) => Number(a) - Number(b));
  if (effective === 'none') {
    const last = segments[segments.length - 1].salary;
    return { salary: Object.fromEntries(components.map((c) => [c, last[c] ?? '0'])), proration, changes };
  }
  const salary: Record<string, string> = {};
  for (const c of components) {
    // One division at the end: Σ amount × days, then ÷ the period's days.
    let weighted = new Dec(0);
    for (const p of segments) if (Object.hasOwn(p.salary, c)) weighted = weighted.plus(new Dec(p.salary[c]).times(p.days));
    salary[c] = weighted.div(periodDays).toDecimalPlaces(PRORATED_PLACES, Dec.ROUND_HALF_UP).toString();
  }
  return { salary, proration, changes };
}
