import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/database/migrations';

/**
 * Undoes the migration `name` (e.g. 'ApprovalChains1763800000039') and every one after it, newest
 * first, so that a test sees the schema as it was before `name`; returns the names undone, oldest
 * first (what running the migrations applies again). A new migration needs no edit of the tests
 * that go back in time.
 */
export async function undoMigrationsFrom(ds: DataSource, name: string): Promise<string[]> {
  const all = MIGRATIONS.map((m) => new m().name);
  const index = all.indexOf(name);
  if (index < 0) throw new Error(`no migration named ${name}`);
  for (let i = all.length - 1; i >= index; i--) await ds.undoLastMigration();
  return all.slice(index);
}
