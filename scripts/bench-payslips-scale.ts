/**
 * Payslips in chunks across worker processes (issue 70), run by hand on MariaDB + Redis with Chromium:
 *
 *   DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench REDIS_URL=redis://127.0.0.1:6379/0 \
 *     npm run bench:payslips-scale [employees] [--workers 1,2] [--chunk 200]
 *
 * (that database is emptied first!). Loads N employees (default 1 000, every one Active) with the 30
 * benchmark columns and the payslip template of bench:payslips, processes the payroll, then for each
 * worker count starts that many workers as `npm run worker` starts them (PAYSLIP_CHUNK_SIZE from
 * --chunk, one browser each), generates the payslips through HTTP and polls until Completed; then
 * deletes them for the next count. Prints the seconds, PDFs per second, each worker's peak RSS and the
 * peak PSS of each worker with its browser, and each count's throughput against one worker's.
 * Targets: one worker's PDFs per second within 10 % of bench:payslips' figure (in process); two
 * workers ≥ 1.6× one.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ReferenceService } from '../src/reference/reference.service';
import { benchPayrollBody, loadPayrollDataset } from './bench-payroll-columns';
import { PAYSLIP_BENCH_TEMPLATE } from './bench-payslips-template';
import { adminCaller, pssMiB, withBenchApp } from './bench-tools';
import { BenchWorker, cpuSeconds, machineCpu } from './bench-workers';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const COUNT = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 1000);
const WORKERS = option('--workers', '1,2').split(',').map(Number);
const CHUNK = option('--chunk', '200');

async function main(): Promise<void> {
  const prefix = `bench-payslips-${Date.now()}`;
  await withBenchApp(
    'payslips-scale',
    { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: prefix, QUEUE_CONSUMER: 'false' },
    async (app, config) => {
      if (config.database.type !== 'mysql' || !config.redisUrl) throw new Error('needs DATABASE_URL=mysql://… and REDIS_URL');
      const department = await app.get(ReferenceService).addDepartment('Bench', null);
      await loadPayrollDataset(app, department, COUNT, 'P');
      await app.get(DataSource).query(`UPDATE employees SET status = 'Active'`);
      const call = await adminCaller(app);
      const ok = async <T>(method: 'GET' | 'POST', url: string, body?: object): Promise<T> => {
        const res = await call(method, url, body);
        if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        return res.json<{ data: T }>().data;
      };
      const template = await ok<{ id: number }>('POST', '/payroll_config/payslip-templates', {
        name: 'Bench',
        content: PAYSLIP_BENCH_TEMPLATE,
      });
      const payroll = (
        await ok<{ id: number }>('POST', '/payroll_config/payrolls', {
          ...benchPayrollBody('Payslips scale', department),
          payslip_template: template.id,
        })
      ).id;
      const env = {
        DATABASE_URL: process.env.DATABASE_URL as string,
        REDIS_URL: config.redisUrl,
        QUEUE_PREFIX: prefix,
        PAYSLIP_CHUNK_SIZE: CHUNK,
        LOG_LEVEL: 'info',
        WORKER_METRICS_PORT: 'off',
      };
      const until = async (state: string) => {
        let run = { status: state, error: null as string | null };
        while (run.status === state) {
          await new Promise((r) => setTimeout(r, 100));
          run = await ok<typeof run>('GET', `/payroll_config/payrolls/${payroll}`);
        }
        return run;
      };
      const results: Array<{ workers: number; seconds: number }> = [];
      for (const [round, n] of WORKERS.entries()) {
        const workers = Array.from({ length: n }, () => new BenchWorker(env));
        let peakPss = workers.map(() => 0);
        const sampler = setInterval(() => {
          peakPss = workers.map((w, k) => Math.max(peakPss[k], pssMiB(w.proc.pid ?? 0)));
        }, 200);
        try {
          await Promise.all(workers.map((w) => w.started()));
          if (round === 0) {
            await ok('POST', `/payroll_config/payrolls/${payroll}/process`);
            const processed = await until('Processing');
            if (processed.status !== 'Processed') throw new Error(`payroll ${processed.status}: ${processed.error}`);
          }
          const cpu0 = workers.map((w) => cpuSeconds(w.proc.pid));
          const machine0 = machineCpu();
          const start = process.hrtime.bigint();
          await ok('POST', `/payroll_config/payrolls/${payroll}/generate-payslips`);
          const run = await until('Completing');
          const seconds = Number(process.hrtime.bigint() - start) / 1e9;
          const machine = machineCpu();
          const busy = (machine.busy - machine0.busy) / (machine.total - machine0.total);
          if (run.status !== 'Completed') throw new Error(`payslips: ${run.status}: ${run.error}`);
          const [{ n: pdfs }] = await app
            .get(DataSource)
            .query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM payslips WHERE payroll_id = ? AND document_id IS NOT NULL', [
              payroll,
            ]);
          results.push({ workers: n, seconds });
          console.log(
            `${n} worker(s), chunks of ${CHUNK}: ${pdfs} payslips with their PDFs in ${seconds.toFixed(1)} s ` +
              `(${(Number(pdfs) / seconds).toFixed(1)} PDFs/s); CPU seconds per worker ${workers.map((w, k) => (cpuSeconds(w.proc.pid) - cpu0[k]).toFixed(1)).join(' + ')}; ` +
              `peak RSS per worker ${workers.map((w) => `${w.peakMiB} MiB`).join(', ')}, with its browser (PSS) ${peakPss.map((p) => `${Math.round(p)} MiB`).join(', ')}; ` +
              `the machine's CPUs ${Math.round(busy * 100)} % busy`,
          );
          await ok('POST', `/payroll_config/payrolls/${payroll}/delete-payslips`);
        } finally {
          clearInterval(sampler);
          await Promise.all(workers.map((w) => w.stop()));
        }
      }
      const one = results.find((r) => r.workers === 1);
      for (const r of results)
        if (one && r !== one) console.log(`${r.workers} workers: ${(one.seconds / r.seconds).toFixed(2)}× the throughput of one`);
    },
  );
}

void main();
