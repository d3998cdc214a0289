import { describeIf, LONG, NEEDS_LONG } from './helpers/skip';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { undoMigrationsFrom } from './helpers/migrations';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { buildCompany } from './helpers/company';
import { createTestApp, INTEGRATION, okCaller, testConfig } from './helpers/test-app';

/**
 * Migration 039 (issue 45): requests pending when chains arrive keep the single step they were
 * made under: any of the supervisor and approver1..3, the Admins when the employee has none.
 */
describeIf(LONG, NEEDS_LONG)('ApprovalChains migration (issue 45)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hr-approvals-migration-'));
  const overrides: Record<string, string> = INTEGRATION ? {} : { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives pending leave and submitted time entries one step that their approvers then decide', async () => {
    const first = await createTestApp(overrides);
    const c = await buildCompany(first.app);
    const ok = okCaller(first.app);
    const admin = c.users.admin.token;
    await ok('POST', '/leave-periods', admin, { name: 'Migration', date_start: '2031-01-01', date_end: '2031-12-31' });
    const type = (await ok('POST', '/leave-types', admin, { name: 'Migration leave', default_days: 20 })).id as number;
    const leave = (
      await ok('POST', '/leaves', c.users.employee.token, { leave_type: type, date_start: '2031-03-04', date_end: '2031-03-05' })
    ).id as number;
    const orphan = (
      await ok('POST', '/leaves', admin, {
        employee: c.emp.outsider,
        leave_type: type,
        date_start: '2031-03-04',
        date_end: '2031-03-04',
      })
    ).id as number;
    const entry = (await ok('POST', '/timesheets', c.users.employee.token, { date: '2031-03-06', start: '09:00', end: '10:00' }))
      .id as number;
    await ok('POST', `/timesheets/${entry}/submit`, c.users.employee.token);
    await first.close();

    const ds = await new DataSource(dataSourceOptions(testConfig(overrides).database)).initialize();
    // Back before 039: the chains made above go with their tables, then everything is applied again.
    const undone = await undoMigrationsFrom(ds, 'ApprovalChains1763800000039');
    expect(await runMigrations(ds)).toEqual(undone);
    const rows: Array<{ kind: string; request_id: number; steps: string; summary: string; status: string }> = await ds.query(
      'SELECT kind, request_id, steps, summary, status FROM approvals ORDER BY kind, request_id',
    );
    await ds.destroy();
    const step = (approvers: number[]) => ({
      mode: 'any',
      approvers,
      admins: !approvers.length,
      substitutions: [],
      escalated: [],
      opened_at: null,
    });
    expect(rows.map((r) => [r.kind, Number(r.request_id), r.status, JSON.parse(r.steps)])).toEqual([
      ['leave', leave, 'Pending', [step([c.emp.manager])]],
      ['leave', orphan, 'Pending', [step([])]],
      ['time', entry, 'Pending', [step([c.emp.manager])]],
    ]);
    expect(rows[0].summary).toBe('Migration leave 2031-03-04 to 2031-03-05 (2 days)');

    const second = await createTestApp(overrides, { keepDatabase: true });
    try {
      const again = okCaller(second.app);
      expect((await again('GET', '/approvals/pending', c.users.manager.token)).map((x: { id: number }) => x.id).sort()).toEqual(
        [leave, entry].sort(),
      );
      expect((await again('POST', `/leaves/${leave}/approve`, c.users.manager.token)).status).toBe('Approved');
      expect((await again('POST', `/timesheets/${entry}/approve`, c.users.manager.token)).status).toBe('Approved');
      // Nobody above the outsider: the Admins decide.
      expect((await again('GET', '/approvals/pending', admin)).map((x: { id: number }) => x.id)).toContain(orphan);
      expect((await again('POST', `/leaves/${orphan}/approve`, admin)).approval.steps[0].decisions[0].as_admin).toBe(false);
    } finally {
      await second.close();
    }
  });
});
