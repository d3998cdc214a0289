/**
 * Approval chains at volume, run by hand: `npm run bench:approvals` (SQLite file in a temp dir, or
 * DATABASE_URL=mysql://... : that database is emptied first!). Loads 100 000 employees and 200 000
 * leave requests with their chains (a quarter pending, each pending one an open step), 500 of the
 * open steps the bench approver's; then times GET /approvals/pending as that approver (first page
 * of 50, the tenth page, filtered by kind) and its decisions (POST /leaves/{id}/approve, each one
 * a two-step chain's first step, then the second's: the one that approves and spends the days).
 * Targets (issue 45): the inbox p50 ≤ 20 ms, a decision p50 ≤ 30 ms.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, bulkInsert, numberArg, sqlTime, withBenchApp } from './bench-tools';

const EMPLOYEES = numberArg('employees', 100_000);
const REQUESTS = numberArg('requests', 200_000);
const MINE = numberArg('mine', 500);
const SAMPLES = numberArg('samples', 200);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

async function main(): Promise<void> {
  await withBenchApp('approvals', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const department = await app.get(ReferenceService).addDepartment('Bench', null);
    const first = await bulkEmployees(ds, EMPLOYEES, [department]);
    const year = new Date().getUTCFullYear();
    await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
      `${year}`,
      `${year}-01-01`,
      `${year}-12-31`,
    ]);
    await ds.query('INSERT INTO leave_types (name, default_days, allow_negative) VALUES (?, ?, ?)', ['Bench', 400, true]);
    const [{ type }] = await ds.query<Array<{ type: number }>>('SELECT MAX(id) AS type FROM leave_types');
    // The approver: a bulk employee (outside every request's own employees) with a Manager user.
    const approver = first;
    const user = await app.get(UsersService).create({
      username: 'bench-approver',
      email: 'bench-approver@bulk.test',
      password: BENCH_PASSWORD,
      level: 'Manager',
      employeeId: approver,
      departmentIds: [],
    });
    const token = (await app.get(TokenService).issue(user)).access_token;
    const headers = { authorization: `Bearer ${token}` };
    const admin = await app.get(UsersService).create({
      username: 'bench-admin',
      email: 'bench-admin@bulk.test',
      password: BENCH_PASSWORD,
      level: 'Admin',
      employeeId: null,
      departmentIds: [],
    });
    const adminHeaders = { authorization: `Bearer ${(await app.get(TokenService).issue(admin)).access_token}` };

    const started = Date.now();
    // Request i: employee first + 1 + i % (EMPLOYEES - 1), one working day in week i / EMPLOYEES; every 4th pending.
    const employeeOf = (i: number) => first + 1 + (i % (EMPLOYEES - 1));
    const dayOf = (i: number) => {
      const d = new Date(Date.UTC(year, 0, 5 + 7 * Math.floor(i / EMPLOYEES) * 2));
      while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
      return d.toISOString().slice(0, 10);
    };
    const pending = (i: number) => i % 4 === 0;
    const mine = (i: number) => pending(i) && i / 4 < MINE;
    const at = (i: number) => sqlTime(started - (REQUESTS - i) * 60_000);
    await bulkInsert(
      ds,
      'leave_requests',
      ['employee_id', 'leave_type_id', 'date_start', 'date_end', 'half_day', 'days', 'status', 'created_at', 'updated_at'],
      REQUESTS,
      (i) => [employeeOf(i), type, dayOf(i), dayOf(i), false, 1, pending(i) ? 'Pending' : 'Approved', at(i), at(i)],
    );
    const [{ firstRequest }] = await ds.query<Array<{ firstRequest: number }>>(
      'SELECT MIN(id) AS firstRequest FROM leave_requests',
    );
    // Its chain: the bench approver's requests have two steps (the approver, then the Admins), the others one (the supervisor).
    const stepOf = (approvers: number[], admins: boolean, opened: string | null) => ({
      mode: 'any',
      approvers,
      admins,
      substitutions: [],
      escalated: [],
      opened_at: opened,
    });
    const supervisorOf = (e: number) => first + Math.floor((e - first) / 10) * 10;
    const deciderOf = (i: number) =>
      mine(i) ? approver : supervisorOf(employeeOf(i)) === approver ? approver + 10 : supervisorOf(employeeOf(i));
    await bulkInsert(
      ds,
      'approvals',
      ['kind', 'request_id', 'employee_id', 'policy_id', 'status', 'current_step', 'steps', 'summary', 'requested_at'],
      REQUESTS,
      (i) => [
        'leave',
        firstRequest + i,
        employeeOf(i),
        null,
        pending(i) ? 'Pending' : 'Approved',
        1,
        JSON.stringify(
          mine(i)
            ? [stepOf([approver], false, new Date(started).toISOString()), stepOf([], true, null)]
            : [stepOf([deciderOf(i)], false, new Date(started).toISOString())],
        ),
        `Bench ${dayOf(i)} (1 day)`,
        at(i),
      ],
    );
    const [{ firstApproval }] = await ds.query<Array<{ firstApproval: number }>>(
      'SELECT MIN(id) AS firstApproval FROM approvals',
    );
    const open = Math.ceil(REQUESTS / 4);
    await bulkInsert(ds, 'approval_approvers', ['approval_id', 'step', 'employee_id'], open, (k) => [
      firstApproval + 4 * k,
      1,
      deciderOf(4 * k),
    ]);
    if (config.database.type !== 'mysql') await ds.query('ANALYZE');
    console.log(
      `${config.database.type}: ${EMPLOYEES} employees, ${REQUESTS} leave requests with their chains, ${open} open steps, ${MINE} of them the approver's (loaded in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );

    const time = async (label: string, url: string) => {
      const samples: number[] = [];
      let total = 0;
      for (let i = 0; i < SAMPLES; i++) {
        const start = process.hrtime.bigint();
        const res = await app.inject({ method: 'GET', url: `/app/api${url}`, headers });
        samples.push(ms(start));
        if (res.statusCode !== 200) throw new Error(res.body);
        total = res.json<{ total: number }>().total;
      }
      samples.sort((a, b) => a - b);
      console.log(
        `GET ${label}: p50 ${pct(samples, 50).toFixed(2)} ms, p95 ${pct(samples, 95).toFixed(2)} ms (total ${total}; target p50 ≤ 20 ms)`,
      );
    };
    await time('/approvals/pending (first page)', '/approvals/pending');
    await time('/approvals/pending?page=10', '/approvals/pending?page=10');
    await time(
      '/approvals/pending?filters={"kind":"leave"}',
      `/approvals/pending?filters=${encodeURIComponent('{"kind":"leave"}')}`,
    );

    const decide = async (label: string, who: Record<string, string>) => {
      const samples: number[] = [];
      for (let k = 0; k < Math.min(SAMPLES, MINE); k++) {
        const start = process.hrtime.bigint();
        const res = await app.inject({ method: 'POST', url: `/app/api/leaves/${firstRequest + 4 * k}/approve`, headers: who });
        samples.push(ms(start));
        if (res.statusCode !== 200) throw new Error(res.body);
      }
      samples.sort((a, b) => a - b);
      console.log(
        `POST /leaves/{id}/approve, ${label}: p50 ${pct(samples, 50).toFixed(2)} ms, p95 ${pct(samples, 95).toFixed(2)} ms (target p50 ≤ 30 ms)`,
      );
    };
    await decide('step 1 of 2 (the next step opens)', headers);
    await decide('step 2 of 2 by the Admins (approves: balance, ledger, day rows)', adminHeaders);
  });
}

void main();
