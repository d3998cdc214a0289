import { DataSource } from 'typeorm';

/**
 * Ids below a mark that could not be read when the mark was taken, [first, last, first seen (epoch
 * ms)]: a transaction still open (MariaDB hands out ids when rows are inserted, not in commit order,
 * so a long import may commit an id below the highest one another transaction already committed)
 * or rolled back. The next read of the changes reads these ids again, so a late commit is not
 * missed; an id still missing an hour after it was first seen is taken as rolled back.
 */
export type Hole = [number, number, number];

/**
 * How far the leave ledger and the accrual's changes (leave_accrual_changes: whom the events the
 * leave module subscribes to concern) were read: their highest ids, and the ids below those not
 * readable then.
 */
export interface ChangeMarks {
  ledgerMark: number;
  changeMark: number;
  holes?: { ledger: Hole[]; changes: Hole[] };
}

/** A missing id older than this is taken as rolled back (no transaction of this service stays open that long). */
export const HOLE_TTL_MS = 3_600_000;
/** Holes kept per table; past it the mark is lowered to below the first hole not kept, whose range is then read again. */
export const HOLES_KEPT = 200;

export type ChangeTable = 'leave_ledger' | 'leave_accrual_changes';

/** Missing ids of (from, to]: a gap before an id, or after the last one. */
function gapsSql(table: ChangeTable): string {
  return (
    `SELECT prev + 1 AS first, id - 1 AS last FROM (SELECT id, COALESCE(LAG(id) OVER (ORDER BY id), ?) AS prev ` +
    `FROM ${table} WHERE id > ? AND id <= ?) g WHERE id > prev + 1 ` +
    `UNION ALL SELECT COALESCE(MAX(id), ?) + 1 AS first, ? AS last FROM ${table} WHERE id > ? AND id <= ? HAVING COALESCE(MAX(id), ?) < ?`
  );
}

/**
 * The holes of `table` as of `to`: the ids missing in (from, to], and those of `before` (the holes of
 * the last read) still missing and not expired. Read before the changes themselves: an id that
 * commits in between is read then, or is still a hole.
 */
export async function holesOf(
  ds: DataSource,
  table: ChangeTable,
  from: number,
  to: number,
  before: Hole[],
  now = Date.now(),
): Promise<Hole[]> {
  const out: Hole[] = [];
  if (before.length) {
    const present = (
      await ds.query<Array<{ id: unknown }>>(
        `SELECT id FROM ${table} WHERE ${before.map(() => '(id BETWEEN ? AND ?)').join(' OR ')} ORDER BY id`,
        before.flatMap(([first, last]) => [first, last]),
      )
    ).map((r) => Number(r.id));
    for (const [first, last, seen] of before) {
      if (seen < now - HOLE_TTL_MS) continue;
      // What is still missing: the hole cut at the ids present in it now.
      let start = first;
      for (const id of present) {
        if (id < first || id > last) continue;
        if (id > start) out.push([start, id - 1, seen]);
        start = id + 1;
      }
      if (start <= last) out.push([start, last, seen]);
    }
  }
  if (to > from) {
    const [{ n }] = await ds.query<Array<{ n: unknown }>>(`SELECT COUNT(*) AS n FROM ${table} WHERE id > ? AND id <= ?`, [
      from,
      to,
    ]);
    if (Number(n) !== to - from) {
      const gaps = await ds.query<Array<{ first: unknown; last: unknown }>>(gapsSql(table), [
        from,
        from,
        to,
        from,
        to,
        from,
        to,
        from,
        to,
      ]);
      for (const g of gaps) out.push([Number(g.first), Number(g.last), now]);
    }
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** `holes` cut to HOLES_KEPT, with the mark lowered to below the first one dropped (its ids are read again next time). */
export function keptHoles(mark: number, holes: Hole[]): { mark: number; holes: Hole[] } {
  if (holes.length <= HOLES_KEPT) return { mark, holes };
  return { mark: Math.min(mark, holes[HOLES_KEPT][0] - 1), holes: holes.slice(0, HOLES_KEPT) };
}

/**
 * A condition on `column` (an id) for the changes to read: those in (from, to] and those in the holes
 * of the last read, with its named parameters (prefixed by `name`).
 */
export function changedIds(
  column: string,
  name: string,
  from: number,
  to: number,
  holes: Hole[] = [],
): { where: string; params: Record<string, number> } {
  const params: Record<string, number> = { [`${name}From`]: from, [`${name}To`]: to };
  const parts = [`(${column} > :${name}From AND ${column} <= :${name}To)`];
  holes.forEach(([first, last], i) => {
    params[`${name}H${i}a`] = first;
    params[`${name}H${i}b`] = last;
    parts.push(`${column} BETWEEN :${name}H${i}a AND :${name}H${i}b`);
  });
  return { where: `(${parts.join(' OR ')})`, params };
}

/** Holes as stored (a JSON text column, null when none). */
export function holesColumn(holes: ChangeMarks['holes']): string | null {
  return holes && (holes.ledger.length || holes.changes.length) ? JSON.stringify(holes) : null;
}

export function holesFromColumn(value: unknown): ChangeMarks['holes'] {
  if (typeof value !== 'string' || !value) return undefined;
  const parsed = JSON.parse(value) as { ledger?: Hole[]; changes?: Hole[] };
  return { ledger: parsed.ledger ?? [], changes: parsed.changes ?? [] };
}
