import { WEEKDAYS } from './leave.settings';

const DAY_MS = 86_400_000;
/** The longest request: a year and a day. */
export const MAX_LEAVE_SPAN_DAYS = 366;

/** "Mon,Tue,Wed,Thu,Fri" → the JavaScript weekday numbers (Sunday = 0). */
export function parseWorkWeek(setting: string): Set<number> {
  return new Set(setting.split(',').map((d) => (WEEKDAYS.indexOf(d as (typeof WEEKDAYS)[number]) + 1) % 7));
}

/** Every calendar date from start to end inclusive, as YYYY-MM-DD. */
export function datesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += DAY_MS) {
    out.push(new Date(t).toISOString().slice(0, 10));
  }
  return out;
}

/** Working days in [start, end]: days of the work week that are not holidays. */
export function workingDays(start: string, end: string, workWeek: ReadonlySet<number>, holidays: ReadonlySet<string>): string[] {
  return datesBetween(start, end).filter((d) => workWeek.has(new Date(`${d}T00:00:00Z`).getUTCDay()) && !holidays.has(d));
}
