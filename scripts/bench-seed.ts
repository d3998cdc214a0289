/**
 * The benchmark dataset, run by hand: `DATABASE_URL=... npm run bench:seed -- --employees 100000
 * [--history 1000] [--reset]`. Fills the database of DATABASE_URL (SQLite file or MariaDB; required,
 * so a development database is never filled by accident) by bulk inserts: 49 departments (a root,
 * 8 divisions of 5 teams), 30 job titles, N employees (every tenth the supervisor of the next nine,
 * every seventh Terminated), three leave types and this year's leave period, and for the first
 * `--history` employees (default 1 000) a year of attendance (weekdays), leave (five requests each,
 * their leave days) and time entries (two a weekday), and a processed payroll of the first division
 * (its employees × the 30 columns of bench:payroll) for the data grid. Users, all with the password
 * `bench-Secret-1`: `bench-admin` (Admin), `bench-manager` (the first employee, supervising nine),
 * `bench-employee` (the second), `bench-hradmin` (Restricted Admin of Division 1). `--reset`
 * empties the database first; otherwise it must hold no employees yet. Prints what it wrote and
 * how long each part took.
 */
import 'reflect-metadata';
import { rmSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/config';
import { dataSourceOptions } from '../src/database/data-source';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { prng } from '../src/database/seeds/seed-tools';
import { expandLeaveDays } from '../src/leave/leave-days';
import { ReferenceService } from '../src/reference/reference.service';
import { SettingsService } from '../src/settings/settings.service';
import { UsersService } from '../src/users/users.service';
import { benchColumns, ensureBenchColumns } from './bench-payroll-columns';
import { BENCH_PASSWORD, bulkInsert, isoDay, numberArg, sqlTime } from './bench-tools';

const DAY = 86_400_000;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required (sqlite:/tmp/bench.sqlite or mysql://...)');
  const employees = numberArg('employees', 100_000);
  const history = Math.min(numberArg('history', 1000), employees);
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', REDIS_URL: undefined, SMTP_URL: undefined });
  if (process.argv.includes('--reset')) {
    if (config.database.type === 'sqlite') {
      // A new file: TypeORM's dropDatabase would also drop the FTS5 table's shadow tables, which SQLite refuses.
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${config.database.path}${suffix}`, { force: true });
    } else {
      const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
      await ds.dropDatabase();
      await ds.destroy();
    }
  }
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ ...config, queueConsumer: false }), {
    logger: ['error', 'warn'],
  });
  await app.init();
  try {
    const ds = app.get(DataSource);
    const [{ n }] = await ds.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM employees');
    if (Number(n) > 0) throw new Error(`the database already holds ${n} employees: add --reset to empty it first`);
    await app.get(SettingsService).set('Enable Rest Api', 'Yes');
    const timed = async (what: string, work: () => Promise<string>) => {
      const t0 = Date.now();
      const done = await work();
      console.log(`${what.padEnd(14)} ${done} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    };

    const departments: number[] = [];
    await timed('reference', async () => {
      const reference = app.get(ReferenceService);
      const root = await reference.addDepartment('Company', null);
      departments.push(root);
      for (let d = 1; d <= 8; d++) {
        const division = await reference.addDepartment(`Division ${d}`, root);
        departments.push(division);
        for (let t = 1; t <= 5; t++) departments.push(await reference.addDepartment(`Team ${d}.${t}`, division));
      }
      const titles = reference.crud('job-titles');
      for (let j = 1; j <= 30; j++) await titles.create({ name: `Job title ${j}` });
      return `${departments.length} departments, 30 job titles`;
    });

    let first = 0;
    await timed('employees', async () => {
      // Teams hold the people; divisions and the root are where Restricted Admin scopes start.
      first = await bulkEmployees(
        ds,
        employees,
        departments.slice(2).filter((_, i) => i % 6 !== 5),
      );
      return `${employees.toLocaleString('en-US')} employees`;
    });

    const now = new Date();
    const year = now.getUTCFullYear();
    const today = Date.UTC(year, now.getUTCMonth(), now.getUTCDate());
    const rand = prng(7);
    const weekdays: number[] = [];
    for (let day = today - 365 * DAY; day < today; day += DAY)
      if (![0, 6].includes(new Date(day).getUTCDay())) weekdays.push(day);

    await timed('attendance', async () => {
      const count = history * weekdays.length;
      await bulkInsert(
        ds,
        'attendance',
        ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'work_from_home'],
        count,
        (i) => {
          const day = weekdays[i % weekdays.length];
          const inTime = day + (450 + Math.floor(rand() * 150)) * 60_000;
          const seconds = Math.floor((new Date(day).getUTCDay() === 5 ? 6 + rand() * 1.5 : 7 + rand() * 2.5) * 3600);
          return [
            first + Math.floor(i / weekdays.length),
            sqlTime(inTime),
            sqlTime(inTime + seconds * 1000),
            seconds,
            rand() < 0.2 ? 1 : 0,
          ];
        },
      );
      return `${count.toLocaleString('en-US')} records`;
    });

    await timed('leave', async () => {
      await ds.query(
        "INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Annual', 25, 0), ('Sick', 0, 1), ('Unpaid', 0, 1)",
      );
      await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?), (?, ?, ?)', [
        String(year - 1),
        `${year - 1}-01-01`,
        `${year - 1}-12-31`,
        String(year),
        `${year}-01-01`,
        `${year}-12-31`,
      ]);
      const types = (await ds.query<Array<{ id: number | string }>>('SELECT id FROM leave_types ORDER BY id')).map((r) =>
        Number(r.id),
      );
      const count = history * 5;
      await bulkInsert(
        ds,
        'leave_requests',
        ['employee_id', 'leave_type_id', 'date_start', 'date_end', 'half_day', 'days', 'status'],
        count,
        (i) => {
          // Five requests a year, in their own tenth of it, so an employee's requests never overlap.
          const start = today - 365 * DAY + ((i % 5) * 2 + 1) * 36 * DAY + Math.floor(rand() * 20) * DAY;
          const length = 1 + Math.floor(rand() * 4);
          return [
            first + Math.floor(i / 5),
            types[i % 5 === 0 ? 1 : 0],
            isoDay(start),
            isoDay(start + (length - 1) * DAY),
            0,
            length,
            i % 9 === 0 ? 'Pending' : 'Approved',
          ];
        },
      );
      const days = await expandLeaveDays((sql, params) => ds.query(sql, params));
      return `${count.toLocaleString('en-US')} requests, ${days.toLocaleString('en-US')} leave days`;
    });

    await timed('timesheets', async () => {
      await ds.query("INSERT INTO projects (name, client) VALUES ('Platform', NULL), ('Portal', 'Acme')");
      const count = history * weekdays.length * 2;
      await bulkInsert(
        ds,
        'time_entries',
        ['employee_id', 'project_id', 'date', 'start_time', 'end_time', 'minutes', 'status'],
        count,
        (i) => {
          const slot = i % 2;
          const day = weekdays[Math.floor(i / 2) % weekdays.length];
          return [
            first + Math.floor(i / (2 * weekdays.length)),
            null,
            isoDay(day),
            slot ? '13:30' : '09:00',
            slot ? '17:30' : '12:30',
            slot ? 240 : 210,
            today - day < 14 * DAY ? 'Submitted' : 'Approved',
          ];
        },
      );
      return `${count.toLocaleString('en-US')} entries`;
    });

    await timed('payroll', async () => {
      // Division 1's payroll, processed: its employees' cells of the 30 benchmark columns, for the data grid.
      await ensureBenchColumns(app);
      const division = departments[1];
      const subtree = await app.get(ReferenceService).subtree([division]);
      const staff = (
        await ds.query<Array<{ id: number | string }>>(
          `SELECT id FROM employees WHERE department_id IN (${subtree.map(() => '?').join(', ')}) ORDER BY id`,
          subtree,
        )
      ).map((r) => Number(r.id));
      await bulkInsert(
        ds,
        'payroll_employees',
        ['employee_id', 'pay_frequency_id', 'currency', 'deduction_group_id'],
        staff.length,
        (i) => [staff[i], 4, i % 10 === 0 ? 'JPY' : 'EUR', null],
      );
      const columns = benchColumns().map((c) => c.id);
      await ds.query(
        "INSERT INTO payrolls (name, pay_period, department_id, date_start, date_end, columns, status, progress) VALUES ('Bench', 4, ?, ?, ?, ?, 'Processed', 100)",
        [division, `${year}-01-01`, `${year}-01-31`, JSON.stringify(columns)],
      );
      const [{ id }] = await ds.query<Array<{ id: number | string }>>('SELECT MAX(id) AS id FROM payrolls');
      const cells = staff.length * columns.length;
      await bulkInsert(ds, 'payroll_cells', ['payroll_id', 'employee_id', 'column_id', 'value', 'edited'], cells, (i) => [
        Number(id),
        staff[Math.floor(i / columns.length)],
        columns[i % columns.length],
        // As the engine stores them: rounded to the currency's minor unit (JPY: none).
        (1000 + rand() * 5000).toFixed(Math.floor(i / columns.length) % 10 === 0 ? 0 : 2),
        0,
      ]);
      return `payroll ${id} of Division 1: ${staff.length.toLocaleString('en-US')} employees × ${columns.length} columns`;
    });

    await timed('insights rollups', async () => {
      await rebuildInsightRollups(ds);
      return 'attendance_days, time_entry_days, leave_day_sums';
    });

    const users = app.get(UsersService);
    await users.create({ username: 'bench-admin', email: 'admin@bench.test', password: BENCH_PASSWORD, level: 'Admin' });
    await users.create({
      username: 'bench-manager',
      email: 'manager@bench.test',
      password: BENCH_PASSWORD,
      level: 'Manager',
      employeeId: first,
    });
    await users.create({
      username: 'bench-employee',
      email: 'employee@bench.test',
      password: BENCH_PASSWORD,
      level: 'Employee',
      employeeId: first + 1,
    });
    await users.create({
      username: 'bench-hradmin',
      email: 'hradmin@bench.test',
      password: BENCH_PASSWORD,
      level: 'Restricted Admin',
      departmentIds: [departments[1]],
    });
    if (config.database.type === 'mysql') {
      for (const table of ['employees', 'attendance', 'leave_requests', 'leave_days', 'time_entries', 'payroll_cells'])
        await ds.query(`ANALYZE TABLE ${table}`);
    }
    console.log(
      `users          bench-admin, bench-manager (employee ${first}), bench-employee (employee ${first + 1}), bench-hradmin (Division 1); password ${BENCH_PASSWORD}`,
    );
  } finally {
    await app.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
