/**
 * The one rule of working days (issue 65 item 4, docs/api/calendars.md): a day of a calendar's
 * work week is worth 1, less the fraction of a holiday on it (a half-day holiday leaves 0.5); any
 * other day is worth 0. Everything that counts working days (leave, proration, the
 * working-days route) comes through WorkingDaysService to this file.
 */

const DAY_MS = 86_400_000;

/** One day as an employee's calendar has it. */
export interface WorkingDay {
  date: string;
  /** 1, 0.5 or 0: the part of the day that is working time. */
  fraction: number;
  calendar: number;
  /** The holiday's name, or null. */
  holiday: string | null;
}

/** What a calendar counts by: its ISO weekdays (1 = Monday … 7 = Sunday) and holidays by date. */
export interface CalendarRules {
  id: number;
  workWeek: ReadonlySet<number>;
  holidays: ReadonlyMap<string, { name: string; fraction: number }>;
}

/** A stretch of an employee's calendar (its employment history); `to` inclusive, null: open. */
export interface CalendarSpan {
  calendar: number;
  from: string;
  to: string | null;
}

const isoWeekday = (t: number) => ((new Date(t).getUTCDay() + 6) % 7) + 1;
const timeOf = (day: string) => Date.parse(`${day}T00:00:00Z`);

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const monthDays = (y: number, m: number) => (m === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : MONTH_DAYS[m - 1]);
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The dates from `from` to `to` (inclusive) with their ISO weekdays: shared by the calendars of one
 * answer. Counted on the calendar's fields, not formatted from a Date each day (toISOString was
 * three quarters of a year's answer).
 */
export function datesOf(from: string, to: string): Array<{ date: string; weekday: number }> {
  const out: Array<{ date: string; weekday: number }> = [];
  const count = Math.round((timeOf(to) - timeOf(from)) / DAY_MS) + 1;
  let [y, m, d] = [Number(from.slice(0, 4)), Number(from.slice(5, 7)), Number(from.slice(8, 10))];
  let month = `${String(y).padStart(4, '0')}-${two(m)}-`;
  for (let i = 0, weekday = isoWeekday(timeOf(from)); i < count; i++, weekday = (weekday % 7) + 1) {
    out.push({ date: month + two(d), weekday });
    if (++d > monthDays(y, m)) {
      d = 1;
      if (++m > 12) [m, y] = [1, y + 1];
      month = `${String(y).padStart(4, '0')}-${two(m)}-`;
    }
  }
  return out;
}

/** The days from `from` to `to` (inclusive) of one calendar (`dates`: datesOf the same range, when known). */
export function calendarDays(rules: CalendarRules, from: string, to: string, dates = datesOf(from, to)): WorkingDay[] {
  return dates.map(({ date, weekday }) => {
    const holiday = rules.holidays.get(date);
    const worked = rules.workWeek.has(weekday) ? 1 : 0;
    return { date, fraction: worked ? 1 - (holiday?.fraction ?? 0) : 0, calendar: rules.id, holiday: holiday?.name ?? null };
  });
}

/**
 * An employee's days over the range of `byCalendar` (each calendar's days over one range,
 * calendarDays): each day counted by the calendar of the span covering it, the default calendar's
 * where none does (before joining). Employees on one calendar throughout share its array.
 */
export function employeeDays(
  spans: readonly CalendarSpan[],
  defaultCalendar: number,
  byCalendar: ReadonlyMap<number, readonly WorkingDay[]>,
): readonly WorkingDay[] {
  const base = byCalendar.get(defaultCalendar)!;
  if (!spans.length || !base.length) return base;
  const first = base[0].date;
  const last = base[base.length - 1].date;
  const covering = spans.filter((s) => s.from <= last && (s.to === null || s.to >= first));
  const [only] = covering;
  if (covering.length === 1 && only.from <= first && (only.to === null || only.to >= last))
    return byCalendar.get(only.calendar) ?? base;
  return base.map((day, i) => {
    const span = covering.find((s) => s.from <= day.date && (s.to === null || s.to >= day.date));
    return (span && byCalendar.get(span.calendar)?.[i]) || day;
  });
}

/** The working time from `from` to `to` (inclusive) of `days` (which cover at least that range). */
export function workingTime(days: readonly WorkingDay[], from: string, to: string): number {
  let sum = 0;
  for (const d of days) if (d.date >= from && d.date <= to) sum += d.fraction;
  return sum;
}

/**
 * A leave request's share of a day: the day's working time, at most half of it for a half-day
 * request (a half-day request on a half-day holiday takes 0.5).
 */
export const leaveDayValue = (fraction: number, halfDay: boolean): number => (halfDay ? Math.min(0.5, fraction) : fraction);

/** The days a leave request from `start` to `end` takes of `days`: each working day in it, worth leaveDayValue. */
export function leaveDaysOf(
  days: ReadonlyArray<Pick<WorkingDay, 'date' | 'fraction'>>,
  start: string,
  end: string,
  halfDay: boolean,
): Array<{ date: string; days: number }> {
  return days
    .filter((d) => d.date >= start && d.date <= end && d.fraction > 0)
    .map((d) => ({ date: d.date, days: leaveDayValue(d.fraction, halfDay) }));
}
