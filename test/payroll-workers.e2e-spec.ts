import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ReferenceService } from '../src/reference/reference.service';
import { benchColumns, benchPayrollBody, loadPayrollDataset } from '../scripts/bench-payroll-columns';
import { buildCompany } from './helpers/company';
import { DIST, WorkerProcess } from './helpers/node-process';
import { INTEGRATION, TestApp, apiCaller, createTestApp, sleep, until } from './helpers/test-app';

const WORKER = join(DIST, 'worker.js');

/** Payrolls each cell of whose run is counted; `payroll N Processed` lines across workers. */
const processedLines = (workers: WorkerProcess[], id: number) =>
  workers.flatMap((w) => w.messages()).filter((m) => m.startsWith(`payroll ${id} Processed`)).length;

/**
 * Real worker processes (the built `dist/src/worker.js`) on MariaDB + Redis: a worker killed with
 * SIGKILL in the middle of writing a run, two workers sharing twenty runs, the queue dashboard.
 * `npm run test:integration` builds first.
 */
describeIf(INTEGRATION, NEEDS_SERVERS)('payroll runs with worker processes (MariaDB + Redis)', () => {
  let api: TestApp;
  let ds: DataSource;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let workerEnv: Record<string, string>;
  const workers: WorkerProcess[] = [];
  const columns = benchColumns().map((c) => c.id);

  beforeAll(async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: npm run build`);
    const prefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:workers-${randomUUID().slice(0, 8)}`;
    api = await createTestApp({ QUEUE_CONSUMER: 'false', QUEUE_PREFIX: prefix });
    if (api.config.database.type !== 'mysql' || !api.config.redisUrl)
      throw new Error('needs DATABASE_URL=mysql:// and REDIS_URL');
    ds = api.app.get(DataSource);
    call = apiCaller(api.app);
    admin = (await buildCompany(api.app)).users.admin.token;
    workerEnv = {
      DATABASE_URL: api.config.database.url,
      REDIS_URL: api.config.redisUrl,
      QUEUE_PREFIX: prefix,
      // A dead worker's lock expires after 2 s; a live consumer looks for such jobs every second.
      QUEUE_LOCK_MS: '2000',
      QUEUE_STALLED_CHECK_MS: '1000',
    };
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) if (w.proc.exitCode === null && w.proc.signalCode === null) await w.kill('SIGKILL');
    await api.close();
  });

  const start = async (env: Record<string, string> = {}) => {
    const w = new WorkerProcess({ ...workerEnv, ...env });
    workers.push(w);
    await w.ready();
    return w;
  };
  const createPayroll = async (department: number, name: string): Promise<number> => {
    const res = await call('POST', '/payroll_config/payrolls', admin, benchPayrollBody(name, department));
    expect(res.statusCode).toBe(200);
    return res.json().data.id;
  };
  const selected = async (id: number): Promise<number> =>
    (await call('GET', `/payroll_config/payrolls/${id}/employees?limit=1`, admin)).json().total;
  const row = async (id: number) =>
    (
      await ds.query<Array<{ status: string; progress: number; claim: string }>>(
        'SELECT status, progress, claim FROM payrolls WHERE id = ?',
        [id],
      )
    )[0];
  const cellCount = async (id: number) =>
    Number(
      (await ds.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM payroll_cells WHERE payroll_id = ?', [id]))[0].n,
    );

  /** The cells the payroll shows (those of its cells_revision). */
  const currentCells = async (id: number) =>
    Number(
      (
        await ds.query<Array<{ n: number | string }>>(
          'SELECT COUNT(*) AS n FROM payroll_cells c JOIN payrolls p ON p.id = c.payroll_id AND p.cells_revision = c.revision WHERE c.payroll_id = ?',
          [id],
        )
      )[0].n,
    );

  it('a worker killed while it writes a run: another worker takes the stalled chunks up; Processed once, each cell once', async () => {
    const department = await api.app.get(ReferenceService).addDepartment('Kill', null);
    await loadPayrollDataset(api.app, department, 5000, 'XK');
    const payroll = await createPayroll(department, 'Killed mid-run');
    const employees = await selected(payroll);
    expect(employees).toBe(4285); // the Active ones
    const first = await start({ QUEUE_DASHBOARD_PORT: '0' });

    // The queue dashboard of that worker, on loopback only (logged just after the worker is ready).
    await first.logged('queue dashboard');
    const dashboardLine = first.lines.find((l) => l.includes('"queue dashboard"')) ?? '';
    const dashboard = (JSON.parse(dashboardLine) as { url: string }).url;
    expect(dashboard).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/queues$/);
    const queues = (await (await fetch(`${dashboard}/api/queues`)).json()) as { queues: Array<{ name: string }> };
    expect(queues.queues.map((q) => q.name).sort()).toEqual(['documents', 'imports', 'mail', 'payroll', 'schedule', 'webhooks']);

    expect((await call('POST', `/payroll_config/payrolls/${payroll}/process`, admin)).statusCode).toBe(200);
    // Three chunks of 2 000 employees (issue 70): killed once the first is written, the others running.
    await until(async () => (await row(payroll)).progress > 0, 60_000);
    expect(await first.kill('SIGKILL')).toBeNull();
    const killed = await row(payroll);
    expect(killed).toMatchObject({ status: 'Processing', claim: expect.stringMatching(/^[0-9a-f-]{36}$/) }); // killed mid-run
    expect(await currentCells(payroll)).toBe(0); // the written chunk's cells are not the payroll's yet

    const second = await start();
    await until(async () => (await row(payroll)).status !== 'Processing', 60_000);
    expect(await row(payroll)).toEqual({ status: 'Processed', progress: 100, claim: killed.claim }); // the same claim's jobs
    expect(await currentCells(payroll)).toBe(employees * columns.length);
    await until(async () => (await cellCount(payroll)) === employees * columns.length, 10_000); // and nothing else
    await sleep(1500); // a second stalled-job check: no further run
    expect(processedLines([first, second], payroll)).toBe(1);
    expect(await second.kill('SIGTERM')).toBe(0);
  }, 180_000);

  it('two workers and twenty payrolls started at once: each processed exactly once, each cell once', async () => {
    const department = await api.app.get(ReferenceService).addDepartment('Twenty', null);
    await loadPayrollDataset(api.app, department, 300, 'XT');
    const pair = [await start(), await start()];
    const payrolls = await Promise.all(Array.from({ length: 20 }, (_, i) => createPayroll(department, `Run ${i + 1}`)));
    const employees = await selected(payrolls[0]);
    const started = await Promise.all(payrolls.map((id) => call('POST', `/payroll_config/payrolls/${id}/process`, admin)));
    expect(started.map((r) => r.statusCode)).toEqual(payrolls.map(() => 200));
    await until(async () => {
      const rows = await Promise.all(payrolls.map(row));
      return rows.every((r) => r.status !== 'Processing');
    }, 120_000);
    await sleep(1500);
    for (const id of payrolls) {
      expect({ id, ...(await row(id)), cells: await cellCount(id), runs: processedLines(pair, id) }).toEqual({
        id,
        status: 'Processed',
        progress: 100,
        claim: expect.stringMatching(/^[0-9a-f-]{36}$/),
        cells: employees * columns.length,
        runs: 1,
      });
    }
    // Both workers took part; neither serves a dashboard (off unless QUEUE_DASHBOARD_PORT is set).
    for (const w of pair) expect(w.messages()).not.toContain('queue dashboard');
    for (const w of pair) expect(payrolls.filter((id) => processedLines([w], id) === 1).length).toBeGreaterThan(0);
    expect(await Promise.all(pair.map((w) => w.kill('SIGTERM')))).toEqual([0, 0]);
  }, 180_000);
});
