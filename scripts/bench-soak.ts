/**
 * Load soak, by hand (10 minutes) and in `.ci/run` (60 s):
 *   DATABASE_URL=mysql://... REDIS_URL=redis://... npm run bench:soak [-- --duration 600 --rate 100]
 * Empties the DATABASE_URL database (use one of its own), fills it through the services (a
 * department of `--employees` employees with salaries and the payroll columns, leave types and
 * periods, an Admin and 100 Employee users), then starts the production build as two HTTP
 * processes (API_PROCESSES=2) and one worker (`dist/src/worker.js`), and sends a steady `--rate`
 * requests a second of mixed traffic: reads by id and lists, new employees, sign-ins, leave
 * requests and their approval, and a payroll run every minute. Prints per minute the requests,
 * errors and p99, and the resident memory of the API and worker processes at the start and the end.
 * Afterwards it checks that every write the load saw acknowledged is in the database (employees,
 * leave requests with their last acknowledged status, payrolls Processed) and that the processes
 * stop with exit 0 on SIGTERM. Exit status 1 on any error, a missing write or RSS growth > 20 %.
 */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { benchColumns, loadPayrollDataset } from './bench-payroll-columns';
import { numberArg, PRODUCTION_NODE_FLAGS, rssMiB, withBenchApp } from './bench-tools';

const DURATION_S = numberArg('duration', 600);
const RATE = numberArg('rate', 100);
const EMPLOYEES = numberArg('employees', 500);
const PORT = numberArg('port', 3992);
const USERS = 100;
const PASSWORD = 'soak-Secret-1';
const MAX_IN_FLIGHT = 200;
const DIST = join(__dirname, '..', 'src');

type Op = 'read' | 'list' | 'create' | 'signin' | 'leave' | 'decide';
/** The mix, per 100 requests. */
const MIX: Array<[Op, number]> = [
  ['read', 45],
  ['list', 20],
  ['create', 10],
  ['signin', 5],
  ['leave', 12],
  ['decide', 8],
];

interface Minute {
  requests: number;
  errors: number;
  latencies: number[];
}

