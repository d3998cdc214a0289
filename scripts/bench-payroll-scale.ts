/**
 * A payroll in chunks across worker processes (issue 70), run by hand on MariaDB + Redis:
 *
 *   DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench REDIS_URL=redis://127.0.0.1:6379/0 \
 *     npm run bench:payroll-scale [employees] [--workers 1,2] [--chunk 2000]
 *
 * (that database is emptied first!). Loads N employees (default 100 000) with salaries and payroll
 * employees and the 30 benchmark columns; then, for each worker count, starts that many workers as
 * `npm run worker` starts them (`node --max-old-space-size=256 dist/src/worker.js`, PAYROLL_CHUNK_SIZE
 * from --chunk), processes a new payroll of those employees through HTTP and polls until it ends.
 * Prints the seconds, the time per 100 000 employees, each worker's peak RSS (sampled from /proc
 * every 100 ms), the CPU seconds of the workers and the database, the database's statements and
 * bytes during the run (its global counters), the ratio of each run to the one-worker run, and
 * whether every run's cells are the same (count and sum). Targets: 100 000 × 30 with one worker
 * ≤ 60 s, with two ≤ 0.65× one; at 1 000 000 each worker ≤ 400 MiB.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, withBenchApp } from './bench-tools';
import { benchColumns, benchPayrollBody, loadPayrollDataset } from './bench-payroll-columns';
import { BenchWorker as Worker, cpuSeconds, databasePid } from './bench-workers';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const COUNT = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 100_000);
const WORKERS = option('--workers', '1,2').split(',').map(Number);
const CHUNK = option('--chunk', '2000');

/** MariaDB's counters of statements and bytes, for what a run asked of the database. */
const COUNTERS = ['Com_select', 'Com_insert', 'Com_update', 'Com_delete', 'Bytes_received', 'Bytes_sent', 'Innodb_data_written'];

async function serverStatus(ds: DataSource): Promise<Map<string, number>> {
  const rows = await ds.query<Array<{ Variable_name: string; Value: string }>>(
    `SHOW GLOBAL STATUS WHERE Variable_name IN (${COUNTERS.map(() => '?').join(', ')})`,
    COUNTERS,
  );
  return new Map(rows.map((r) => [r.Variable_name, Number(r.Value)]));
}

function statusDelta(before: Map<string, number>, after: Map<string, number>): string {
  const size = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(0)} kB`);
  return COUNTERS.map((name) => {
    const d = (after.get(name) ?? 0) - (before.get(name) ?? 0);
    return `${name.replace(/^Innodb_|^Com_/, '')} ${/Bytes|data_written/.test(name) ? size(d) : d.toLocaleString('en-US')}`;
  }).join(', ');
}

async function main(): Promise<void> {
  const prefix = `bench-scale-${Date.now()}`;
  await withBenchApp(
    'payroll-scale',
    { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: prefix, QUEUE_CONSUMER: 'false' },
    async (app, config) => {
      if (config.database.type !== 'mysql' || !config.redisUrl) throw new Error('needs DATABASE_URL=mysql://… and REDIS_URL');
      const ds = app.get(DataSource);
      const department = await app.get(ReferenceService).addDepartment('Bench', null);
      const t0 = Date.now();
      await loadPayrollDataset(app, department, COUNT, 'S');
      console.log(
        `MariaDB + Redis: loaded ${COUNT.toLocaleString('en-US')} employees with salaries in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
      const call = await adminCaller(app);
      const columns = benchColumns().map((c) => c.id);
      const results: Array<{ workers: number; seconds: number; peaks: number[]; cells: string }> = [];
      for (const n of WORKERS) {
        const workers = Array.from(
          { length: n },
          () =>
            new Worker({
              DATABASE_URL: process.env.DATABASE_URL as string,
              REDIS_URL: config.redisUrl as string,
              QUEUE_PREFIX: prefix,
              PAYROLL_CHUNK_SIZE: CHUNK,
              LOG_LEVEL: 'info',
              WORKER_METRICS_PORT: 'off',
            }),
        );
        try {
          await Promise.all(workers.map((w) => w.started()));
          const payroll = (await call('POST', '/payroll_config/payrolls', benchPayrollBody(`Scale ${n}`, department))).json<{
            data: { id: number };
          }>().data.id;
          const db = databasePid();
          const status = await serverStatus(ds);
          const before = { workers: workers.map((w) => cpuSeconds(w.proc.pid)), db: cpuSeconds(db), api: process.cpuUsage() };
          const start = process.hrtime.bigint();
          const res = await call('POST', `/payroll_config/payrolls/${payroll}/process`);
          if (res.statusCode !== 200) throw new Error(res.body);
          let run = { status: 'Processing', error: null as string | null };
          while (run.status === 'Processing') {
            await new Promise((r) => setTimeout(r, 100));
            run = (await call('GET', `/payroll_config/payrolls/${payroll}`)).json<{ data: typeof run }>().data;
          }
          const seconds = Number(process.hrtime.bigint() - start) / 1e9;
          const workerCpu = workers.map((w, k) => cpuSeconds(w.proc.pid) - before.workers[k]);
          const dbCpu = cpuSeconds(db) - before.db;
          const api = process.cpuUsage(before.api);
          if (run.status !== 'Processed') throw new Error(`payroll ${payroll} ${run.status}: ${run.error}`);
          const [sum] = await ds.query<Array<{ n: string; total: string }>>(
            'SELECT COUNT(*) AS n, SUM(c.value) AS total FROM payroll_cells c JOIN payrolls p ON p.id = c.payroll_id AND p.cells_revision = c.revision WHERE c.payroll_id = ?',
            [payroll],
          );
          results.push({ workers: n, seconds, peaks: workers.map((w) => w.peakMiB), cells: `${sum.n} cells, sum ${sum.total}` });
          console.log(
            `${n} worker(s), chunks of ${CHUNK}: ${COUNT.toLocaleString('en-US')} × ${columns.length} Processed in ${seconds.toFixed(1)} s ` +
              `(${((seconds * 100_000) / COUNT).toFixed(1)} s per 100 000 employees); peak RSS per worker ${workers.map((w) => `${w.peakMiB} MiB`).join(', ')}`,
          );
          console.log(
            `  CPU seconds: workers ${workerCpu.map((c) => c.toFixed(1)).join(' + ')}, database ${db ? dbCpu.toFixed(1) : 'not on this machine'}, ` +
              `this process (the API) ${((api.user + api.system) / 1e6).toFixed(1)}`,
          );
          console.log(
            `  the database's work (its global counters, whatever else it served meanwhile): ${statusDelta(status, await serverStatus(ds))}`,
          );
        } finally {
          await Promise.all(workers.map((w) => w.stop()));
        }
      }
      const one = results.find((r) => r.workers === 1);
      for (const r of results)
        if (one && r !== one) console.log(`${r.workers} workers / 1 worker: ${(r.seconds / one.seconds).toFixed(2)}× the time`);
      console.log(`cells of every run the same: ${new Set(results.map((r) => r.cells)).size === 1} (${results[0]?.cells})`);
    },
  );
}

void main();
