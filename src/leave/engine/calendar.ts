/** Calendar arithmetic on 'YYYY-MM-DD' days (UTC, no time of day), for the leave ledger. */

const DAY_MS = 86_400_000;

/** A DATE column's value as 'YYYY-MM-DD' (SQLite answers text, MariaDB text or a Date). */
export const dateOnly = (d: string | Date) => (typeof d === 'string' ? d.slice(0, 10) : d.toISOString().slice(0, 10));

/**
 * Day strings ↔ epoch days, remembered: the accrual job does this arithmetic for every employee on
 * the same few hundred days, and parsing and formatting dates was a third of its time. Bounded:
 * a cache is emptied when it reaches 100 000 days.
 */
const dayNumbers = new Map<string, number>();
const dayStrings = new Map<number, string>();
function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= 100_000) cache.clear();
  cache.set(key, value);
  return value;
}
const toDays = (day: string) => dayNumbers.get(day) ?? remember(dayNumbers, day, Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const fromDays = (n: number) => dayStrings.get(n) ?? remember(dayStrings, n, new Date(n * DAY_MS).toISOString().slice(0, 10));
const fromMs = (ms: number) => fromDays(Math.round(ms / DAY_MS));

export function plusDays(day: string, days: number): string {
  return fromDays(toDays(day) + days);
}

/** Days from `a` to `b` inclusive (1 for the same day). */
export function daysInclusive(a: string, b: string): number {
  return toDays(b) - toDays(a) + 1;
}

/** The last day of the month of `day`. */
export function monthEnd(day: string): string {
  const [y, m] = [Number(day.slice(0, 4)), Number(day.slice(5, 7))];
  return fromMs(Date.UTC(y, m, 0));
}

/** `day` plus `months` calendar months, kept on the month's last day when it has fewer days (31 Jan + 1 → 28/29 Feb). */
export function plusMonths(day: string, months: number): string {
  const [y, m, d] = [Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))];
  const first = Date.UTC(y, m + months, 1);
  const last = new Date(Date.UTC(y, m + months + 1, 0)).getUTCDate();
  return fromMs(first + (Math.min(d, last) - 1) * DAY_MS);
}

export const minDay = (a: string, b: string) => (a < b ? a : b);
export const maxDay = (a: string, b: string) => (a > b ? a : b);