/** The API (with the node flags of `npm start`) or the worker (as `npm run worker` starts it). */
function start(
  script: 'main.js' | 'worker.js',
  env: Record<string, string>,
): { proc: ChildProcess; exit: Promise<number | null> } {
  const flags = script === 'main.js' ? PRODUCTION_NODE_FLAGS : [];
  const proc = spawn(process.execPath, [...flags, join(DIST, script)], {
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { proc, exit: new Promise((resolve) => proc.once('exit', (code) => resolve(code))) };
}

const p99 = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] : 0);
const weekdays = (from: string, count: number): string[] => {
  const out: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); out.length < count; t += 86_400_000) {
    const d = new Date(t);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) out.push(d.toISOString().slice(0, 10));
  }
  return out;
};

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl?.startsWith('mysql') || !redisUrl) throw new Error('needs DATABASE_URL=mysql://... (emptied!) and REDIS_URL');
  const queuePrefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:soak`;
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: queuePrefix,
    // The load signs in from one address, far beyond what the limits allow a real client.
    LOGIN_RATE_LIMIT_PER_ADDRESS: '100000',
    LOGIN_RATE_LIMIT_PER_USERNAME: '100000',
  };

  let department = 0;
  const employeeIds: number[] = [];
  let leaveType = 0;
  const setupStart = Date.now();
  await withBenchApp('soak', { ...env, QUEUE_CONSUMER: 'false' }, async (app) => {
    department = await app.get(ReferenceService).addDepartment('Soak', null);
    employeeIds.push(...(await loadPayrollDataset(app, department, EMPLOYEES, 'SOAK')));
    const ds = app.get(DataSource);
    await ds.query("INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Unpaid', 0, 1)");
    leaveType = Number((await ds.query<Array<{ id: number }>>("SELECT id FROM leave_types WHERE name = 'Unpaid'"))[0].id);
    for (let year = 2027; year <= 2036; year++)
      await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
        String(year),
        `${year}-01-01`,
        `${year}-12-31`,
      ]);
    const users = app.get(UsersService);
    await users.create({ username: 'soak-admin', email: 'admin@soak.test', password: PASSWORD, level: 'Admin' });
    for (let i = 0; i < USERS; i++)
      await users.create({
        username: `soak-${i}`,
        email: `soak-${i}@soak.test`,
        password: PASSWORD,
        level: 'Employee',
        employeeId: employeeIds[i],
      });
  });
  console.log(`setup: ${EMPLOYEES} employees, ${USERS} users in ${((Date.now() - setupStart) / 1000).toFixed(1)} s`);

  const api = start('main.js', { ...env, PORT: String(PORT), HOST: '127.0.0.1', API_PROCESSES: '2', QUEUE_CONSUMER: 'false' });
  const worker = start('worker.js', env);
  const base = `http://127.0.0.1:${PORT}/app/api`;
  try {
    for (let t = Date.now(); ;) {
      if ((await fetch(`${base}/health/ready`).catch(() => null))?.status === 200) break;
      if (Date.now() - t > 60_000) throw new Error('the API did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
    const signIn = async (username: string): Promise<string> => {
      const res = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'password', username, password: PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const admin = await signIn('soak-admin');
    const tokens = await Promise.all(Array.from({ length: USERS }, (_, i) => signIn(`soak-${i}`)));
    const columns = benchColumns().map((c) => c.id);

    // What the load saw acknowledged, checked against the database at the end.
    const created: string[] = [];
    const leaves = new Map<number, string>(); // id → last acknowledged status
    const pending: number[] = [];
    const payrolls: number[] = [];
    const nextDay = Array.from({ length: USERS }, () => 0);
    const days = weekdays('2027-01-04', 2500);
    let seq = 0;

    const minutes: Minute[] = [];
    const errorSamples: string[] = [];
    let inFlight = 0;
    let skipped = 0;
    const t0 = Date.now();
    const byOp = new Map<string, number[]>();
    const timing = (kind: string, ms: number) => {
      const list = byOp.get(kind) ?? [];
      list.push(ms);
      byOp.set(kind, list);
    };
    const minute = () => (minutes[Math.floor((Date.now() - t0) / 60_000)] ??= { requests: 0, errors: 0, latencies: [] });

    const send = async (method: string, path: string, token: string, body?: object) => {
      const started = Date.now();
      inFlight++;
      try {
        const res = await fetch(base + path, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(30_000),
        });
        const json = (await res.json()) as { data?: Record<string, unknown>; access_token?: string };
        const m = minute();
        m.requests++;
        m.latencies.push(Date.now() - started);
        if (res.status !== 200) {
          m.errors++;
          if (errorSamples.length < 20)
            errorSamples.push(`${method} ${path} → ${res.status} ${JSON.stringify(json).slice(0, 200)}`);
          return null;
        }
        return json;
      } catch (err) {
        const m = minute();
        m.requests++;
        m.errors++;
        if (errorSamples.length < 20) errorSamples.push(`${method} ${path} → ${String(err)}`);
        return null;
      } finally {
        inFlight--;
      }
    };

    const op = async (kind: Op): Promise<void> => {
      const started = Date.now();
      await runOp(kind);
      timing(kind, Date.now() - started);
    };
    const runOp = async (kind: Op): Promise<void> => {
      const n = seq++;
      const user = n % USERS;
      switch (kind) {
        case 'read':
          await send('GET', `/employees/${employeeIds[n % employeeIds.length]}`, admin);
          return;
        case 'list':
          await send('GET', `/employees?limit=20&sortField=last_name&page=${1 + (n % 10)}`, admin);
          return;
        case 'create': {
          const employeeId = `SK${process.pid}-${n}`;
          const res = await send('POST', '/employees', admin, {
            employee_id: employeeId,
            first_name: `Soak${n}`,
            last_name: `Load${n}`,
            joined_date: '2026-01-05',
            work_email: `soak${n}.${process.pid}@soak.test`,
            department,
          });
          if (res) created.push(employeeId);
          return;
        }
        case 'signin': {
          const started = Date.now();
          const res = await fetch(`${base}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ grant_type: 'password', username: `soak-${user}`, password: PASSWORD }),
          }).catch(() => null);
          const m = minute();
          m.requests++;
          m.latencies.push(Date.now() - started);
          if (res?.status === 200) tokens[user] = ((await res.json()) as { access_token: string }).access_token;
          else {
            m.errors++;
            if (errorSamples.length < 20) errorSamples.push(`sign-in → ${res?.status ?? 'no answer'}`);
          }
          return;
        }
        case 'leave': {
          const day = days[nextDay[user]++];
          const res = await send('POST', '/leaves', tokens[user], { leave_type: leaveType, date_start: day, date_end: day });
          const id = Number(res?.data?.id);
          if (res) {
            leaves.set(id, 'Pending');
            pending.push(id);
          }
          return;
        }
        case 'decide': {
          const id = pending.shift();
          if (id === undefined) return runOp('read');
          const decision = n % 4 === 0 ? 'reject' : 'approve';
          const res = await send('POST', `/leaves/${id}/${decision}`, admin, {});
          if (res) leaves.set(id, decision === 'approve' ? 'Approved' : 'Rejected');
          return;
        }
      }
    };
    const payrollRun = async () => {
      const started = Date.now();
      await startPayroll();
      timing('payroll (create + process)', Date.now() - started);
    };
    const startPayroll = async () => {
      const res = await send('POST', '/payroll_config/payrolls', admin, {
        name: `Soak ${payrolls.length + 1}`,
        pay_period: 4,
        department,
        date_start: '2026-01-01',
        date_end: '2026-01-31',
        columns,
      });
      const id = Number(res?.data?.id);
      if (res && (await send('POST', `/payroll_config/payrolls/${id}/process`, admin, {}))) payrolls.push(id);
    };

    const weights = MIX.flatMap(([kind, w]) => Array.from({ length: w }, () => kind));
    const rssStart = { api: 0, worker: 0 };
    let sent = 0;
    // The requests under way, awaited at the end.
    const tasks = new Set<Promise<void>>();
    const track = (p: Promise<void>) => {
      tasks.add(p);
      void p.finally(() => tasks.delete(p));
    };
    let payrollStarts = 0;
    console.log(`soak: ${DURATION_S} s at ${RATE} requests/s, 2 HTTP processes + 1 worker, MariaDB + Redis`);
    console.log('minute  requests  errors  p99 ms  in flight  API RSS MiB  worker RSS MiB');
    let printed = 0;
    const report = (upTo: number) => {
      for (; printed < upTo; printed++) {
        const m = minutes[printed] ?? { requests: 0, errors: 0, latencies: [] };
        console.log(
          `${String(printed + 1).padStart(6)}  ${String(m.requests).padStart(8)}  ${String(m.errors).padStart(6)}  ${String(p99(m.latencies)).padStart(6)}  ${String(inFlight).padStart(9)}  ${rssMiB(
            api.proc.pid ?? 0,
          )
            .toFixed(0)
            .padStart(11)}  ${rssMiB(worker.proc.pid ?? 0)
            .toFixed(0)
            .padStart(14)}`,
        );
      }
    };
    payrollStarts++;
    track(payrollRun());
    while (Date.now() - t0 < DURATION_S * 1000) {
      const due = Math.floor(((Date.now() - t0) / 1000) * RATE);
      for (; sent < due; sent++) {
        if (inFlight >= MAX_IN_FLIGHT) {
          skipped++;
          continue;
        }
        track(op(weights[sent % weights.length]));
      }
      const elapsed = Date.now() - t0;
      if (!rssStart.api && elapsed >= Math.min(10_000, DURATION_S * 100)) {
        rssStart.api = rssMiB(api.proc.pid ?? 0);
        rssStart.worker = rssMiB(worker.proc.pid ?? 0);
      }
      if (Math.floor(elapsed / 60_000) >= payrollStarts && elapsed < DURATION_S * 1000 - 5000) {
        payrollStarts++;
        track(payrollRun());
      }
      report(Math.floor(elapsed / 60_000));
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all([...tasks]);
    const rssEnd = { api: rssMiB(api.proc.pid ?? 0), worker: rssMiB(worker.proc.pid ?? 0) };
    report(minutes.length);

    // Every acknowledged write is in the database.
    const ds = await new DataSource({ type: 'mysql', url: databaseUrl }).initialize();
    const missing: string[] = [];
    try {
      for (let i = 0; i < created.length; i += 1000) {
        const chunk = created.slice(i, i + 1000);
        const rows = await ds.query<Array<{ e: string }>>('SELECT employee_id AS e FROM employees WHERE employee_id IN (?)', [
          chunk,
        ]);
        const found = new Set(rows.map((r) => r.e));
        missing.push(...chunk.filter((e) => !found.has(e)).map((e) => `employee ${e}`));
      }
      const ids = [...leaves.keys()];
      for (let i = 0; i < ids.length; i += 1000) {
        const chunk = ids.slice(i, i + 1000);
        const rows = await ds.query<Array<{ id: number; status: string }>>(
          'SELECT id, status FROM leave_requests WHERE id IN (?)',
          [chunk],
        );
        const found = new Map(rows.map((r) => [Number(r.id), r.status]));
        missing.push(
          ...chunk
            .filter((id) => found.get(id) !== leaves.get(id))
            .map((id) => `leave ${id} ${leaves.get(id)} (is ${found.get(id)})`),
        );
      }
      const waitUntil = Date.now() + 120_000;
      let unprocessed: number[] = payrolls;
      while (unprocessed.length && Date.now() < waitUntil) {
        const rows = await ds.query<Array<{ id: number; status: string }>>('SELECT id, status FROM payrolls WHERE id IN (?)', [
          payrolls,
        ]);
        unprocessed = rows.filter((r) => r.status !== 'Processed').map((r) => Number(r.id));
        if (unprocessed.length) await new Promise((r) => setTimeout(r, 500));
      }
      missing.push(...unprocessed.map((id) => `payroll ${id} not Processed`));
    } finally {
      await ds.destroy();
    }

    api.proc.kill('SIGTERM');
    worker.proc.kill('SIGTERM');
    const exits = await Promise.all([api.exit, worker.exit]);
    const total = minutes.reduce((a, m) => a + (m?.requests ?? 0), 0);
    const errors = minutes.reduce((a, m) => a + (m?.errors ?? 0), 0);
    const growth = (end: number, startMiB: number) => (startMiB ? ((end - startMiB) / startMiB) * 100 : 0);
    const apiGrowth = growth(rssEnd.api, rssStart.api);
    const workerGrowth = growth(rssEnd.worker, rssStart.worker);
    console.log(
      `\n${total} requests in ${DURATION_S} s (${(total / DURATION_S).toFixed(1)}/s; ${skipped} not sent: ${MAX_IN_FLIGHT} in flight), ${errors} errors`,
    );
    console.log(
      `acknowledged: ${created.length} employees, ${leaves.size} leave requests (${[...leaves.values()].filter((s) => s !== 'Pending').length} decided), ${payrolls.length} payroll runs; missing: ${missing.length}`,
    );
    console.log(
      `RSS MiB (from ${Math.min(10, DURATION_S / 10)} s in to the end): API ${rssStart.api.toFixed(0)} → ${rssEnd.api.toFixed(0)} (${apiGrowth.toFixed(1)} %), worker ${rssStart.worker.toFixed(0)} → ${rssEnd.worker.toFixed(0)} (${workerGrowth.toFixed(1)} %)`,
    );
    console.log(`exit codes after SIGTERM: API ${exits[0]}, worker ${exits[1]}`);
    console.log('per operation: count, p50 and p99 ms');
    for (const [kind, list] of byOp) {
      const sorted = [...list].sort((a, b) => a - b);
      console.log(
        `  ${kind.padEnd(28)} ${String(list.length).padStart(6)} ${String(sorted[Math.floor(sorted.length / 2)]).padStart(6)} ${String(p99(list)).padStart(6)}`,
      );
    }
    for (const e of errorSamples) console.log(`  error: ${e}`);
    for (const m of missing.slice(0, 20)) console.log(`  missing: ${m}`);
    const failed = errors > 0 || missing.length > 0 || apiGrowth > 20 || workerGrowth > 20 || exits.some((c) => c !== 0);
    console.log(failed ? 'SOAK FAILED' : 'soak passed');
    process.exitCode = failed ? 1 : 0;
  } finally {
    if (api.proc.exitCode === null && api.proc.signalCode === null) api.proc.kill('SIGKILL');
    if (worker.proc.exitCode === null && worker.proc.signalCode === null) worker.proc.kill('SIGKILL');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
