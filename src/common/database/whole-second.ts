/**
 * The instant to the second: what both databases keep of a datetime column (MariaDB's `datetime`,
 * SQLite's text), so a value answered at once equals the value read back later.
 */
export function toWholeSecond(d: Date = new Date()): Date {
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}
