import { describeIf, LONG, NEEDS_LONG } from './helpers/skip';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { undoMigrationsFrom } from './helpers/migrations';
import { seedDemo } from '../src/database/seeds/demo.seed';
import { createTestApp, INTEGRATION, okCaller, testConfig } from './helpers/test-app';

/**
 * Migration 033 moves the company into employment history (issue 43): every employee gets one
 * change and one segment from its joined date holding today's dated fields and salary, so that
 * an as-of read of any day since it joined answers what the plain read answers.
 */
describeIf(LONG, NEEDS_LONG)('EmploymentHistory migration on the demo data (issue 43)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hr-history-migration-'));
  const overrides: Record<string, string> = INTEGRATION ? {} : { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives each employee one segment from its joined date with today’s values and salary', async () => {
    const first = await createTestApp(overrides);
    const { accessToken } = await seedDemo(first.app);
    await first.close();

    const ds = await new DataSource(dataSourceOptions(testConfig(overrides).database)).initialize();
    const undone = await undoMigrationsFrom(ds, 'EmploymentHistory1763800000033');
    expect(await runMigrations(ds)).toEqual(undone);
    const employees: Array<{ id: number; joined_date: string }> = await ds.query(
      'SELECT id, joined_date FROM employees ORDER BY id',
    );
    const changes: Array<{ employee_id: number; reason: string; status: string }> = await ds.query(
      'SELECT employee_id, reason, status FROM employment_changes ORDER BY employee_id',
    );
    await ds.destroy();
    expect(employees.length).toBeGreaterThan(20);
    expect(changes.map((c) => [Number(c.employee_id), c.reason, c.status])).toEqual(
      employees.map((e) => [Number(e.id), 'Moved in', 'Effective']),
    );

    const second = await createTestApp(overrides, { keepDatabase: true });
    try {
      const ok = okCaller(second.app);
      const today = new Date().toISOString().slice(0, 10);
      let salaries = 0;
      for (const e of employees) {
        const joined = String(e.joined_date).slice(0, 10);
        const now = await ok('GET', `/employees/${e.id}`, accessToken);
        // The status is the day's: the demo's leavers were Active the day they joined.
        const status = now.termination_date && now.termination_date <= joined ? 'Terminated' : 'Active';
        if (joined <= today)
          expect(await ok('GET', `/employees/${e.id}?as_of=${joined}`, accessToken)).toEqual({ ...now, status });
        const history = await ok('GET', `/employees/${e.id}/history`, accessToken);
        expect(history).toEqual([
          {
            effective_from: joined,
            effective_to: null,
            job_title: now.job_title,
            department: now.department,
            pay_grade: now.pay_grade,
            employment_status: now.employment_status,
            supervisor: now.supervisor,
            approver1: now.approver1,
            approver2: now.approver2,
            approver3: now.approver3,
            calendar: null, // the default calendar (none set)
            custom_fields: {}, // no dated custom field before the migration
            salary: expect.any(Array),
            change: expect.any(Number),
          },
        ]);
        const salary = await ok('GET', `/employees/${e.id}/salary`, accessToken);
        expect(await ok('GET', `/employees/${e.id}/salary?as_of=${joined}`, accessToken)).toEqual(salary);
        salaries += salary.length;
      }
      expect(salaries).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  }, 120_000); // the whole demo (PDFs included), migrations undone and redone, three reads per employee
});
