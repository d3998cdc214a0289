/**
 * The leave ledger at scale, run by hand: `DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench npm run
 * bench:leave-ledger` (that database is emptied first!; without DATABASE_URL a SQLite file in a temp
 * dir). Options: `--employees N` (default 100 000), `--year Y` (the year that ends, default 2026),
 * `--calendars N` (default 1: everyone on the default calendar; bench-calendar-spread.ts: 5 gives the
 * issue 65 comparison, the employees spread over five calendars with their holidays).
 *
 * Loads N employees (joined in 2015, ten departments), leave periods 2016 to Y + 1, three leave types
 * assigned company-wide: Annual (2.5 days at each month's end, 5 carried over, expiring after three
 * months), Sick (10 days on each period's first day, nothing carried) and Personal (3 days each
 * 1 January, everything carried), and 5 taken Annual days per employee in Y. Then times, as the
 * scheduled job runs them (LeaveLedgerService.accrue):
 *  - the catch-up of years Y − 1 and Y up to 30 December (what a first run after a migration writes);
 *  - the year-end: the job on 1 January Y + 1 (the 31 December accruals, the carry-over of three types,
 *    the new period's grants);
 *  - a daily run on an ordinary day (2 January: nothing owed) and on a month end (31 January: one
 *    accrual per employee);
 * and the balance of one employee with ten years of ledger (GET /employees/{id}/leaves/balance over
 * HTTP as an Admin, 20 warm-up calls then 200, one at a time): p50 and p95.
 * Targets (issue 31): year-end ≤ 5 min and daily ≤ 60 s for 100 000 employees on MariaDB; the
 * balance p50 ≤ 10 ms. Then the leave liability of Y (liabilityBench; issue 49: p50 ≤ 1 s uncached).
 */
import 'reflect-metadata';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { JOB_RUNNER, JobRunner } from '../src/common/queue/queue.constants';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { insertRows } from '../src/database/seeds/seed-tools';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { LeaveLedgerRepository } from '../src/leave/ledger/leave-ledger.repository';
import { LeaveLiabilityService } from '../src/leave/ledger/leave-liability.service';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, bulkInsert, numberArg, percentile, withBenchApp } from './bench-tools';
import { spreadOverCalendars } from './bench-calendar-spread';

const EMPLOYEES = numberArg('employees', 100_000);
const YEAR = numberArg('year', 2026);
const CALENDARS = numberArg('calendars', 1);
const TAKEN = ['03-02', '06-15', '08-10', '08-11', '11-20'];

const seconds = (t0: number) => ((Date.now() - t0) / 1000).toFixed(1);
async function load(ds: DataSource, reference: ReferenceService): Promise<{ first: number; types: number[] }> {
  const company = await reference.addDepartment('Bench', null);
  const departments = [company];
  for (let i = 0; i < 9; i++) departments.push(await reference.addDepartment(`Bench ${i + 1}`, company));
  const first = await bulkEmployees(ds, EMPLOYEES, departments);
  const years = Array.from({ length: YEAR + 2 - 2016 }, (_, i) => 2016 + i);
  await insertRows(
    ds,
    'leave_periods',
    ['name', 'date_start', 'date_end'],
    years.map((y) => [String(y), `${y}-01-01`, `${y}-12-31`]),
  );
  await insertRows(
    ds,
    'leave_types',
    ['name', 'default_days', 'color'],
    [
      ['Annual', 0, '#1d4e89'],
      ['Sick', 0, '#c0392b'],
      ['Personal', 0, '#27ae60'],
    ],
  );
  const ids = async (sql: string) => (await ds.query<Array<{ id: number | string }>>(sql)).map((r) => Number(r.id));
  const types = await ids("SELECT id FROM leave_types WHERE name IN ('Annual', 'Sick', 'Personal') ORDER BY id");
  const columns = ['name', 'leave_type_id', 'accrual', 'amount', 'carry_over_max', 'carry_over_expiry_months'];
  await insertRows(ds, 'leave_policies', columns, [
    ['Annual: monthly', types[0], 'monthly', 2.5, 5, 3],
    ['Sick: yearly grant', types[1], 'fixed_per_period', 10, 0, null],
    ['Personal: each January', types[2], 'yearly', 3, null, null],
  ]);
  const policies = await ids('SELECT id FROM leave_policies ORDER BY id');
  await insertRows(
    ds,
    'leave_policy_assignments',
    ['policy_id', 'valid_from'],
    policies.map((p) => [p, '2015-01-01']),
  );
  // Five Annual days taken in YEAR, as approvals write them.
  await bulkInsert(
    ds,
    'leave_ledger',
    ['employee_id', 'leave_type_id', 'date', 'kind', 'days', 'source', 'entry_key'],
    EMPLOYEES * TAKEN.length,
    (i) => {
      const day = `${YEAR}-${TAKEN[i % TAKEN.length]}`;
      return [first + Math.floor(i / TAKEN.length), types[0], day, 'taken', -1, 'request', `take:bench:${day}`];
    },
  );
  return { first, types };
}

