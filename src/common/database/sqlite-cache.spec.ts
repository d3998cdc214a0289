import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../database/data-source';
import { withBulkWriteCache } from './sqlite-cache';

describe("withBulkWriteCache: SQLite's page cache raised while bulk writes run", () => {
  const cache = async (ds: DataSource) => (await ds.query<Array<{ cache_size: number }>>('PRAGMA cache_size'))[0].cache_size;

  it('raises it to 64 MiB while any of them runs and puts SQLITE_CACHE_MB back after the last; a larger setting stays', async () => {
    const db = { type: 'sqlite' as const, path: ':memory:', cacheMb: 2 };
    const ds = await new DataSource(dataSourceOptions(db)).initialize();
    try {
      expect(await cache(ds)).toBe(-2048);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const long = withBulkWriteCache(ds, db, () => held);
      const seen = await withBulkWriteCache(ds, db, () => cache(ds));
      expect(seen).toBe(-65536);
      // The first import still runs: the cache stays raised.
      expect(await cache(ds)).toBe(-65536);
      release();
      await long;
      expect(await cache(ds)).toBe(-2048);
      // A failing import puts it back too.
      await expect(withBulkWriteCache(ds, db, () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
      expect(await cache(ds)).toBe(-2048);
      const large = { ...db, cacheMb: 256 };
      await ds.query('PRAGMA cache_size = -262144');
      expect(await withBulkWriteCache(ds, large, () => cache(ds))).toBe(-262144);
    } finally {
      await ds.destroy();
    }
  });

  it('on MariaDB runs the work alone', async () => {
    const query = jest.fn();
    const ds = { query } as unknown as DataSource;
    expect(await withBulkWriteCache(ds, { type: 'mysql', url: 'mysql://u@h/db' }, async () => 7)).toBe(7);
    expect(query).not.toHaveBeenCalled();
  });
});
