import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import type { IsolationLevel } from 'typeorm/driver/types/IsolationLevel';
import { isDeadlock } from '../errors/db-errors';

/** The transaction a piece of code runs in: its data source, its entity manager, whether it is still open. */
interface TransactionContext {
  ds: DataSource;
  em: EntityManager | null;
  open: boolean;
}

const current = new AsyncLocalStorage<TransactionContext>();

/**
 * better-sqlite3 gives TypeORM one connection, and so one QueryRunner, for the whole process: two
 * transactions that overlap in time would nest as savepoints of one transaction (one request's
 * rollback undoing the other's writes). The gate runs SQLite transactions one at a time, and makes
 * statements from outside the open transaction wait until it ends instead of joining it.
 */
class SqliteGate {
  private tail: Promise<unknown> = Promise.resolve();
  owner: TransactionContext | null = null;
  ended: Promise<void> = Promise.resolve();

  constructor(
    private readonly runner: QueryRunner,
    connection: { pragma(sql: string): unknown } | undefined,
  ) {
    // Another connection's write lock is waited for here, on the event loop (busyWait), not by
    // SQLite's busy handler, which sleeps the whole process: with two connections in one process
    // the holder could never commit meanwhile.
    connection?.pragma('busy_timeout = 0');
    // The class's method, looked up at each call (so instrumentation of the prototype still sees it).
    const proto = Object.getPrototypeOf(runner) as { query: (...args: unknown[]) => Promise<unknown> };
    (runner as { query: unknown }).query = async (...args: unknown[]) => {
      await this.turn();
      // A transaction takes the write lock when it begins: one that read first and wrote after
      // another process's write (API_PROCESSES, a separate worker, on one file) failed with
      // SQLITE_BUSY_SNAPSHOT, which no wait cures (a 500); the other's write now waits for the commit.
      if (args[0] === 'BEGIN TRANSACTION') args[0] = 'BEGIN IMMEDIATE TRANSACTION';
      return busyWait(() => proto.query.apply(runner, args));
    };
  }

  /** Resolves when a statement of the calling code may run: at once inside the open transaction or when none is open. */
  async turn(): Promise<void> {
    while (this.owner && current.getStore() !== this.owner) await this.ended;
  }

  /** Whether a statement of the calling code must wait for the open transaction (checked without a promise). */
  mustWait(): boolean {
    return this.owner !== null && current.getStore() !== this.owner;
  }

  run<T>(ds: DataSource, work: (em: EntityManager) => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      // A TypeORM save() outside our transactions wraps itself in one; it runs no I/O but its own
      // statements, so it ends within a few ticks.
      while (this.runner.isTransactionActive) await new Promise((r) => setImmediate(r));
      const context: TransactionContext = { ds, em: null, open: true };
      let end = () => undefined as void;
      this.owner = context;
      this.ended = new Promise((r) => (end = r));
      try {
        return await current.run(context, () => ds.transaction((em) => ((context.em = em), work(em))));
      } finally {
        context.open = false;
        this.owner = null;
        end();
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}

const gates = new WeakMap<DataSource, SqliteGate>();

/** How long a statement waits for another connection's write lock (SQLite's busy_timeout was 5 s). */
export const SQLITE_BUSY_WAIT_MS = 5000;

/** Runs `statement` again while SQLite answers SQLITE_BUSY (another connection holds the write lock), pausing on the event loop, up to SQLITE_BUSY_WAIT_MS. */
async function busyWait<T>(statement: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_BUSY_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 50)) {
    try {
      return await statement();
    } catch (err) {
      const code = ((err as { driverError?: { code?: string } }).driverError ?? (err as { code?: string })).code;
      if (code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw err;
    }
    await new Promise((r) => setTimeout(r, pause));
  }
}

export interface TransactionOptions {
  /**
   * MySQL/MariaDB isolation level. 'READ COMMITTED' takes no gap locks, for bulk delete-and-insert
   * of one owner's rows (a payroll's cells) that must not lock the gaps other owners insert into.
   */
  isolation?: IsolationLevel;
  /**
   * MySQL/MariaDB: runs `work` again (from the start, in a new transaction) when the server chose
   * it as a deadlock victim, up to this many times. Only for work whose effects are all in the
   * database.
   */
  deadlockRetries?: number;
}

/**
 * For a write that replaces one owner's set of rows (an employee's salary, a user's departments, a
 * payroll's cells): READ COMMITTED, so that its DELETE locks the rows it deletes and no gap. In
 * REPEATABLE READ the DELETE of a new employee's empty set took a next-key lock on the gap where
 * its neighbours insert, and writes to different employees deadlocked. A deadlock victim runs
 * again. Same-owner writers serialize on a lock of the owner's row (withEmployeeLock), not a gap.
 */
export const SET_REPLACEMENT: TransactionOptions = { isolation: 'READ COMMITTED', deadlockRetries: 3 };

/**
 * For a check-then-write under an employee's lock whose every effect is in the database (a leave
 * request's creation, decision or cancellation): a deadlock victim runs again from the start,
 * instead of answering 409. Its locks (the employee's row, then the request's, the users a foreign
 * key names, the day rollups it shares with other employees) are not always taken in one order
 * across the concurrent writes of a busy company; the soak met one such deadlock in 6 000
 * requests (docs/ARCHITECTURE.md, "Transactions").
 */
export const RETRY_DEADLOCKS: TransactionOptions = { deadlockRetries: 3 };

/**
 * The one way to run a multi-statement write. On MySQL/MariaDB a plain transaction (callers take
 * the row locks they need, e.g. withEmployeeLock); on SQLite transactions are serialized (see
 * SqliteGate; options do not apply). Called inside another transaction of the same data source,
 * it joins that one.
 */
export async function transaction<T>(
  ds: DataSource,
  work: (em: EntityManager) => Promise<T>,
  options: TransactionOptions = {},
): Promise<T> {
  const outer = current.getStore();
  if (outer && outer.ds === ds && outer.open && outer.em) return work(outer.em);
  if (ds.options.type !== 'better-sqlite3') {
    for (let attempt = 0; ; attempt++) {
      const context: TransactionContext = { ds, em: null, open: true };
      const run = (em: EntityManager) => ((context.em = em), work(em));
      try {
        return await current
          .run(context, () => (options.isolation ? ds.transaction(options.isolation, run) : ds.transaction(run)))
          .finally(() => (context.open = false));
      } catch (err) {
        if (!isDeadlock(err) || attempt >= (options.deadlockRetries ?? 0)) throw err;
        await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * (attempt + 1)));
      }
    }
  }
  return sqliteGate(ds).run(ds, work);
}

