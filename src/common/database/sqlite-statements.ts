import { DataSource } from 'typeorm';

interface Statement {
  reader: boolean;
}
interface Connection {
  prepare(sql: string): Statement;
}
type QueryRunnerProto = { getStmt(this: { connect(): Promise<Connection> }, query: string): Promise<Statement> };

/** Prepared statements kept per SQLite connection, shared by every TypeORM query runner on it. */
const SHARED = new WeakMap<Connection, Map<string, Statement>>();
const MAX_STATEMENTS = 1000;
let patched = false;

/**
 * TypeORM's better-sqlite3 query runner caches statements per query runner, and it makes a runner
 * per transaction and per `ds.query()`: nearly every statement was prepared afresh and dropped.
 * With better-sqlite3 13 on Node 24 the dropped statements are finalized in batches after a
 * garbage collection, on the event loop: 430 ms at once during a 6 000-row import (npm run
 * test:timing), and a prepare costs 2.5 times what it did with better-sqlite3 12 on Node 20. Here
 * the runners of one connection share one cache of the last MAX_STATEMENTS statements (least
 * recently used out). Safe because TypeORM runs a statement with all() or run() only (synchronous,
 * never an iterator held open) and changes nothing on it; SQLite re-prepares a statement itself
 * when the schema changed.
 */
export function shareSqliteStatements(ds: DataSource): void {
  if (patched || ds.options.type !== 'better-sqlite3') return;
  const runner = ds.createQueryRunner();
  const proto = Object.getPrototypeOf(runner) as QueryRunnerProto;
  void runner.release();
  proto.getStmt = async function getStmt(query: string): Promise<Statement> {
    const conn = await this.connect();
    let cache = SHARED.get(conn);
    if (!cache) SHARED.set(conn, (cache = new Map<string, Statement>()));
    let stmt = cache.get(query);
    if (stmt) cache.delete(query);
    else stmt = conn.prepare(query);
    cache.set(query, stmt);
    if (cache.size > MAX_STATEMENTS) cache.delete(cache.keys().next().value as string);
    return stmt;
  };
  patched = true;
}
