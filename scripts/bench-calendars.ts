/**
 * Work calendars (issue 65), run by hand: `npm run bench:calendars` (SQLite file in a temp dir, or
 * DATABASE_URL=mysql://... for MariaDB: that database is emptied first!). Five calendars with a
 * year of public holidays each from the dataset (and a half day), `--employees N` (10 000) spread
 * over them by dated changes, then prints: the working days of one employee over a year (p50 and
 * p99 of 200), the same for a whole page of 500 employees at once, and the days a leave request of
 * two weeks takes (p50 of 200, the count alone: LeaveCalendarService.requestDays). Then
 * `--recount N` (10 000) more employees on the default calendar, each with an approved request of
 * one week, and a holiday added on its Wednesday: the time until the outbox subscriber has
 * recounted them all (LeaveRecomputeService) and the longest pause of the event loop meanwhile.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { CalendarsService } from '../src/calendars/calendars.service';
import { HolidaysService } from '../src/calendars/holidays.service';
import { WorkingDaysService } from '../src/calendars/working-days.service';
import { CompanyClock } from '../src/common/time/company-clock';
import { addDays } from '../src/common/time/days';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { withEmployeeLock } from '../src/employees/core/employee-lock';
import { EmploymentHistoryWriter } from '../src/employees/history/employment-history.writer';
import { LeaveCalendarService } from '../src/leave/leave-calendar.service';
import { ReferenceService } from '../src/reference/reference.service';
import { bulkInsert, numberArg, percentile, withBenchApp } from './bench-tools';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { expandLeaveDays } from '../src/leave/leave-days';
import { CALENDAR_CHANGES_SUBSCRIBER } from '../src/leave/calendar-changes.subscriber';

const EMPLOYEES = numberArg('employees', 10_000);
const RECOUNT = numberArg('recount', 10_000);
const PLACES: Array<[string, string, string | null]> = [
  ['Bavaria', 'DE', 'DE-BY'],
  ['Berlin', 'DE', 'DE-BE'],
  ['Lyon', 'FR', null],
  ['Manchester', 'GB', 'GB-ENG'],
];

async function timed(runs: number, fn: (i: number) => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return `p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms`;
}

async function main(): Promise<void> {
  await withBenchApp('calendars', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const calendars = app.get(CalendarsService);
    const holidays = app.get(HolidaysService);
    const writer = app.get(EmploymentHistoryWriter);
    const workingDays = app.get(WorkingDaysService);
    const leave = app.get(LeaveCalendarService);
    const today = await app.get(CompanyClock).today();
    const year = Number(today.slice(0, 4));
    const department = await app.get(ReferenceService).addDepartment('Bench', null);
    let t0 = Date.now();
    const ids: number[] = [];
    for (const [name, country, subdivision] of PLACES) {
      const c = await calendars.create({ name, country, subdivision });
      ids.push(c.id);
      await holidays.import(c.id, year, false);
      await holidays.create(c.id, { date: `${year}-12-31`, name: 'Half day', fraction: '0.5', kind: 'company' });
    }
    ids.push((await calendars.defaultCalendar()).id);
    console.log(`${config.database.type}: 5 calendars, a year of holidays each, in ${Date.now() - t0} ms`);

    t0 = Date.now();
    const first = await bulkEmployees(ds, EMPLOYEES, [department]);
    const moveDay = `${year}-07-01`;
    for (let id = first; id < first + EMPLOYEES; id++) {
      const calendar = ids[(id - first) % ids.length];
      if (calendar === ids[ids.length - 1]) continue; // the default's stay on it
      await withEmployeeLock(ds, id, (em) =>
        writer.recordIn(em, id, { effectiveDate: moveDay, reason: 'bench', fields: { calendar }, salary: null }, null),
      );
    }
    console.log(`${EMPLOYEES} employees, four in five moved to another calendar on ${moveDay}, in ${Date.now() - t0} ms`);

    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    console.log(
      `working days of one employee over a year (a move mid-year): ${await timed(200, (i) => workingDays.ofEmployees([first + ((i * 7) % EMPLOYEES)], from, to))}`,
    );
    const page = Array.from({ length: 500 }, (_, i) => first + i);
    console.log(
      `working days of 500 employees over a year at once: ${await timed(20, () => workingDays.ofEmployees(page, from, to))}`,
    );
    console.log(
      `the days of a two-week leave request: ${await timed(200, (i) => leave.requestDays(null, first + ((i * 13) % EMPLOYEES), addDays(from, 150 + (i % 30)), addDays(from, 163 + (i % 30)), false))}`,
    );

    // A holiday over RECOUNT approved requests (issue 65 item 5).
    const relay = app.get(OutboxRelay);
    await relay.catchUp(CALENDAR_CHANGES_SUBSCRIBER);
    const others = await bulkEmployees(ds, RECOUNT, [department], 'R');
    await ds.query(`INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Bench recount', 25, 1)`);
    const [{ id: type }] = await ds.query<Array<{ id: number }>>(`SELECT id FROM leave_types WHERE name = 'Bench recount'`);
    // The week of the third Monday of November: Monday to Friday.
    const monday = [15, 16, 17, 18, 19, 20, 21]
      .map((d) => `${year}-11-${d}`)
      .find((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1)!;
    await bulkInsert(
      ds,
      'leave_requests',
      ['employee_id', 'leave_type_id', 'date_start', 'date_end', 'half_day', 'days', 'status'],
      RECOUNT,
      (i) => [others + i, Number(type), monday, addDays(monday, 4), 0, 5, 'Approved'],
    );
    await expandLeaveDays((sql, params) => ds.query(sql, params));
    const home = ids[ids.length - 1];
    // SQLite: the setup's writes checkpointed first, so the recount's commit does not pay for them.
    if (config.database.type === 'sqlite') await ds.query('PRAGMA wal_checkpoint(TRUNCATE)');
    // The longest gap between ticks of a 5 ms timer: how long the event loop was held.
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    t0 = Date.now();
    await holidays.create(home, { date: addDays(monday, 2), name: 'Bench Wednesday', fraction: '1', kind: 'company' });
    await relay.catchUp(CALENDAR_CHANGES_SUBSCRIBER);
    const elapsed = Date.now() - t0;
    clearInterval(ticker);
    longest = Math.max(longest, performance.now() - last);
    const [{ n }] = await ds.query<Array<{ n: number | string }>>(
      `SELECT COUNT(*) AS n FROM leave_requests WHERE leave_type_id = ? AND days = 4`,
      [type],
    );
    const [{ e }] = await ds.query<Array<{ e: number | string }>>(
      `SELECT COUNT(*) AS e FROM leave_ledger WHERE leave_type_id = ? AND kind = 'reversal'`,
      [type],
    );
    console.log(
      `a holiday over ${RECOUNT} approved requests: ${Number(n)} recounted, ${Number(e)} ledger entries, in ${elapsed} ms; the event loop's longest pause ${longest.toFixed(0)} ms`,
    );
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
