import { ObjectLiteral, Repository } from 'typeorm';

type Row = Record<string, unknown>;
/** Column types the binary protocol returns as doubles where the text protocol gives their printed value. */
const FLOATING_TYPES = new Set(['float', 'double', 'double precision', 'real']);
interface MysqlPool {
  execute(sql: string, params: unknown[], done: (err: Error | null, rows: Row[]) => void): void;
}
interface SqliteDatabase {
  prepare(sql: string): { get(...params: unknown[]): Row | undefined };
}

/**
 * The first row of `sql` with one parameter, straight through the driver that TypeORM opened: a
 * prepared statement of the mysql2 pool (each connection prepares it once and keeps it), or a
 * better-sqlite3 statement prepared once. TypeORM's manager.query would create and release a query
 * runner, broadcast before- and after-query events and wrap the driver in promises on every call
 * (with the mysql2 promise wrapper, 7 % of the CPU of GET /employees/{id} on MariaDB); the text
 * protocol also made MariaDB parse the statement for every read (60 µs of its CPU per read against
 * 40 µs prepared). The binary protocol hydrates every column type as the text protocol does (dates
 * as Date, decimals and big integers as strings: TypeORM's pool options) except floating-point
 * numbers, which byIdReader refuses. Errors are the driver's own (their codes decide 503 or 500, as
 * through TypeORM). Anything else (a replication pool) goes through manager.query.
 */
function firstRowReader(repo: Repository<ObjectLiteral>, sql: string): (id: number) => Promise<Row | undefined> {
  const driver = repo.manager.connection.driver as unknown as { pool?: MysqlPool; databaseConnection?: SqliteDatabase };
  const type = repo.manager.connection.options.type;
  if (type === 'mysql' && driver.pool) {
    const pool = driver.pool;
    return (id) =>
      new Promise((resolve, reject) => pool.execute(sql, [id], (err, rows) => (err ? reject(err) : resolve(rows[0]))));
  }
  if (type === 'better-sqlite3' && driver.databaseConnection) {
    const statement = driver.databaseConnection.prepare(sql);
    return (id) => {
      try {
        return Promise.resolve(statement.get(id));
      } catch (err) {
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    };
  }
  return async (id) => (await repo.manager.query<Row[]>(sql, [id]))[0];
}

/**
 * Reads one entity by its primary key with SQL built once. TypeORM's findOne builds the query
 * (aliases, escaping, find options) and hydrates through its generic result transformer on every
 * call: a quarter of the CPU of GET /employees/{id}. Values go through the driver's hydration
 * (column types, transformers) as findOne's do. For entities of plain columns (no relations,
 * embedded or virtual columns, load listeners, floating-point columns); anything else is refused
 * when the reader is made.
 */
export function byIdReader<E extends ObjectLiteral>(repo: Repository<E>): (id: number) => Promise<E | null> {
  let prepared: { read: (id: number) => Promise<Row | undefined>; hydrate: (row: Row) => E } | null = null;
  // Built at the first read: the metadata is complete once the data source is initialized.
  const prepare = () => {
    const meta = repo.metadata;
    const driver = repo.manager.connection.driver;
    if (
      meta.primaryColumns.length !== 1 ||
      meta.relations.length ||
      meta.embeddeds.length ||
      meta.afterLoadListeners.length ||
      meta.columns.some((c) => FLOATING_TYPES.has(String(c.type).toLowerCase()))
    ) {
      throw new Error(`byIdReader: ${meta.name} is not an entity of plain columns with one primary key`);
    }
    const columns = meta.columns.filter((c) => !c.isVirtual);
    const select = columns.map((c) => driver.escape(c.databaseName)).join(', ');
    const sql = `SELECT ${select} FROM ${driver.escape(meta.tableName)} WHERE ${driver.escape(meta.primaryColumns[0].databaseName)} = ?`;
    return {
      read: firstRowReader(repo, sql),
      hydrate: (row: Row) => {
        const entity = repo.create();
        for (const c of columns) c.setEntityValue(entity, driver.prepareHydratedValue(row[c.databaseName], c));
        return entity;
      },
    };
  };
  return async (id) => {
    prepared ??= prepare();
    const row = await prepared.read(id);
    return row ? prepared.hydrate(row) : null;
  };
}
