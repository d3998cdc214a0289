import BetterSqlite3 from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { optimizeSqlite } from '../common/database/sqlite-statistics';
import { dirname } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseConfig, SQLITE_CACHE_MB } from '../config/config';
import { MIGRATIONS } from './migrations';

/** Connection options for DATABASE_URL: better-sqlite3 (WAL) or mysql2 for MySQL/MariaDB. */
export function dataSourceOptions(db: DatabaseConfig): DataSourceOptions {
  const common = { synchronize: false, migrationsRun: false, migrations: MIGRATIONS, logging: false } as const;
  if (db.type === 'sqlite') {
    if (db.path !== ':memory:') mkdirSync(dirname(db.path), { recursive: true });
    const snapshot = db.path === ':memory:' ? db.snapshot : undefined;
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.path,
      // An in-memory database made from the snapshot's bytes (better-sqlite3 deserializes a Buffer).
      ...(snapshot
        ? {
            driver: function FromSnapshot() {
              return new BetterSqlite3(snapshot);
            },
          }
        : {}),
      prepareDatabase: (conn: { pragma(sql: string): unknown }) => {
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
        // Negative: KiB rather than pages.
        conn.pragma(`cache_size = ${-1024 * (db.cacheMb ?? SQLITE_CACHE_MB)}`);
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    url: db.url,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    supportBigNumbers: true,
    // DATE columns as 'YYYY-MM-DD' strings, never shifted through a JS Date and a time zone.
    dateStrings: ['DATE'],
    poolSize: 10,
    // A server that does not answer a new connection within 5 s counts as unavailable (503) rather
    // than holding the request for mysql2's default 10 s.
    connectTimeout: 5000,
    // mysql2's promise API otherwise captures a stack trace for every query (4 % of the CPU of
    // GET /employees/{id}); errors keep their code and message, and our own stack is in the log.
    trace: false,
  };
}

/**
 * Applies pending migrations. On MySQL/MariaDB a named lock keeps two processes starting at once
 * (API and worker) from running the same migration twice.
 */
export async function runMigrations(ds: DataSource): Promise<string[]> {
  if (ds.options.type !== 'mysql') {
    return (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    const [row] = (await runner.query("SELECT GET_LOCK('hr_migrations', 120) AS got")) as Array<{ got: number }>;
    if (Number(row?.got) !== 1) throw new Error('could not take the migration lock within 120 s');
    return (await ds.runMigrations({ transaction: 'each' })).map((m) => m.name);
  } finally {
    await runner.query("SELECT RELEASE_LOCK('hr_migrations')").catch(() => undefined);
    await runner.release();
  }
}

/**
 * At start, SQLite: analyzes when the database has no statistics yet or a migration was just
 * applied (new indexes), and says whether it did. Otherwise the statistics in the file serve, and
 * the `schedule:sqlite-statistics` job (MaintenanceService) refreshes them a minute after start and hourly: ANALYZE took 300 ms of a
 * 2.6 s cold start at 100 000 employees and a million other rows.
 */
export async function startupStatistics(ds: DataSource, appliedMigrations: string[]): Promise<boolean> {
  if (ds.options.type !== 'better-sqlite3') return false;
  const tables = await ds.query<unknown[]>("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_stat1'");
  if (!appliedMigrations.length && tables.length && (await ds.query<unknown[]>('SELECT 1 FROM sqlite_stat1 LIMIT 1')).length)
    return false;
  await optimizeSqlite(ds);
  return true;
}
