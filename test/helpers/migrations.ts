import { DataSource } from 'typeorm';
import { MIGRATIONS } from '../../src/database/migrations';

const names = () => MIGRATIONS.map((m) => new m().name);

/**
 * Undoes every migration after `name` (a migration's name, e.g. 'PayrollTables1763800000038'), so
 * that a test sees the schema as it was with `name` the last one; returns the names undone, oldest
 * first (what running the migrations applies again). A new migration needs no edit of the tests
 * that go back in time.
 */
export async function undoMigrationsAfter(ds: DataSource, name: string): Promise<string[]> {
  const all = names();
  const index = all.indexOf(name);
  if (index < 0) throw new Error(`no migration named ${name}`);
  for (let i = all.length - 1; i > index; i--) await ds.undoLastMigration();
  return all.slice(index + 1);
}
