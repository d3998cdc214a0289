/**
 * Creating leave requests, run by hand: `npm run bench:leave-requests` (SQLite file in a temp dir,
 * or DATABASE_URL=mysql://... : that database is emptied first!). `--employees N` (2 000) employees,
 * `--calendars N` (5: bench-calendar-spread.ts) calendars they are spread over, then `POST /leaves`
 * as an Admin for 50 of them (warm-up) and `--requests N` (500) more, one at a time, each a
 * two-week request of another employee (each day counted by its calendar, approval chain, ledger
 * and leave days written). Prints p50, p95 and the mean. Only HTTP and SQL: the same file runs
 * against a build from before work calendars (issue 65: creation within 10 % of it).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, numberArg, withBenchApp } from './bench-tools';
import { spreadOverCalendars } from './bench-calendar-spread';

const EMPLOYEES = numberArg('employees', 2_000);
const CALENDARS = numberArg('calendars', 5);
const REQUESTS = numberArg('requests', 500);
const WARM_UP = 50;

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main(): Promise<void> {
  await withBenchApp('leave-requests', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const department = await app.get(ReferenceService).addDepartment('Bench', null);
    const first = await bulkEmployees(ds, EMPLOYEES, [department]);
    const year = new Date().getUTCFullYear() + 1;
    await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
      `${year}`,
      `${year}-01-01`,
      `${year}-12-31`,
    ]);
    await ds.query('INSERT INTO leave_types (name, default_days, allow_negative) VALUES (?, ?, ?)', ['Bench', 400, true]);
    const [{ type }] = await ds.query<Array<{ type: number }>>('SELECT MAX(id) AS type FROM leave_types');
    const call = await adminCaller(app);
    const spread = await spreadOverCalendars(call, ds, CALENDARS, [year], first, EMPLOYEES);
    console.log(`${config.database.type}: ${EMPLOYEES} employees, ${spread}`);
    // Active employees only (bulkEmployees makes every 7th Terminated), each once.
    const employees = Array.from({ length: EMPLOYEES }, (_, i) => i)
      .filter((i) => i % 7 !== 0)
      .map((i) => first + i);
    if (employees.length < WARM_UP + REQUESTS) throw new Error(`--employees ${EMPLOYEES} has too few active employees`);
    const times: number[] = [];
    for (let i = 0; i < WARM_UP + REQUESTS; i++) {
      const start = new Date(Date.UTC(year, 2, 2 + (i % 150))).toISOString().slice(0, 10);
      const end = new Date(Date.UTC(year, 2, 15 + (i % 150))).toISOString().slice(0, 10);
      const t0 = process.hrtime.bigint();
      const res = await call('POST', '/leaves', {
        employee: employees[i],
        leave_type: Number(type),
        date_start: start,
        date_end: end,
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (res.statusCode >= 300) throw new Error(res.body);
      if (i >= WARM_UP) times.push(ms);
    }
    const mean = times.reduce((a, b) => a + b, 0) / times.length;
    times.sort((a, b) => a - b);
    console.log(
      `POST /leaves (two weeks, ${REQUESTS} requests after ${WARM_UP}): p50 ${pct(times, 50).toFixed(2)} ms, p95 ${pct(times, 95).toFixed(2)} ms, mean ${mean.toFixed(2)} ms`,
    );
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
