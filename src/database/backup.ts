import Database from 'better-sqlite3';
import { existsSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DatabaseConfig } from '../config/config';
import { MIGRATIONS } from './migrations';

/** A backup or restore refused, with what to do instead. */
export class BackupError extends Error {}

export const MARIADB_BACKUP_HELP =
  'DATABASE_URL is MariaDB/MySQL: back it up with its own tools while the service runs, e.g.\n' +
  '  mariadb-dump --single-transaction --routines --triggers --hex-blob -h HOST -u USER -p DATABASE > hr.sql\n' +
  'and restore with: mariadb -h HOST -u USER -p DATABASE < hr.sql (docs/operations.md, Backups)';

/** Pages copied per step: the copy yields to the event loop between steps (1 000 pages: 4 MiB). */
const PAGES_PER_STEP = 1000;

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  /** The last migration the copy has. */
  migration: string | null;
}

/**
 * A consistent copy of the SQLite database while the API serves writes (SQLite's online backup).
 * The copy reads one snapshot: a read transaction is held for its whole length (in WAL mode it
 * blocks no writer), so a write committed meanwhile never restarts it and is not in it. Written
 * beside FILE, checked (integrity_check) and then renamed to FILE: FILE is never half-written, and
 * an existing FILE is refused.
 */
export async function backupDatabase(db: DatabaseConfig, file: string): Promise<BackupResult> {
  const source = sqlitePath(db);
  const target = resolve(file);
  if (existsSync(target)) throw new BackupError(`${file} exists: name a new file`);
  if (!existsSync(dirname(target))) throw new BackupError(`the directory of ${file} does not exist`);
  const partial = `${target}.partial-${process.pid}`;
  const started = Date.now();
  const conn = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    conn.exec('BEGIN');
    conn.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    await conn.backup(partial, { progress: () => PAGES_PER_STEP });
    conn.exec('COMMIT');
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    conn.close();
  }
  try {
    const { migration } = inspect(partial);
    renameSync(partial, target);
    return { file: target, bytes: statSync(target).size, ms: Date.now() - started, migration };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

export interface RestoreResult {
  /** Where the database that was replaced now is (kept until removed by hand); null when there was none. */
  previous: string | null;
  migration: string | null;
  /** Migrations of this release the copy lacks: applied when the API next starts. */
  pending: string[];
}

/**
 * Puts a backup in the database's place. Refused while any process holds the database (an API, a
 * worker: it takes an exclusive lock with no wait), when the copy is not intact (integrity_check)
 * or when it has migrations this release does not know (a newer release's). The database it
 * replaces is checkpointed and kept beside it as <file>.before-restore-<time>.
 */
export async function restoreDatabase(db: DatabaseConfig, file: string, now = new Date()): Promise<RestoreResult> {
  const target = sqlitePath(db, false);
  const copy = resolve(file);
  if (!existsSync(copy)) throw new BackupError(`no file ${file}`);
  // The live database itself (by its name or a link to it) is no backup of it.
  if (existsSync(target) && realpathSync(copy) === realpathSync(target)) {
    throw new BackupError(`${file} is the database itself (${target}): restore a copy made by db:backup`);
  }
  const { migration, applied } = inspect(copy);
  const known = MIGRATIONS.map((m) => m.name);
  const unknown = applied.filter((m) => !known.includes(m));
  if (unknown.length)
    throw new BackupError(
      `${file} is from a newer release (migrations ${unknown.join(', ')} are unknown here): restore it with that release`,
    );
  const staged = `${target}.restore-${process.pid}`;
  let previous: string | null = null;
  if (existsSync(target)) {
    const lock = new Database(target, { fileMustExist: true, timeout: 0 });
    try {
      lock.pragma('locking_mode = EXCLUSIVE');
      lock.exec('BEGIN EXCLUSIVE');
      lock.exec('COMMIT');
      lock.pragma('wal_checkpoint(TRUNCATE)');
    } catch (err) {
      lock.close();
      if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY'))
        throw new BackupError('the database is in use (an API process or a worker holds it): stop them, then restore');
      throw err;
    }
    lock.close();
  }
  // The copy is staged whole before the database is touched: a copy that cannot be read leaves
  // the database where it was.
  try {
    const src = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      await src.backup(staged, { progress: () => PAGES_PER_STEP });
    } finally {
      src.close();
    }
  } catch (err) {
    rmSync(staged, { force: true });
    throw err;
  }
  if (existsSync(target)) {
    previous = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(target, previous);
  }
  try {
    // What the replaced database left beside its name would otherwise be read as the copy's.
    for (const extra of ['-wal', '-shm', '-journal']) rmSync(`${target}${extra}`, { force: true });
    renameSync(staged, target);
  } catch (err) {
    // Put the original back on any failure.
    if (previous && !existsSync(target)) renameSync(previous, target);
    rmSync(staged, { force: true });
    throw err;
  }
  return { previous, migration, pending: known.filter((m) => !applied.includes(m)) };
}

/** The database file DATABASE_URL names, refusing MariaDB (its own tools) and an in-memory database. */
function sqlitePath(db: DatabaseConfig, mustExist = true): string {
  if (db.type === 'mysql') throw new BackupError(MARIADB_BACKUP_HELP);
  if (db.path === ':memory:') throw new BackupError('DATABASE_URL is an in-memory database: there is nothing to copy');
  const path = resolve(db.path);
  if (mustExist && !existsSync(path)) throw new BackupError(`no database at ${db.path}`);
  return path;
}

/** A copy's integrity and migration level; throws when it is no intact database of this service. */
function inspect(file: string): { migration: string | null; applied: string[] } {
  let conn: Database.Database;
  try {
    conn = new Database(file, { readonly: true, fileMustExist: true });
  } catch (err) {
    throw new BackupError(`${file} cannot be opened as a SQLite database: ${(err as Error).message}`);
  }
  try {
    const check = conn.pragma('integrity_check', { simple: true }) as string;
    if (check !== 'ok') throw new BackupError(`${file} is damaged: ${check}`);
    const table = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get();
    if (!table) throw new BackupError(`${file} is not a database of this service (no migrations table)`);
    const applied = (conn.prepare('SELECT name FROM migrations ORDER BY timestamp').all() as Array<{ name: string }>).map(
      (r) => r.name,
    );
    return { migration: applied[applied.length - 1] ?? null, applied };
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError(`${file} is not a readable database: ${(err as Error).message}`);
  } finally {
    conn.close();
  }
}
