import { describeIf, NEEDS_SQLITE } from './helpers/skip';
import { DataSource } from 'typeorm';
import { optimizeSqlite } from '../src/common/database/sqlite-statistics';
import { startupStatistics } from '../src/database/data-source';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { createTestApp, INTEGRATION, TestApp } from './helpers/test-app';

/** SQLite only: the planner gets statistics, and filtered + sorted lists an index in their order. */
describeIf(!INTEGRATION, NEEDS_SQLITE)('SQLite planner statistics', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('optimizeSqlite analyzes the tables; filtered and sorted lists then read an index in order', async () => {
    const ds = t.app.get(DataSource);
    const reference = t.app.get(ReferenceService);
    const departments: number[] = [];
    for (let i = 0; i < 20; i++) departments.push(await reference.addDepartment(`Planner ${i}`, null));
    await bulkEmployees(ds, 5000, departments, 'P');
    const plan = async (order: string) =>
      (
        await ds.query<Array<{ detail: string }>>(
          `EXPLAIN QUERY PLAN SELECT e.id FROM employees e WHERE e.status IN ('Active') AND e.department_id IN (?, ?) ORDER BY ${order} LIMIT 50`,
          departments.slice(0, 2),
        )
      )
        .map((r) => r.detail)
        .join('; ');
    await ds.query('DELETE FROM sqlite_stat1').catch(() => undefined); // as a database that was never analyzed
    await optimizeSqlite(ds);
    expect((await ds.query<unknown[]>("SELECT 1 FROM sqlite_stat1 WHERE tbl = 'employees'")).length).toBeGreaterThan(0);
    // No sort of every match: (status, last_name, id), (status, joined_date, id) or the department's index.
    for (const order of [
      'e.last_name, e.id',
      'e.joined_date DESC, e.id DESC',
      'e.employee_id, e.id',
      'e.employee_id DESC, e.id DESC',
    ]) {
      const p = await plan(order);
      expect(p).toMatch(/ix_employees_(status|department_id)_/);
      expect(p).not.toContain('TEMP B-TREE');
    }
  });

  it('at start, analyzes only a database without statistics or with a migration just applied', async () => {
    const ds = t.app.get(DataSource);
    await optimizeSqlite(ds);
    expect(await startupStatistics(ds, [])).toBe(false);
    expect(await startupStatistics(ds, ['1763800000018-Webhooks'])).toBe(true);
    await ds.query('DELETE FROM sqlite_stat1');
    expect(await startupStatistics(ds, [])).toBe(true);
    expect((await ds.query<unknown[]>('SELECT 1 FROM sqlite_stat1')).length).toBeGreaterThan(0);
  });
});
