import { DataSource } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { noteSql } from './record-sql';
import { openTransaction, sqliteTurn } from './transaction';

export type Row = Record<string, unknown>;

interface MysqlPool {
  execute(sql: string, params: unknown[], done: (err: Error | null, rows: Row[]) => void): void;
  execute(
    options: { sql: string; rowsAsArray: true },
    params: unknown[],
    done: (err: Error | null, rows: unknown[][]) => void,
  ): void;
  query(
    options: { sql: string; values: unknown[]; rowsAsArray: true },
    done: (err: Error | null, rows: unknown[][]) => void,
  ): void;
}
interface SqliteStatement {
  get(...params: unknown[]): Row | undefined;
  all(...params: unknown[]): unknown[][];
  raw(on: boolean): SqliteStatement;
}
interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
}

/** SQLite statements kept prepared per data source (list shapes: sort, filters and their value counts). */
const MAX_PREPARED = 500;

/**
 * Reads straight through the driver TypeORM opened. TypeORM's manager.query creates and releases
 * a query runner, broadcasts before- and after-query events and wraps the driver in promises on
 * every call (with the mysql2 promise wrapper, 7 % of the CPU of GET /employees/{id} on MariaDB).
 * Values are the driver's own, as getRawMany() gives them (TypeORM's pool options: dates as Date,
 * decimals and big integers as strings on MariaDB). Errors are the driver's own (their codes
 * decide 503 or 500, as through TypeORM). On SQLite every statement first waits for another
 * caller's open transaction (sqliteTurn), as TypeORM's own statements do; on MySQL/MariaDB a
 * caller inside a transaction reads through that transaction's connection (openTransaction), so
 * that it sees its own writes and keeps its isolation. Anything else (a replication pool) goes
 * through manager.query.
 */
export class DriverReader {
  private static readonly readers = new WeakMap<DataSource, DriverReader>();
  private readonly pool?: MysqlPool;
  private readonly sqlite?: SqliteDatabase;
  private readonly prepared = new Map<string, SqliteStatement>();

  static of(ds: DataSource): DriverReader {
    let reader = DriverReader.readers.get(ds);
    if (!reader) DriverReader.readers.set(ds, (reader = new DriverReader(ds)));
    return reader;
  }

  private constructor(private readonly ds: DataSource) {
    const driver = ds.driver as unknown as { pool?: MysqlPool; databaseConnection?: SqliteDatabase };
    if (ds.options.type === 'mysql' && driver.pool) this.pool = driver.pool;
    if (ds.options.type === 'better-sqlite3' && driver.databaseConnection) this.sqlite = driver.databaseConnection;
  }