/**
 * The SQLite data source's gate, made at its first use or, through this, at start (the database
 * module): from then on every statement through TypeORM waits for another connection's write lock
 * on the event loop. Nothing on other databases.
 */
export function sqliteGate(ds: DataSource): SqliteGate {
  let gate = gates.get(ds);
  if (!gate) {
    const connection = (ds.driver as unknown as { databaseConnection?: { pragma(sql: string): unknown } }).databaseConnection;
    gates.set(ds, (gate = new SqliteGate(ds.createQueryRunner(), connection)));
  }
  return gate;
}

/**
 * Runs `fn` as code outside any transaction (its statements go to the pool, not the caller's open
 * transaction): a long transaction's progress, visible to others before it commits. MySQL/MariaDB
 * only: on SQLite such a statement would wait for the very transaction that waits for it.
 */
export function outsideTransaction<T>(ds: DataSource, fn: () => Promise<T>): Promise<T> | null {
  if (ds.options.type !== 'mysql') return null;
  return current.exit(fn);
}

let savepoints = 0;

/**
 * Runs `work` inside the open transaction `em` under a savepoint: when it throws, its writes are
 * undone and the transaction goes on (one row of an import that breaks a rule); the error is
 * rethrown. Both databases take SAVEPOINT, ROLLBACK TO and RELEASE.
 */
export async function withSavepoint<T>(em: EntityManager, work: () => Promise<T>): Promise<T> {
  const name = `sp_${++savepoints}`;
  await em.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await em.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (err) {
    // After a deadlock MariaDB has rolled the whole transaction back: no savepoint left, the error stands.
    await em.query(`ROLLBACK TO SAVEPOINT ${name}`).then(
      () => em.query(`RELEASE SAVEPOINT ${name}`),
      () => undefined,
    );
    throw err;
  }
}

/**
 * The entity manager of the transaction of `ds` the calling code runs in, or null outside one. A
 * statement run straight through the driver's pool on MySQL/MariaDB would run on another
 * connection, where this transaction's own writes are not seen; inside one it goes through this.
 */
export function openTransaction(ds: DataSource): EntityManager | null {
  const context = current.getStore();
  return context && context.ds === ds && context.open ? context.em : null;
}

/**
 * SQLite: what a statement run straight through the driver (not through TypeORM's query runner)
 * must await first, so that it neither reads the writes of another caller's open transaction nor
 * runs inside it; null when it may run now (no transaction open, or the caller's own). Always null
 * on other databases, whose transactions have connections of their own.
 */
export function sqliteTurn(ds: DataSource): Promise<void> | null {
  const gate = gates.get(ds);
  return gate?.mustWait() ? gate.turn() : null;
}

/**
 * MariaDB/MySQL: refuses a connection whose character set is not utf8mb4, where CJK names and
 * emoji would fail or turn into '?'.
 */
export async function assertUtf8mb4(ds: DataSource): Promise<void> {
  if (ds.options.type !== 'mysql') return;
  const [row] = await ds.query<Array<Record<'client' | 'connection' | 'results', string | null>>>(
    'SELECT @@character_set_client AS client, @@character_set_connection AS connection, @@character_set_results AS results',
  );
  const wrong = Object.entries(row ?? {}).filter(([, v]) => v !== 'utf8mb4');
  if (wrong.length) {
    throw new Error(
      `The database connection must use utf8mb4 (${wrong.map(([k, v]) => `character_set_${k}=${v}`).join(', ')}): ` +
        'check DATABASE_URL for a charset parameter and the server settings',
    );
  }
}
