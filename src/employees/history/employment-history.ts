import { DepartmentMove } from '../../common/database/day-rollup';
import { addDays } from '../../common/time/days';
import { ExtraValues, mergeExtra } from '../core/employee-extensions';

export { extraOf, mergeExtra } from '../core/employee-extensions';
export type { ExtraValues };

export type { DepartmentMove };

/**
 * Employment history (issue 43, docs/api/decisions.md §19): the pure rules that turn an employee's recorded
 * changes into its segments, as known at an instant. No database here: the repository reads the
 * changes, the history route, the as-of reads and the daily job all fold them with these rules,
 * and the property test checks them against its own model.
 */

/** The dated fields of an employee, by their API names; null: none. */
export const DATED_FIELDS = [
  'job_title',
  'department',
  'pay_grade',
  'employment_status',
  'supervisor',
  'approver1',
  'approver2',
  'approver3',
  'calendar',
] as const;
export type DatedField = (typeof DATED_FIELDS)[number];
export type DatedValues = Record<DatedField, number | null>;

/** One component of a salary: its amount as the decimal string the salary API uses. */
export interface SalaryLine {
  component: number;
  amount: string;
}

/** A recorded change, as the rules need it. */
export interface RecordedChange {
  id: number;
  /** 'YYYY-MM-DD': the day it takes effect. */
  effectiveDate: string;
  /** When it was recorded (the order of two changes of one day: the later recorded wins). */
  recordedAt: Date;
  /** The dated fields it sets (the others keep their values). */
  fields: Partial<DatedValues>;
  /** Other modules' dated values it sets (none when absent). */
  extra?: ExtraValues;
  /** The whole salary from that day, when the change sets it. */
  salary: SalaryLine[] | null;
  /** When it was cancelled (a Scheduled change only), else null. */
  cancelledAt: Date | null;
  /** The change this one corrects: from this one's recording on, that one no longer counts. */
  corrects: number | null;
}

/** A stretch of days with one set of values: from the change that began it. */
export interface Segment {
  effectiveFrom: string;
  /** The last day (inclusive); null for the open one. */
  effectiveTo: string | null;
  values: DatedValues;
  extra: ExtraValues;
  salary: SalaryLine[];
  /** The last change applied on `effectiveFrom`. */
  change: number;
}

const EMPTY: DatedValues = Object.fromEntries(DATED_FIELDS.map((f) => [f, null])) as DatedValues;

/** Whether `c` was recorded, and not cancelled, by `knownAt`. */
function recordedAndStanding(c: RecordedChange, knownAt: Date): boolean {
  return c.recordedAt <= knownAt && !(c.cancelledAt && c.cancelledAt <= knownAt);
}

/**
 * The segments as known at `knownAt` (default: every recording so far): the changes that count
 * then, in order of effective date, then recording, then id; each day's changes folded over the
 * values before it (a field a change does not name keeps its value; a salary replaces the whole
 * salary). One segment per day on which something counted changed, the last open.
 */
export function segmentsAt(changes: readonly RecordedChange[], knownAt: Date = new Date(8.64e15)): Segment[] {
  // A correction hides what it corrects from its own recording on, unless it was cancelled by then.
  const corrected = new Set(changes.filter((c) => c.corrects !== null && recordedAndStanding(c, knownAt)).map((c) => c.corrects));
  const counted = changes
    .filter((c) => recordedAndStanding(c, knownAt) && !corrected.has(c.id))
    .sort(
      (a, b) => a.effectiveDate.localeCompare(b.effectiveDate) || a.recordedAt.getTime() - b.recordedAt.getTime() || a.id - b.id,
    );
  const segments: Segment[] = [];
  let values = EMPTY;
  let extra: ExtraValues = {};
  let salary: SalaryLine[] = [];
  for (const c of counted) {
    values = { ...values, ...c.fields };
    if (c.extra) extra = mergeExtra(extra, c.extra);
    if (c.salary) salary = c.salary;
    const last = segments[segments.length - 1];
    if (last && last.effectiveFrom === c.effectiveDate) Object.assign(last, { values, extra, salary, change: c.id });
    else {
      if (last) last.effectiveTo = addDays(c.effectiveDate, -1);
      segments.push({ effectiveFrom: c.effectiveDate, effectiveTo: null, values, extra, salary, change: c.id });
    }
  }
  return segments;
}

/** The segment in force on `day` (null before the first). */
export function segmentOn(segments: readonly Segment[], day: string): Segment | null {
  let found: Segment | null = null;
  for (const s of segments) {
    if (s.effectiveFrom > day) break;
    found = s;
  }
  return found;
}

/**
 * The spans of days whose department differs between two versions of a history (a rewrite of
 * the segments): what the insights rollups move. Adjacent spans with the same move are one.
 */
export function departmentMoves(before: readonly Segment[], after: readonly Segment[]): DepartmentMove[] {
  const edges = new Set<string>();
  for (const s of [...before, ...after]) {
    edges.add(s.effectiveFrom);
    if (s.effectiveTo !== null) edges.add(addDays(s.effectiveTo, 1));
  }
  const days = [...edges].sort();
  const moves: DepartmentMove[] = [];
  days.forEach((from, i) => {
    const to = i + 1 < days.length ? addDays(days[i + 1], -1) : null;
    const was = segmentOn(before, from)?.values.department ?? null;
    const is = segmentOn(after, from)?.values.department ?? null;
    if (was === is) return;
    const last = moves[moves.length - 1];
    if (last && last.before === was && last.after === is && last.to !== null && addDays(last.to, 1) === from) last.to = to;
    else moves.push({ from, to, before: was, after: is });
  });
  return moves;
}