  /**
   * The first row of `sql` (positional `?` parameters) as an object keyed by column name. On
   * MariaDB a prepared statement of the mysql2 pool (each connection prepares it once and keeps
   * it): with the text protocol MariaDB parsed the statement for every read (60 µs of its CPU per
   * read against 40 µs prepared). For a fixed set of statements only (MariaDB keeps each one per
   * connection). The binary protocol returns floating-point columns as doubles where the text
   * protocol gives their printed value: callers read no such column (byIdReader refuses them).
   */
  first(sql: string, params: unknown[]): Promise<Row | undefined> {
    // Not an async function: the hot read by id makes no promise beyond the driver's own.
    noteSql(sql);
    const pool = this.pool;
    const inTransaction = pool && openTransaction(this.ds);
    if (inTransaction) return inTransaction.query<Row[]>(sql, params).then((rows) => rows[0]);
    if (pool)
      return new Promise((resolve, reject) => pool.execute(sql, params, (err, rows) => (err ? reject(err) : resolve(rows[0]))));
    if (this.sqlite) {
      if (sqliteTurn(this.ds)) return this.afterTurn(() => this.statement(sql, false).get(...params));
      try {
        return Promise.resolve(this.statement(sql, false).get(...params));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    }
    return this.ds.manager.query<Row[]>(sql, params).then((rows) => rows[0]);
  }

  /**
   * The rows of `sql` (positional `?` parameters) as arrays of values in the order of its select
   * list, for a fixed statement read on every request (an employee's custom values): on MariaDB a
   * prepared statement as first() (30 rows of an employee: 189 µs against 205 through the text
   * protocol), on SQLite the kept statement without arrays()' parameter naming. The binary
   * protocol's caveat of first() holds: no floating-point column.
   */
  rows(sql: string, params: unknown[]): Promise<unknown[][]> {
    noteSql(sql);
    const pool = this.pool;
    const inTransaction = pool && openTransaction(this.ds);
    if (inTransaction) return inTransaction.query<Row[]>(sql, params).then((rows) => rows.map((row) => Object.values(row)));
    if (pool)
      return new Promise((resolve, reject) =>
        pool.execute({ sql, rowsAsArray: true }, params, (err, rows) => (err ? reject(err) : resolve(rows))),
      );
    if (this.sqlite) return this.afterTurn(() => this.statement(sql, true).all(...params));
    return this.ds.manager.query<Row[]>(sql, params).then((rows) => rows.map((row) => Object.values(row)));
  }

  /**
   * The rows of `sql` as arrays of values in the order of its select list (no object per row:
   * on SQLite 71 µs instead of 109 for 50 rows of 8 columns). `sql` takes TypeORM's named
   * parameters (`:name`, `:...list`), each bound as a value; on MariaDB through the text protocol,
   * so that statements of many shapes cost the server nothing to keep.
   */
  async arrays(sql: string, named: Record<string, unknown>): Promise<unknown[][]> {
    const [text, params] = positional(sql, named, this.sqlite !== undefined);
    noteSql(text);
    const pool = this.pool;
    const inTransaction = pool && openTransaction(this.ds);
    if (inTransaction) return (await inTransaction.query<Row[]>(text, params)).map((row) => Object.values(row));
    if (pool) {
      return new Promise((resolve, reject) =>
        pool.query({ sql: text, values: params, rowsAsArray: true }, (err, rows) => (err ? reject(err) : resolve(rows))),
      );
    }
    if (this.sqlite) {
      return this.afterTurn(() => this.statement(text, true).all(...params));
    }
    return (await this.ds.manager.query<Row[]>(text, params)).map((row) => Object.values(row));
  }

  /** Runs `read` once no other caller's transaction is open, in the same tick as the last check. */
  private async afterTurn<T>(read: () => T): Promise<T> {
    for (let wait = sqliteTurn(this.ds); wait; wait = sqliteTurn(this.ds)) await wait;
    return read();
  }

  /** A prepared statement answering rows as objects, or (`raw`) as arrays. */
  private statement(sql: string, raw: boolean): SqliteStatement {
    const key = `${raw ? 'arrays' : 'objects'}\n${sql}`;
    let statement = this.prepared.get(key);
    if (!statement) {
      statement = this.sqlite!.prepare(sql).raw(raw);
      if (this.prepared.size >= MAX_PREPARED) this.prepared.delete(this.prepared.keys().next().value!);
      this.prepared.set(key, statement);
    }
    return statement;
  }
}

/**
 * `sql` with TypeORM's named parameters (`:name`, `:...list` expanded to one `?` per value) turned
 * into positional ones, and their values in order. Names the parameters do not hold are left as
 * they are, as TypeORM leaves them. Unlike TypeORM's SQLite driver, numbers are bound rather than
 * written into the text, so that one prepared statement serves every page and scope. For SQLite,
 * values are converted as TypeORM converts them (booleans 1/0, dates as UTC datetime strings).
 */
export function positional(sql: string, named: Record<string, unknown>, sqlite: boolean): [string, unknown[]] {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(
      !sqlite
        ? value
        : typeof value === 'boolean'
          ? +value
          : value instanceof Date
            ? DateUtils.mixedDateToUtcDatetimeString(value)
            : value,
    );
    return '?';
  };
  const text = sql.replace(/:(\.\.\.)?([A-Za-z0-9_.]+)/g, (full, list: string | undefined, name: string) => {
    if (!Object.hasOwn(named, name)) return full;
    const value = named[name];
    return list ? (value as unknown[]).map(bind).join(', ') : bind(value);
  });
  return [text, params];
}
