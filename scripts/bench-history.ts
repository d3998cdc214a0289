/**
 * Employment history at scale (issue 43), run by hand: `npm run bench:history` (SQLite file in a
 * temp dir), or with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!).
 * 100 000 employees (`--employees N`) with 10 segments each; prints:
 * - the move-in (migration 33's) of every employee, timed alone;
 * - GET /employees/{id} plain and with as_of, and the first page of GET /employees plain and with
 *   as_of and a department filter (autocannon, 32 connections, 5 s each, p50 and req/s);
 * - the daily job applying 1 000 Scheduled changes on their day;
 * - GET /events: 100 000 events read by an Admin in pages of 500.
 */
import 'reflect-metadata';
import { CompanyClock } from '../src/common/time/company-clock';
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { optimizeSqlite } from '../src/common/database/sqlite-statistics';
import { addDays } from '../src/common/time/days';
import { withEmployeeLock } from '../src/employees/core/employee-lock';
import { DATED_FIELDS, segmentsAt, RecordedChange } from '../src/employees/history/employment-history';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { EmploymentHistoryWriter } from '../src/employees/history/employment-history.writer';
import { moveIntoHistory } from '../src/database/migrations/1763800000033-EmploymentHistory';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, bulkInsert, numberArg, withBenchApp } from './bench-tools';