/**
 * GET /insights/leave-liability/{period} of YEAR over HTTP as an Admin, the insights' cache off
 * (issue 49): the first request (every balance computed into the day's table, as every request
 * computed them before), then requests with nothing changed, each after one employee's adjustment,
 * and one after 1 000 employees' (`changed`).
 */
async function liabilityBench(app: NestFastifyApplication, token: string, changed: number[]): Promise<void> {
  const ds = app.get(DataSource);
  const [{ id: period }] = await ds.query<Array<{ id: number }>>('SELECT id FROM leave_periods WHERE name = ?', [String(YEAR)]);
  const [{ id: type }] = await ds.query<Array<{ id: number }>>("SELECT id FROM leave_types WHERE name = 'Annual'");
  const request = async (): Promise<number> => {
    const start = process.hrtime.bigint();
    const res = await app.inject({
      method: 'GET',
      url: `/app/api/insights/leave-liability/${period}`,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(res.body);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const adjust = (employees: number[]) =>
    app.get(LeaveLedgerRepository).append(
      null,
      employees.map((employeeId) => ({
        employeeId,
        leaveTypeId: type,
        date: `${YEAR}-11-02`,
        kind: 'adjustment' as const,
        days: 1,
        source: 'admin' as const,
        sourceId: null,
        createdBy: null,
        note: 'bench',
        entryKey: null,
      })),
    );
  const p50 = async (label: string, before: (i: number) => Promise<unknown>) => {
    const times: number[] = [];
    for (let i = 0; i < 21; i++) {
      await before(i);
      times.push(await request());
    }
    times.sort((a, b) => a - b);
    console.log(
      `liability of ${YEAR}, ${label}: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
    );
  };
  console.log(`liability of ${YEAR}, first request (every balance computed): ${((await request()) / 1000).toFixed(1)} s`);
  await p50('nothing changed', async () => undefined);
  await p50("after one employee's adjustment", (i) => adjust([changed[i]]));
  await adjust(changed);
  console.log(`liability of ${YEAR}, after 1 000 employees' adjustments: ${(await request()).toFixed(0)} ms`);
  // A dashboard's "today" (the insight periods): a new day each day, made from the day before.
  for (const day of [`${YEAR + 1}-01-10`, `${YEAR + 1}-01-11`]) {
    const t0 = Date.now();
    const r = await app.get(LeaveLiabilityService).refresh(day);
    const how = r.everyone ? 'every balance computed' : `${r.employees} computed, the rest copied from ${r.rolledFrom}`;
    console.log(`liability of ${day} (a "today"): ${how} in ${seconds(t0)} s`);
  }
}

async function main(): Promise<void> {
  await withBenchApp('leave-ledger', { INSIGHTS_CACHE_MS: '0' }, async (app, config) => {
    // The benchmark runs the job itself: the queue's own schedule (the daily accrual a minute after
    // start, for the real today) would write the same entries meanwhile and blur the figures.
    await app.get<JobRunner>(JOB_RUNNER).close();
    const ds = app.get(DataSource);
    const ledger = app.get(LeaveAccrualsService);
    let t0 = Date.now();
    const { first, types } = await load(ds, app.get(ReferenceService));
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench-admin', email: 'bench@x.test', password: BENCH_PASSWORD, level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url: `/app/api${url}`, headers: { authorization: `Bearer ${token}` }, payload });
    const years = Array.from({ length: YEAR + 2 - 2016 }, (_, i) => 2016 + i);
    const spread = await spreadOverCalendars(call, ds, CALENDARS, years, first, EMPLOYEES);
    console.log(
      `${config.database.type}: loaded ${EMPLOYEES} employees, 3 leave types, ${EMPLOYEES * TAKEN.length} taken days, ${spread} in ${seconds(t0)} s`,
    );

    // As the schedule runs it (LeaveAccrualsService.daily): everyone without a last run, on a day of
    // everyone's or after a change that reaches everyone; else only whom something is due or changed for.
    const run = async (label: string, day: string) => {
      t0 = Date.now();
      const r = await ledger.daily(day);
      const read = r.full ? 'every employee' : `${r.employees.toLocaleString('en-US')} employees`;
      console.log(
        `${label} (job on ${day}): ${read} read, ${r.written.toLocaleString('en-US')} entries written in ${seconds(t0)} s`,
      );
    };
    await run(`catch-up of ${YEAR - 1} and ${YEAR}`, `${YEAR}-12-30`);
    await run('year-end', `${YEAR + 1}-01-01`);
    await run('daily, an ordinary day', `${YEAR + 1}-01-02`);
    // The full job on an ordinary day, as the schedule ran it before issue 49.
    t0 = Date.now();
    const full = await ledger.accrue(`${YEAR + 1}-01-03`);
    console.log(`the full job on an ordinary day (${YEAR + 1}-01-03): ${full} entries written in ${seconds(t0)} s`);
    // An ordinary day after 1 000 employees' leave was recorded (back-dated into the last period).
    const changed = Array.from({ length: 1000 }, (_, i) => first + i * Math.max(1, Math.floor(EMPLOYEES / 1000)));
    await app.get(LeaveLedgerRepository).append(
      null,
      changed.map((employeeId) => ({
        employeeId,
        leaveTypeId: types[0],
        date: `${YEAR}-12-15`,
        kind: 'taken' as const,
        days: -1,
        source: 'admin' as const,
        sourceId: null,
        createdBy: null,
        note: null,
        entryKey: null,
      })),
    );
    await run('daily, 1 000 employees with leave recorded the day before', `${YEAR + 1}-01-04`);
    await run('daily, a month end', `${YEAR + 1}-01-31`);

    // One employee with ten years of ledger: every window since 2016 written.
    t0 = Date.now();
    const ten = first + 1;
    await ledger.accrue(`${YEAR + 1}-01-31`, true, [ten]);
    const [{ n }] = await ds.query<Array<{ n: number | string }>>(
      'SELECT COUNT(*) AS n FROM leave_ledger WHERE employee_id = ?',
      [ten],
    );
    console.log(`employee ${ten}: ${n} ledger entries since 2016 (written in ${seconds(t0)} s)`);
    const times: number[] = [];
    for (let i = 0; i < 220; i++) {
      const start = process.hrtime.bigint();
      const res = await app.inject({
        method: 'GET',
        url: `/app/api/employees/${ten}/leaves/balance?as_of=${YEAR}-12-31`,
        headers: { authorization: `Bearer ${token}` },
      });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(res.body);
      if (i === 0) {
        const annual = res
          .json<{ data: Array<{ leave_type: number; available: number }> }>()
          .data.find((b) => b.leave_type === types[0]);
        console.log(`its Annual balance as of ${YEAR}-12-31: ${annual?.available} days`);
      }
      if (i >= 20) times.push(ms);
    }
    times.sort((a, b) => a - b);
    console.log(
      `balance with ten years of ledger: p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
    );
    await liabilityBench(app, token, changed);
  });
}

void main();
