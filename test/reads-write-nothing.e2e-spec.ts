import { describeIf, NEEDS_SQLITE } from './helpers/skip';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createDemoApp } from './helpers/demo-app';
import { discoverRoutes } from './helpers/routes';
import { bearer, INTEGRATION, TestApp } from './helpers/test-app';

/**
 * No GET route writes (issue 26): on the demo company, every GET route the application has is
 * called as an Admin, with the ids of existing records, and every table is compared before and
 * after. (A payroll past its timeout used to be failed by the payroll list and read; that is the
 * scheduled recovery's work now.) On SQLite: the tables are listed from sqlite_master; the routes'
 * code is the same on MariaDB.
 */
describeIf(!INTEGRATION, NEEDS_SQLITE)('reads write nothing', () => {
  let t: TestApp;
  let ds: DataSource;
  let admin: Record<string, string>;
  beforeAll(async () => {
    // The webhook dispatcher's timer would move outbox rows while the routes are called.
    const demo = await createDemoApp({ OUTBOX_RELAY_MS: '600000' });
    t = demo;
    ds = t.app.get(DataSource);
    admin = bearer(demo.demo.accessToken);
    // The whole demo, its payslip PDFs rendered in Chromium: past 30 s beside other suites on CI.
  }, 120_000);
  afterAll(() => t.close());

  /**
   * Every table's rows, hashed; but the audit entries of document downloads (a payslip's PDF
   * included), the one thing a GET writes on purpose (who read whose passport), the audit log's
   * sequence they advance, and the leave liability's cache.
   */
  const RECORDED_READS: Record<string, string> = {
    audit_log: `WHERE action <> 'download'`,
    sqlite_sequence: `WHERE name <> 'audit_log'`,
    // The leave liability's tables (issue 49) are a cache of balances, kept by the insight that
    // reads them: derived from the ledger and the facts, never a record of anything.
    leave_liability_balances: 'WHERE 1 = 0',
    leave_liability_days: 'WHERE 1 = 0',
  };
  const checksums = async (): Promise<Record<string, string>> => {
    const tables = await ds.query<Array<{ name: string }>>(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`);
    const out: Record<string, string> = {};
    for (const { name } of tables) {
      const rows: unknown[] = await ds.query(`SELECT * FROM "${name}" ${RECORDED_READS[name] ?? ''} ORDER BY 1`);
      out[name] = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    }
    return out;
  };

  it('every GET route, called as an Admin on existing records, leaves every table as it was', async () => {
    const first = async (url: string) =>
      (await t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: admin })).json().data[0].id as number;
    const ids: Record<string, number> = {
      employees: await first('/employees?limit=1'),
      payrolls: await first('/payroll_config/payrolls?limit=1'),
    };
    // A payroll past its timeout whose job is gone: what a read used to fail on its way.
    await ds.query(`UPDATE payrolls SET status = 'Processing', claim = NULL, processing_started_at = ? WHERE id = ?`, [
      new Date(Date.now() - 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' '),
      ids.payrolls,
    ]);
    // SCIM's GETs take a SCIM token, whose use is marked (last_used_at, once a minute): the SCIM e2e covers them.
    const routes = discoverRoutes(t.app).filter((r) => r.method === 'GET' && !r.path.startsWith('/scim/v2/'));
    expect(routes.length).toBeGreaterThan(90);
    const before = await checksums();
    const statuses = new Map<number, number>();
    for (const route of routes) {
      const kind = /^\/(employees|payroll_config\/payrolls)\//.exec(route.path)?.[1].split('/').pop() ?? '';
      const url = route.path.replace(/:(\w+)/g, (_, p: string) => String(p === 'id' ? (ids[kind] ?? 1) : 1));
      const res = await t.app.inject({ method: 'GET', url: `/app/api${url.replace(/^\/app\/api/, '')}`, headers: admin });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      expect([route.key, res.statusCode < 500]).toEqual([route.key, true]);
    }
    // Most answer 200; a route that is gone (410, pointing at its successor) is left out of the count.
    expect(statuses.get(200)).toBeGreaterThan((routes.length - (statuses.get(410) ?? 0)) * 0.8);
    expect(await checksums()).toEqual(before);
    // What was recorded are downloads of documents (a payslip's PDF is one), nothing else.
    const downloads = await ds.query<Array<{ resource: string }>>(
      `SELECT DISTINCT resource FROM audit_log WHERE action = 'download'`,
    );
    expect(downloads.filter((d) => d.resource !== 'employees/documents')).toEqual([]);

    // And every GET of a Completed payroll (its books: what the old bank-file GET wrote on).
    await ds.query(`UPDATE payrolls SET status = 'Completed', claim = NULL, completed_at = ? WHERE id = ?`, [
      new Date().toISOString().slice(0, 19).replace('T', ' '),
      ids.payrolls,
    ]);
    const completedBefore = await checksums();
    const [{ top }] = await ds.query<Array<{ top: number | null }>>('SELECT MAX(id) AS top FROM audit_log');
    const payrollRoutes = routes.filter((r) => r.path.startsWith('/payroll_config/payrolls/:id'));
    expect(payrollRoutes.length).toBeGreaterThan(10);
    for (const route of payrollRoutes) {
      const url = route.path.replace(/:(\w+)/g, (_, p: string) => String(p === 'id' ? ids.payrolls : 1));
      const res = await t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: admin });
      expect([route.key, res.statusCode < 500]).toEqual([route.key, true]);
    }
    // Its exports (the journal, the register) are recorded as reads of the books, like a document's download; nothing else.
    const recorded = await ds.query<Array<{ action: string; resource: string }>>(
      `SELECT DISTINCT action, resource FROM audit_log WHERE id > ? AND action <> 'download'`,
      [Number(top ?? 0)],
    );
    expect(recorded.filter((r) => r.action !== 'export')).toEqual([]);
    const { audit_log: _audit, ...completedTables } = completedBefore;
    const { audit_log: _after, ...afterTables } = await checksums();
    expect(afterTables).toEqual(completedTables);
  });
});
