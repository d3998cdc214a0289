import { describeIf, LONG, NEEDS_LONG } from './helpers/skip';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { undoMigrationsFrom } from './helpers/migrations';
import { seedDemo } from '../src/database/seeds/demo.seed';
import { createTestApp, INTEGRATION, okCaller, testConfig } from './helpers/test-app';

type Summary = { leave_type: number; entitled: number; taken: number; pending: number; available: number };

/**
 * Migration 027 moves the demo company's leave into the ledger without changing a balance: every
 * employee's summary computed the old way (entitlement else the type's default; approved and
 * pending days of requests starting in the period) equals the summary the ledger answers.
 */
describeIf(LONG, NEEDS_LONG)('LeaveLedger migration on the demo data (issue 31)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hr-ledger-migration-'));
  const overrides: Record<string, string> = INTEGRATION ? {} : { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every summary of the current period', async () => {
    const first = await createTestApp(overrides);
    const { accessToken } = await seedDemo(first.app);
    await first.close();

    // Back to the schema before the ledger, with some entitlements beside the types' defaults.
    const ds = await new DataSource(dataSourceOptions(testConfig(overrides).database)).initialize();
    // The ledger's migration and those after it, undone newest first.
    const undone = await undoMigrationsFrom(ds, 'LeaveLedger1763800000027');
    expect(undone[0]).toBe('LeaveLedger1763800000027');
    const today = new Date().toISOString().slice(0, 10);
    const [period] = await ds.query(
      'SELECT id, date_start, date_end FROM leave_periods WHERE date_start <= ? AND date_end >= ?',
      [today, today],
    );
    const types: Array<{ id: number; default_days: number }> = await ds.query(
      'SELECT id, default_days FROM leave_types ORDER BY id',
    );
    // Those who have joined and not left before the period: the ledger owes next week's joiner (the demo's checklists)
    // and the alumni who left years ago (its privacy seed) nothing, where the entitlements before it showed the default
    // days of an employee whatever its dates.
    const employees: Array<{ id: number }> = await ds.query(
      'SELECT id FROM employees WHERE joined_date <= ? AND (termination_date IS NULL OR termination_date >= ?) ORDER BY id',
      [today, period.date_start],
    );
    for (const e of employees.filter((x) => Number(x.id) % 3 === 0))
      await ds.query('INSERT INTO leave_entitlements (employee_id, leave_type_id, leave_period_id, days) VALUES (?, ?, ?, ?)', [
        e.id,
        types[0].id,
        period.id,
        18 + (Number(e.id) % 5) * 2.5,
      ]);
    await ds.query('INSERT INTO leave_entitlements (employee_id, leave_type_id, leave_period_id, days) VALUES (?, ?, ?, ?)', [
      employees[1].id,
      types[1].id,
      period.id,
      4,
    ]);
    const old = new Map<number, Summary[]>();
    for (const e of employees) {
      const rows: Summary[] = [];
      for (const t of types) {
        const [x] = await ds.query(
          'SELECT days FROM leave_entitlements WHERE employee_id = ? AND leave_type_id = ? AND leave_period_id = ?',
          [e.id, t.id, period.id],
        );
        const sum = async (status: string) =>
          Number(
            (
              await ds.query(
                'SELECT COALESCE(SUM(days), 0) AS d FROM leave_requests WHERE employee_id = ? AND leave_type_id = ? AND status = ? AND date_start BETWEEN ? AND ?',
                [e.id, t.id, status, period.date_start, period.date_end],
              )
            )[0].d,
          );
        const entitled = Number(x?.days ?? t.default_days);
        const taken = await sum('Approved');
        rows.push({
          leave_type: Number(t.id),
          entitled,
          taken,
          pending: await sum('Pending'),
          available: Math.round((entitled - taken) * 100) / 100,
        });
      }
      old.set(Number(e.id), rows);
    }
    expect(await runMigrations(ds)).toEqual(undone);
    const [{ n }] = await ds.query("SELECT COUNT(*) AS n FROM leave_ledger WHERE kind = 'taken'");
    const [{ d }] = await ds.query("SELECT COUNT(*) AS d FROM leave_days WHERE status = 'Approved'");
    expect(Number(n)).toBe(Number(d));
    await ds.destroy();

    const second = await createTestApp(overrides, { keepDatabase: true });
    try {
      const ok = okCaller(second.app);
      let compared = 0;
      for (const e of employees) {
        const summary = await ok('GET', `/employees/${e.id}/leaves/summary`, accessToken);
        expect({ employee: e.id, types: summary.types.map(({ name: _, ...rest }: Summary & { name: string }) => rest) }).toEqual({
          employee: e.id,
          types: old.get(Number(e.id)),
        });
        compared += summary.types.length;
      }
      expect(compared).toBe(employees.length * 3);
    } finally {
      await second.close();
    }
  }, 180_000); // the demo twice (PDFs included) and migrations undone and redone
});
