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
  ['read', 49],
  ['list', 20],
  ['create', 10],
  // One a second: each of the 100 users every 100 s, still far more often than hour-long tokens need.
  ['signin', 1],
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

/** The address a user signs in from: one each, as real people have (10.1.0.1 for the first). */
const addressOf = (username: string): string => {
  const n = username === 'soak-admin' ? USERS : Number(username.slice('soak-'.length));
  return `10.1.${Math.floor(n / 250)}.${1 + (n % 250)}`;
};
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
    // The load stands for many people behind one proxy: each user signs in from an address of its
    // own (X-Forwarded-For, the proxy one hop in front), as the sign-in gate's per-client share and the
    // address limits expect of real clients (docs/api/authentication.md, "Sign-in floods").
    TRUST_PROXY: '1',
    // The same user signs in again every few seconds, far beyond what the limit allows a real person.
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
        headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf(username) },
        body: JSON.stringify({ grant_type: 'password', username, password: PASSWORD }),
      });
      if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const admin = await signIn('soak-admin');
    // Eight at a time: a hundred at once would overrun the gate's queue (32 waiting per process) and be
    // answered 503 SIGN_IN_BUSY, as a real burst of that size would.
    const tokens: string[] = [];
    for (let i = 0; i < USERS; i += 8)
      tokens.push(...(await Promise.all(Array.from({ length: Math.min(8, USERS - i) }, (_, k) => signIn(`soak-${i + k}`)))));
    const columns = benchColumns().map((c) => c.id);

    // What the load saw acknowledged, checked against the database at the end.
    const created: string[] = [];
    const leaves = new Map<number, string>(); // id → last acknowledged status
    const pending: number[] = [];
    const payrolls: number[] = [];
    const nextDay = Array.from({ length: USERS }, () => 0);
    const days = weekdays('2027-01-04', 2500);
    let seq = 0;
    let signIns = 0;
    let shed = 0;

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
          // Each user in turn: the mix is dealt in a fixed order, so `user` would be the same five
          // users every time, each signing in once a second (over its share of the sign-in gate).
          const who = signIns++ % USERS;
          const started = Date.now();
          const attempt = () =>
            fetch(`${base}/oauth/token`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': addressOf(`soak-${who}`) },
              body: JSON.stringify({ grant_type: 'password', username: `soak-${who}`, password: PASSWORD }),
            }).catch(() => null);
          let res = await attempt();
          // A sign-in the gate sheds (503 SIGN_IN_BUSY, 429) says when to come back: a client does so, once.
          const retryAfter = Number(res?.headers.get('retry-after'));
          if ((res?.status === 503 || res?.status === 429) && retryAfter > 0) {
            shed++;
            await new Promise((r) => setTimeout(r, retryAfter * 1000));
            res = await attempt();
          }
          const m = minute();
          m.requests++;
          m.latencies.push(Date.now() - started);
          if (res?.status === 200) tokens[who] = ((await res.json()) as { access_token: string }).access_token;
          else {
            m.errors++;
            const why = res
              ? ((await res.json().catch(() => null)) as { error?: { message?: string } } | null)?.error?.message
              : null;
            if (errorSamples.length < 20) errorSamples.push(`sign-in → ${res?.status ?? 'no answer'} ${why ?? ''}`);
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
      `\n${total} requests in ${DURATION_S} s (${(total / DURATION_S).toFixed(1)}/s; ${skipped} not sent: ${MAX_IN_FLIGHT} in flight), ${errors} errors; ${shed} sign-ins shed and retried after Retry-After`,
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
