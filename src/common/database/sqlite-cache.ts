import { DataSource } from 'typeorm';
import { DatabaseConfig, SQLITE_CACHE_MB } from '../../config/config';

/** SQLite's page cache while bulk writes run (MiB), when SQLITE_CACHE_MB is smaller. */
export const BULK_WRITE_CACHE_MB = 64;

/** Bulk writes running now, per data source: the first raises the cache, the last puts it back. */
const running = new WeakMap<DataSource, number>();

/**
 * Runs `work` (an import's batches) with SQLite's page cache at BULK_WRITE_CACHE_MB at least, and
 * puts SQLITE_CACHE_MB back once no bulk write runs (the one connection's cache is every request's).
 * An import of 10 000 employees with 20 custom fields beside 100 000 others wrote its 200 000
 * values in 1.4 s instead of 2.1-2.5 (their indexes' pages read again and again), while the
 * filtered lists of those employees measured 5-15 % slower with 64 MiB kept all the time
 * (docs/performance.md, "Performance II"). MariaDB: `work` alone.
 */
export async function withBulkWriteCache<T>(ds: DataSource, db: DatabaseConfig, work: () => Promise<T>): Promise<T> {
  const usual = db.type === 'sqlite' ? (db.cacheMb ?? SQLITE_CACHE_MB) : null;
  if (usual === null || usual >= BULK_WRITE_CACHE_MB) return work();
  const before = running.get(ds) ?? 0;
  running.set(ds, before + 1);
  if (before === 0) await ds.query(`PRAGMA cache_size = ${-1024 * BULK_WRITE_CACHE_MB}`);
  try {
    return await work();
  } finally {
    const left = (running.get(ds) ?? 1) - 1;
    running.set(ds, left);
    if (left === 0) await ds.query(`PRAGMA cache_size = ${-1024 * usual}`);
  }
}
