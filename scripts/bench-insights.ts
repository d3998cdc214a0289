/**
 * The insights at scale, run by hand: `DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench npm run
 * bench:insights` (that database is emptied first!; without DATABASE_URL a SQLite file in a temp dir).
 * Loads 1 000 employees with 1 000 000 attendance records, 200 000 leave requests (their leave days
 * expanded as the migration does) and 1 000 000 time entries over three years by bulk inserts, then
 * times every insights endpoint for `all` and `1year` through HTTP as an Admin (the company: the
 * widest scope) and as a Manager (ten direct reports) with the cache off (every request runs its
 * aggregation), then as an Admin with INSIGHTS_CACHE_MS=30000: 3 warm-up calls, then 20, one at a
 * time. Prints p50 and p95 per endpoint. Target (issue 12): p50 ≤ 100 ms each on MariaDB.
 * Options: `--employees N --attendance N --leave N --entries N` (the defaults above).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { prng } from '../src/database/seeds/seed-tools';
import { expandLeaveDays } from '../src/leave/leave-days';
import { INSIGHT_NAMES } from '../src/insights/insights.dto';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, bulkInsert, isoDay, numberArg, sqlTime, withBenchApp } from './bench-tools';

const EMPLOYEES = numberArg('employees', 1000);
const ATTENDANCE = numberArg('attendance', 1_000_000);
const LEAVE = numberArg('leave', 200_000);
const ENTRIES = numberArg('entries', 1_000_000);
const DAY = 86_400_000;

async function load(ds: DataSource, reference: ReferenceService): Promise<{ first: number }> {
  const t0 = Date.now();
  const company = await reference.addDepartment('Bench', null);
  const departments = [company];
  for (let i = 0; i < 9; i++) departments.push(await reference.addDepartment(`Bench ${i + 1}`, company));
  const first = await bulkEmployees(ds, EMPLOYEES, departments);
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const span = 3 * 365; // days of history
  const rand = prng(42);
  const employee = (i: number) => first + (i % EMPLOYEES);
  // Attendance: weekdays spread over three years, 6-9.5 h.
  await bulkInsert(
    ds,
    'attendance',
    ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'work_from_home'],
    ATTENDANCE,
    (i) => {
      const day = today - (1 + Math.floor(rand() * span)) * DAY;
      const inTime = day + (7 * 60 + Math.floor(rand() * 180)) * 60_000;
      const seconds = Math.floor((6 + rand() * 3.5) * 3600);
      return [employee(i), sqlTime(inTime), sqlTime(inTime + seconds * 1000), seconds, rand() < 0.2 ? 1 : 0];
    },
  );
  console.log(`  attendance: ${ATTENDANCE.toLocaleString('en-US')} rows (${((Date.now() - t0) / 1000).toFixed(1)} s so far)`);
  await ds.query(
    "INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Annual', 25, 0), ('Sick', 0, 1), ('Unpaid', 0, 1)",
  );
  const types = (await ds.query<Array<{ id: number | string }>>('SELECT id FROM leave_types ORDER BY id')).map((r) =>
    Number(r.id),
  );
  const statuses = ['Approved', 'Approved', 'Approved', 'Approved', 'Pending', 'Rejected', 'Cancelled'];
  await bulkInsert(
    ds,
    'leave_requests',
    ['employee_id', 'leave_type_id', 'date_start', 'date_end', 'half_day', 'days', 'status'],
    LEAVE,
    (i) => {
      const start = today - Math.floor(rand() * span) * DAY;
      const length = 1 + Math.floor(rand() * 3);
      return [
        employee(i),
        types[i % 3],
        isoDay(start),
        isoDay(start + (length - 1) * DAY),
        0,
        length,
        statuses[i % statuses.length],
      ];
    },
  );
  const days = await expandLeaveDays((sql, params) => ds.query(sql, params));
  console.log(
    `  leave: ${LEAVE.toLocaleString('en-US')} requests, ${days.toLocaleString('en-US')} leave days (${((Date.now() - t0) / 1000).toFixed(1)} s so far)`,
  );
  const entryStatuses = ['Approved', 'Approved', 'Approved', 'Submitted', 'Draft', 'Rejected'];
  await bulkInsert(ds, 'time_entries', ['employee_id', 'date', 'start_time', 'end_time', 'minutes', 'status'], ENTRIES, (i) => [
    employee(i),
    isoDay(today - Math.floor(rand() * span) * DAY),
    '09:00',
    '12:30',
    210,
    entryStatuses[i % entryStatuses.length],
  ]);
  console.log(`  time entries: ${ENTRIES.toLocaleString('en-US')} rows; loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return { first };
}

async function main(): Promise<void> {
  await withBenchApp('insights', { PORT: '0' }, async (app, config) => {
    const ds = app.get(DataSource);
    console.log(`${config.database.type}: loading`);
    const { first } = await load(ds, app.get(ReferenceService));
    const t0 = Date.now();
    await rebuildInsightRollups(ds);
    console.log(`  insights rollups rebuilt in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    if (config.database.type === 'mysql') {
      for (const table of ['attendance', 'attendance_days', 'leave_days', 'time_entries', 'time_entry_days', 'employees'])
        await ds.query(`ANALYZE TABLE ${table}`);
    }
    const users = app.get(UsersService);
    const tokens = app.get(TokenService);
    const admin = await users.create({
      username: 'bench-admin',
      email: 'a@bench.test',
      password: BENCH_PASSWORD,
      level: 'Admin',
    });
    // bulkEmployees: the first of every ten supervises the next nine.
    const manager = await users.create({
      username: 'bench-manager',
      email: 'm@bench.test',
      password: BENCH_PASSWORD,
      level: 'Manager',
      employeeId: first,
    });
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${address.port}${config.apiPrefix}/insights`;
    const passes = [
      ['Admin', admin, 0],
      ['Manager', manager, 0],
      ['Admin', admin, 30_000],
    ] as const;
    for (const [who, user, cacheMs] of passes) {
      // The service reads the setting at each request.
      (config as { insightsCacheMs: number }).insightsCacheMs = cacheMs;
      const token = (await tokens.issue(user)).access_token;
      console.log(
        `\n${who}, ${cacheMs ? `INSIGHTS_CACHE_MS=${cacheMs} (after the warm-up calls, figures come from the cache)` : 'INSIGHTS_CACHE_MS=0 (computed on every request)'}: ms per request (p50 / p95 of 20)`,
      );
      console.log(`${'endpoint'.padEnd(28)} ${'all'.padStart(15)} ${'1year'.padStart(15)}`);
      for (const endpoint of INSIGHT_NAMES) {
        const cells: string[] = [];
        for (const period of ['all', '1year']) {
          const url = `${base}/${endpoint}/${period}`;
          const once = async () => {
            const t = process.hrtime.bigint();
            const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
            return Number(process.hrtime.bigint() - t) / 1e6;
          };
          for (let i = 0; i < 3; i++) await once();
          const times: number[] = [];
          for (let i = 0; i < 20; i++) times.push(await once());
          times.sort((a, b) => a - b);
          cells.push(`${times[9].toFixed(1)} / ${times[18].toFixed(1)}`.padStart(15));
        }
        console.log(`${endpoint.padEnd(28)} ${cells.join(' ')}`);
      }
    }
  });
}

void main();
