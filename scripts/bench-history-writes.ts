/**
 * One employee's long history (Hardening IV item 24), run by hand: `npm run bench:history-writes`
 * (SQLite file in a temp dir, or DATABASE_URL=mysql://... for MariaDB: that database is emptied
 * first!). The employee gets `--changes N` (2 000) back-dated changes, one a day; then prints the
 * time of a change today (the end of its history), of one in the middle, and of one before all of
 * them, each the median of 5, with the segments each wrote.
 */
import 'reflect-metadata';
import { CompanyClock } from '../src/common/time/company-clock';
import { DataSource } from 'typeorm';
import { addDays } from '../src/common/time/days';
import { withEmployeeLock } from '../src/employees/core/employee-lock';
import { EmploymentHistoryWriter } from '../src/employees/history/employment-history.writer';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { numberArg, withBenchApp } from './bench-tools';

const CHANGES = numberArg('changes', 2000);

async function main(): Promise<void> {
  await withBenchApp('history-writes', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const writer = app.get(EmploymentHistoryWriter);
    const ref = app.get(ReferenceService);
    const departments = [await ref.addDepartment('A', null), await ref.addDepartment('B', null)];
    const first = await bulkEmployees(ds, 1, departments);
    const today = await app.get(CompanyClock).today();
    const start = addDays(today, -CHANGES - 10);
    await ds.query('UPDATE employees SET joined_date = ? WHERE id = ?', [start, first]);
    await ds.query('UPDATE employment_changes SET effective_date = ? WHERE employee_id = ?', [start, first]);
    await ds.query('UPDATE employment_segments SET effective_from = ? WHERE employee_id = ?', [start, first]);
    const record = (day: string, department: number) =>
      withEmployeeLock(ds, first, (em) =>
        writer.recordIn(em, first, { effectiveDate: day, reason: 'bench', fields: { department }, salary: null }, null),
      );
    let t0 = Date.now();
    for (let i = 0; i < CHANGES; i++) await record(addDays(start, i + 1), departments[i % 2]);
    console.log(`${config.database.type}: ${CHANGES} changes of one employee, one a day, in ${Date.now() - t0} ms`);
    const segments = async () =>
      Number((await ds.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM employment_segments'))[0].n);
    console.log(`${await segments()} segments`);
    for (const [name, day] of [
      ['today (the end of the history)', today],
      ['in the middle', addDays(start, Math.floor(CHANGES / 2))],
      ['before all of them', addDays(start, 1)],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        t0 = performance.now();
        await record(day, departments[i % 2]);
        times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(`a change ${name}: median ${times[2].toFixed(1)} ms (min ${times[0].toFixed(1)}, max ${times[4].toFixed(1)})`);
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