const EMPLOYEES = numberArg('employees', 100_000);
const SEGMENTS = 10;
const SCHEDULED = 1000;
async function main(): Promise<void> {
  await withBenchApp('history', { PORT: '3993' }, async (app, config) => {
    const ds = app.get(DataSource);
    const ref = app.get(ReferenceService);
    const root = await ref.addDepartment('Root', null);
    const departments: number[] = [];
    for (let i = 0; i < 10; i++) departments.push(await ref.addDepartment(`D${i}`, root));
    let t0 = Date.now();
    const first = await bulkEmployees(ds, EMPLOYEES, departments);
    console.log(`${config.database.type}: ${EMPLOYEES} employees (with their joined segment) in ${Date.now() - t0} ms`);

    // The migration's move-in alone, over every employee.
    await ds.query('DELETE FROM employment_segments');
    await ds.query('DELETE FROM employment_changes');
    t0 = Date.now();
    await moveIntoHistory((sql, params) => ds.query(sql, params), 0, 'Moved in');
    console.log(`move-in of ${EMPLOYEES} employees (migration 33): ${Date.now() - t0} ms`);

    // Nine more changes each, a transfer every ~4 months from 2023 on, and their segments.
    t0 = Date.now();
    const moved = await ds.query<Array<{ id: number | string; employee_id: number | string; recorded_at: string | Date }>>(
      'SELECT id, employee_id, recorded_at FROM employment_changes',
    );
    const base = new Map(moved.map((m) => [Number(m.employee_id), Number(m.id)]));
    const recordedAt = '2026-01-01 00:00:00.000';
    const changeDay = (k: number) => addDays('2023-01-01', k * 120);
    await bulkInsert(
      ds,
      'employment_changes',
      ['employee_id', 'effective_date', 'reason', 'fields', 'salary', 'status', 'recorded_at'],
      EMPLOYEES * (SEGMENTS - 1),
      (i) => {
        const e = first + Math.floor(i / (SEGMENTS - 1));
        const k = i % (SEGMENTS - 1);
        return [
          e,
          changeDay(k),
          'Transfer',
          JSON.stringify({ department: departments[(e + k + 1) % 10] }),
          null,
          'Effective',
          recordedAt,
        ];
      },
    );
    await ds.query('DELETE FROM employment_segments');
    const ids = await ds.query<Array<{ id: number | string; employee_id: number | string; effective_date: string | Date }>>(
      "SELECT id, employee_id, effective_date FROM employment_changes WHERE reason = 'Transfer'",
    );
    const byEmployee = new Map<number, RecordedChange[]>();
    for (const [e, id] of base)
      byEmployee.set(e, [
        {
          id,
          effectiveDate: '2015-01-01',
          recordedAt: new Date(0),
          fields: { department: departments[e % 10] },
          salary: [],
          cancelledAt: null,
          corrects: null,
        },
      ]);
    for (const r of ids) {
      const day = r.effective_date instanceof Date ? r.effective_date.toISOString().slice(0, 10) : String(r.effective_date);
      const k = (Date.parse(`${day}T00:00:00Z`) - Date.parse('2023-01-01T00:00:00Z')) / 86_400_000 / 120;
      byEmployee.get(Number(r.employee_id))!.push({
        id: Number(r.id),
        effectiveDate: day,
        recordedAt: new Date(1),
        fields: { department: departments[(Number(r.employee_id) + k + 1) % 10] },
        salary: null,
        cancelledAt: null,
        corrects: null,
      });
    }
    const rows: unknown[][] = [];
    for (const [e, changes] of byEmployee)
      for (const s of segmentsAt(changes))
        rows.push([e, s.effectiveFrom, s.effectiveTo, ...DATED_FIELDS.map((f) => s.values[f]), '[]', s.change]);
    await bulkInsert(
      ds,
      'employment_segments',
      // Every dated field's column (`calendar` came after migration 033's list, which the bench once used).
      ['employee_id', 'effective_from', 'effective_to', ...DATED_FIELDS.map((f) => `${f}_id`), 'salary', 'change_id'],
      rows.length,
      (i) => rows[i],
    );
    const [{ n }] = await ds.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM employment_segments');
    console.log(`${Number(n)} segments (${SEGMENTS} an employee) written in ${Date.now() - t0} ms`);
    if (config.database.type === 'mysql') await ds.query('ANALYZE TABLE employees, employment_segments, employment_changes');
    else await optimizeSqlite(ds);

    if (process.env.EXPLAIN && config.database.type !== 'mysql') {
      const asOf = `FROM employees e INNER JOIN employment_segments s ON s.employee_id = e.id AND s.effective_from <= '2024-06-30' AND (s.effective_to IS NULL OR s.effective_to >= '2024-06-30') WHERE e.joined_date <= '2024-06-30' AND s.department_id IN (${departments[3]})`;
      const plain = `SELECT e.id, e.department_id FROM employees e WHERE e.department_id IN (${departments[3]}) ORDER BY e.id LIMIT 50`;
      for (const sql of [
        `SELECT COUNT(*) ${asOf}`,
        `SELECT e.id, s.department_id ${asOf} ORDER BY s.employee_id LIMIT 50`,
        plain,
      ]) {
        console.log(sql, await ds.query(`EXPLAIN QUERY PLAN ${sql}`));
        const t = process.hrtime.bigint();
        for (let i = 0; i < 200; i++) await ds.query(sql);
        console.log(`${Number(process.hrtime.bigint() - t) / 200_000} µs a run`);
      }
    }
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench-admin', email: 'bench-admin@x.test', password: BENCH_PASSWORD, level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    await app.listen(config.port, config.host);
    const api = `http://${config.host}:${config.port}${config.apiPrefix}`;
    const one = first + Math.floor(EMPLOYEES / 2);
    const filter = encodeURIComponent(JSON.stringify({ department: [departments[3]] }));
    const runs: Array<[string, string]> = [
      ['GET /employees/{id}', `/employees/${one}`],
      ['GET /employees/{id}?as_of=2024-06-30', `/employees/${one}?as_of=2024-06-30`],
      ['GET /employees first page', '/employees?limit=50'],
      ['GET /employees department filter', `/employees?limit=50&filters=${filter}`],
      ['GET /employees?as_of department filter', `/employees?limit=50&as_of=2024-06-30&filters=${filter}`],
    ];
    for (const [name, path] of runs) {
      const r = await autocannon({
        url: api + path,
        headers: { authorization: `Bearer ${token}` },
        connections: 32,
        duration: 5,
      });
      console.log(
        `${name.padEnd(44)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx + r.errors}`,
      );
    }

    // 1 000 changes scheduled for tomorrow, then the job on that day.
    const writer = app.get(EmploymentHistoryWriter);
    const today = await app.get(CompanyClock).today();
    const tomorrow = addDays(today, 1);
    t0 = Date.now();
    for (let i = 0; i < SCHEDULED; i++) {
      const e = first + i * Math.floor(EMPLOYEES / SCHEDULED);
      await withEmployeeLock(ds, e, (em) =>
        writer.recordIn(
          em,
          e,
          { effectiveDate: tomorrow, reason: 'Promotion', fields: { department: departments[0] }, salary: null },
          null,
        ),
      );
    }
    console.log(`${SCHEDULED} Scheduled changes recorded one by one in ${Date.now() - t0} ms`);
    t0 = Date.now();
    const ran = await app.get(EmploymentHistoryJobs).run(new Date(`${tomorrow}T00:05:00Z`));
    console.log(`daily job: ${ran.changes} changes took effect in ${Date.now() - t0} ms`);
    t0 = Date.now();
    await app.get(EmploymentHistoryJobs).run(new Date(`${tomorrow}T00:10:00Z`));
    console.log(`daily job with nothing due: ${Date.now() - t0} ms`);

    // The events feed: 100 000 events read by an Admin in pages of 500, one request after the other.
    const [{ top }] = await ds.query<Array<{ top: number | string | null }>>('SELECT MAX(seq) AS top FROM outbox_events');
    const seq0 = Number(top ?? 0);
    await bulkInsert(ds, 'outbox_events', ['event_id', 'event', 'payload', 'created_at', 'seq', 'employee_id'], 100_000, (i) => {
      const e = first + (i % EMPLOYEES);
      return [
        `bench-${i}`,
        'employee.updated',
        JSON.stringify({ id: e, employee: e, changes: { city: [null, `City ${i}`] } }),
        '2026-11-27 10:00:00.000',
        seq0 + 1_000_000 + i,
        e,
      ];
    });
    t0 = Date.now();
    let after = seq0 + 999_999;
    let read = 0;
    for (;;) {
      const res = await fetch(`${api}/events?after=${after}&limit=500`, { headers: { authorization: `Bearer ${token}` } });
      const page = (await res.json()) as { data: unknown[]; next_after: number };
      if (!page.data.length) break;
      read += page.data.length;
      after = page.next_after;
    }
    const took = Date.now() - t0;
    console.log(`GET /events: ${read} events in pages of 500 in ${took} ms (${Math.round((read / took) * 1000)} events/s)`);
    console.log(`RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
  });
}

void main();
