/**
 * A payroll processed end to end, run by hand: `npm run bench:payroll [employees] [--changed 0.2]` (SQLite file in a
 * temp dir), or with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!) and
 * REDIS_URL for Bull. Loads N employees (default 10 000) with salaries and payroll employees, the 30
 * benchmark columns, then POST .../process through HTTP (app.inject) and polls until Processed.
 * Prints seconds, cells written per second and the peak RSS. Target (issue 11): ≤ 5 s and ≤ 400 MB
 * on MariaDB for 10 000 × 30, growing linearly.
 */
import 'reflect-metadata';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, withBenchApp } from './bench-tools';
import { benchColumns, benchPayrollBody, loadPayrollDataset } from './bench-payroll-columns';

const args = process.argv.slice(2);
const COUNT = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '--changed') ?? 10_000);
/** `--changed 0.2`: that share of the employees has a raise from 22 January (issue 44: ≤ 1.3× the run without). */
const CHANGED = process.argv.includes('--changed') ? Number(process.argv[process.argv.indexOf('--changed') + 1]) : 0;

async function main(): Promise<void> {
  await withBenchApp('payroll', { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: `bench${Date.now()}` }, async (app, config) => {
    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    try {
      const department = await app.get(ReferenceService).addDepartment('Bench', null);
      const t0 = Date.now();
      await loadPayrollDataset(app, department, COUNT, 'B', CHANGED);
      console.log(
        `${config.database.type}${config.redisUrl ? ' + Bull' : ''}: loaded ${COUNT} employees with salaries ` +
          `(${Math.round(CHANGED * 100)} % raised from 22 January) in ${Date.now() - t0} ms`,
      );

      const call = await adminCaller(app);
      const payroll = (await call('POST', '/payroll_config/payrolls', benchPayrollBody('Bench', department))).json<{
        data: { id: number };
      }>().data;
      peak = process.memoryUsage().rss;
      const start = process.hrtime.bigint();
      const res = await call('POST', `/payroll_config/payrolls/${payroll.id}/process`);
      if (res.statusCode !== 200) throw new Error(res.body);
      let status = 'Processing';
      while (status === 'Processing') {
        await new Promise((r) => setTimeout(r, 20));
        status = (await call('GET', `/payroll_config/payrolls/${payroll.id}`)).json<{ data: { status: string } }>().data.status;
      }
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      const cells = COUNT * benchColumns().length;
      console.log(`payroll ${COUNT} employees × ${benchColumns().length} columns: ${status} in ${seconds.toFixed(2)} s`);
      console.log(
        `cells written: ${cells.toLocaleString('en-US')} (${Math.round(cells / seconds).toLocaleString('en-US')} cells/s)`,
      );
      console.log(`peak RSS during the run: ${Math.round(peak / 1048576)} MiB`);
    } finally {
      clearInterval(sampler);
    }
  });
}

void main();
