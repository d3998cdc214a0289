/** Calendar arithmetic on 'YYYY-MM-DD' days (UTC, no time of day), for the leave ledger. */

const DAY_MS = 86_400_000;
const toMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const fromMs = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function plusDays(day: string, days: number): string {
  return fromMs(toMs(day) + days * DAY_MS);
}

/** Days from `a` to `b` inclusive (1 for the same day). */
export function daysInclusive(a: string, b: string): number {
  return Math.round((toMs(b) - toMs(a)) / DAY_MS) + 1;
}

/** The last day of the month of `day`. */
export function monthEnd(day: string): string {
  const d = new Date(toMs(day));
  return fromMs(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0));
}

/** `day` plus `months` calendar months, kept on the month's last day when it has fewer days (31 Jan + 1 → 28/29 Feb). */
export function plusMonths(day: string, months: number): string {
  const d = new Date(toMs(day));
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months + 1, 0)).getUTCDate();
  return fromMs(first + (Math.min(d.getUTCDate(), last) - 1) * DAY_MS);
}

export const minDay = (a: string, b: string) => (a < b ? a : b);
export const maxDay = (a: string, b: string) => (a > b ? a : b);
