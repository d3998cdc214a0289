import type { EntityManager, EntityTarget, FindOptionsWhere, ObjectLiteral } from 'typeorm';
import { In, MoreThan } from 'typeorm';

/*
 * The subject-access export (issue 69, GDPR art. 15; docs/api/privacy.md): every module that holds
 * personal data of an employee writes what it keeps into one ZIP, from its own folder (its
 * PersonalDataHolder's `export`), through this port. Rows are written as stored, column by column
 * under their database names (the whole record, not an API view of it), read a page at a time so
 * that ten years of attendance never sit in memory.
 */

/** A list of stored rows of one table: `{name: [...rows]}` in a JSON file. */
export interface StoredList<T extends ObjectLiteral = ObjectLiteral> {
  name: string;
  entity: EntityTarget<T>;
  where: FindOptionsWhere<T>;
  /** Columns (database names) never written: a password hash, a secret. */
  omit?: readonly string[];
}

export interface SubjectExport {
  /** A section of `employee.json` (`employee`, `history`, `custom_fields`, `user`): small, written at the end. */
  section(name: string, value: unknown): void;
  /** A JSON file `{"<list>": [rows...], ...}`, its rows read page by page, and its line in README.txt. */
  lists(file: string, about: string, lists: readonly StoredList[]): Promise<void>;
  /** A stored file (the file store's key) copied into the archive under `path`. */
  file(path: string, key: string): Promise<void>;
  /** A line of README.txt for a file or folder the holder wrote. */
  describe(path: string, about: string): void;
}

/** Rows read at a time. */
const PAGE = 500;

/** A stored value as JSON: instants as ISO text, bytes left out. */
function jsonValue(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v)) return undefined;
  return v;
}

/**
 * The rows of `list` (its table's columns by database name), in primary-key order, a page at a
 * time: a single-column key pages by it, a composite one (a few rows per employee) reads at once.
 */
export async function* storedRows<T extends ObjectLiteral>(
  em: EntityManager,
  list: StoredList<T>,
): AsyncGenerator<Record<string, unknown>> {
  const meta = em.connection.getMetadata(list.entity);
  const omit = new Set(list.omit ?? []);
  const columns = meta.columns.filter((c) => !omit.has(c.databaseName));
  const toJson = (row: T) => {
    const out: Record<string, unknown> = {};
    for (const c of columns) {
      const v = jsonValue(c.getEntityValue(row));
      if (v !== undefined) out[c.databaseName] = v;
    }
    return out;
  };
  const repo = em.getRepository(list.entity);
  const order = Object.fromEntries(meta.primaryColumns.map((c) => [c.propertyName, 'ASC'])) as never;
  if (meta.primaryColumns.length !== 1) {
    for (const row of await repo.find({ where: list.where, order })) yield toJson(row);
    return;
  }
  const key = meta.primaryColumns[0].propertyName;
  for (let after: unknown = undefined; ;) {
    const where = after === undefined ? list.where : { ...list.where, [key]: MoreThan(after) };
    const rows = await repo.find({ where, order, take: PAGE });
    for (const row of rows) yield toJson(row);
    if (rows.length < PAGE) return;
    after = (rows[rows.length - 1] as Record<string, unknown>)[key];
  }
}

/** The rows of `list` in an array: for the few rows of an employee.json section. */
export async function storedRowList<T extends ObjectLiteral>(
  em: EntityManager,
  list: StoredList<T>,
): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for await (const row of storedRows(em, list)) out.push(row);
  return out;
}

/** `In(ids)` that matches nothing for no ids (a where clause of ids read from another table). */
export function anyOf(ids: readonly number[]): ReturnType<typeof In<number>> {
  return In(ids.length ? [...ids] : [-1]);
}
