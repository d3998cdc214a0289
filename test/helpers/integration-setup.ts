import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { createDatabases, resetToMigrated, workerDatabaseUrl } from './mysql-baseline';
import { SOURCES_STAMP } from './sources-stamp';

/**
 * jest's globalSetup under `npm run test:integration`: makes and migrates every worker's database
 * before any suite starts, outside every hook's timeout. A worker's first app used to do it, in its
 * suite's beforeAll: 4.5 s idle, but beside the other steps of .ci/run it once took over 60 s and
 * failed the demo suite's hook (2026-12-06). The baselines it leaves (test/helpers/mysql-baseline.ts)
 * are found by the workers through HR_TEST_RUN_OWNER, which they inherit.
 */
export default async function integrationSetup(globalConfig: { maxWorkers: number }): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (process.env.HR_TEST_INTEGRATION !== '1' || !base?.startsWith('mysql')) return;
  process.env.HR_TEST_RUN_OWNER ??= String(process.pid);
  const workers = Array.from({ length: Math.max(1, globalConfig.maxWorkers) }, (_, i) => workerDatabaseUrl(base, i + 1));
  await createDatabases(base, workers);
  await Promise.all(
    workers.map(async (url) => {
      const ds = await new DataSource(dataSourceOptions({ type: 'mysql', url })).initialize();
      try {
        await resetToMigrated(ds, SOURCES_STAMP);
      } finally {
        await ds.destroy();
      }
    }),
  );
}
