import { Type } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { timeSlices } from '../async/time-slices';
import { withSavepoint } from '../database/transaction';
import { DomainException } from '../errors/domain.exception';
import { createValidationPipe } from '../validation/validation-pipe';
import { cellValue, ImportColumn, ImportRow, RowDetail } from './import-kind';

const pipe = createValidationPipe();

/** The row as a JSON body of `columns` (empty cells left out). */
export function bodyOf(row: ImportRow, columns: readonly ImportColumn[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const column of columns) {
    const value = cellValue(row.values.get(column.field), column.type);
    if (value !== undefined) body[column.field] = value;
  }
  return body;
}

/** What the row's DomainException says, as row details. */
export function detailsOf(row: number, err: DomainException): RowDetail[] {
  return (err.details?.length ? err.details : [{ field: '', message: err.message }]).map((d) => ({ row, ...d }));
}

/**
 * An import kind whose rows go through the module's own service method, one at a time, each under
 * a savepoint of the pipeline's transaction: a row the service refuses (validation, scope, a
 * conflict) is undone and reported with the service's own words, and the next row goes on. The
 * body is first validated with the route's DTO, as the JSON API's pipe does.
 */
export async function rowByRow<D extends object>(
  em: EntityManager,
  rows: readonly ImportRow[],
  dto: Type<D>,
  body: (row: ImportRow, problems: RowDetail[]) => Record<string, unknown> | null,
  write: (body: D) => Promise<unknown>,
): Promise<RowDetail[]> {
  const problems: RowDetail[] = [];
  // A row's checks and writes are microtasks on SQLite (its driver answers at once): without a
  // pause a batch of rows kept /health/live waiting seconds (issue 41). Other statements still wait
  // for the import's transaction (the SQLite gate); requests that need no database answer.
  const slices = timeSlices();
  for (const row of rows) {
    if (slices.due()) await slices.pause();
    const raw = body(row, problems);
    if (!raw) continue;
    try {
      const valid = (await pipe.transform(raw, { type: 'body', metatype: dto })) as D;
      await withSavepoint(em, () => write(valid));
    } catch (err) {
      if (!(err instanceof DomainException)) throw err;
      problems.push(...detailsOf(row.row, err));
    }
  }
  return problems;
}

/** Names (lower case) → id of a small reference table; null for a name used twice (give the id then). */
export function idsByName(rows: ReadonlyArray<{ id: number; name: string }>): Map<string, number | null> {
  const out = new Map<string, number | null>();
  for (const r of rows) {
    const key = r.name.trim().toLowerCase();
    out.set(key, out.has(key) ? null : r.id);
  }
  return out;
}

/** Names (lower case) → every id with that name (an import resolves a name, and says when it is ambiguous). */
export function idListsByName(rows: ReadonlyArray<{ id: number; name: string }>): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const r of rows) {
    const key = r.name.trim().toLowerCase();
    out.set(key, [...(out.get(key) ?? []), r.id]);
  }
  return out;
}

/**
 * A reference cell of `body` as an id: a name of `names` (case ignored), else digits or a number as
 * the id itself; false, with the row's problem, when the name is unknown or ambiguous. A name goes
 * first, digits too: leave periods are named by their year ("2026"), which was read as id 2026.
 */
export function resolveName(
  row: number,
  field: string,
  body: Record<string, unknown>,
  names: Map<string, number | null>,
  problems: RowDetail[],
): boolean {
  const value = body[field];
  if (typeof value !== 'string') return true; // absent, or a number for the DTO to check
  const id = names.get(value.toLowerCase());
  if (id === undefined && /^\d+$/.test(value)) {
    body[field] = Number(value);
    return true;
  }
  if (id === undefined) problems.push({ row, field, message: `nothing is named "${value}"` });
  else if (id === null) problems.push({ row, field, message: `several are named "${value}": give the id` });
  else body[field] = id;
  return typeof id === 'number';
}
