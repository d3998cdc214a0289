/**
 * The instant to the second: what both databases keep of a datetime column (MariaDB's `datetime`,
 * SQLite's text), so a value answered at once equals the value read back later.
 */
export function toWholeSecond(d: Date = new Date()): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

/** 'YYYY-MM-DD HH:MM:SS.mmm' in UTC: a datetime as both databases store it, for raw SQL. */
export function sqlInstant(d: Date = new Date()): string {
  return d.toISOString().slice(0, 23).replace('T', ' ');
}

/** A datetime column as a raw query returns it: a Date (mysql2) or sqlInstant's text in UTC (SQLite). */
export function fromSqlInstant(v: string | Date): Date {
  return v instanceof Date ? v : new Date(`${v.replace(' ', 'T')}Z`);
}
