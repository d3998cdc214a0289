/**
 * The service against the bare-stack floor, in one run, by hand:
 *   DATABASE_URL=... npm run bench:seed -- --employees 100000 --reset
 *   DATABASE_URL=... npm run bench:http [-- --connections 50 --duration 10 --rounds 3 --only employees]
 * Starts the production build as `npm start` does (its node flags read from package.json,
 * NODE_ENV=production, LOG_LEVEL=warn) and the floors (`dist/scripts/bench-floor.js`, with the
 * same node flags: bare Fastify, the same primary-key SELECT; the same in one NestJS controller;
 * the same in a controller of the service's own application, @Public() and authenticated) as
 * separate processes, drives them with autocannon from this one, alternating which goes first each
 * round,
 * and prints per scenario the median over the rounds of requests/s, p50 and p99 (ms), the non-2xx
 * count, and for the by-id read the ratio service / floor. Also the cold start: spawn to the
 * first 200 on /health/live. The database must hold bench:seed's data and users. API_PROCESSES,
 * OTEL_EXPORTER_OTLP_ENDPOINT (tracing on), DATABASE_READ_URLS (replicas) and REDIS_URL are passed on.
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { assertPortFree, benchToken, numberArg, PRODUCTION_NODE_FLAGS, rssMiB, textArg, waitFor } from './bench-tools';

const CONNECTIONS = numberArg('connections', 50);
const DURATION = numberArg('duration', 10);
const ROUNDS = numberArg('rounds', 3);
const ONLY = textArg('only');
const SERVICE_PORT = 3990;
const FLOOR_PORT = 3991;
const NEST_FLOOR_PORT = 3992;
/** The service's own application with a floor route (bench-floor.ts, FLOOR=app and app-auth). */
const APP_FLOOR_PORT = 3993;
const APP_AUTH_FLOOR_PORT = 3994;
const DIST = join(__dirname, '..');
const PASSED_ON = [
  'API_PROCESSES',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_NODE_DISABLED_INSTRUMENTATIONS',
  'DATABASE_READ_URLS',
  'REDIS_URL',
];

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

let stopping = false;

function start(script: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, join(DIST, script)], {
    env: { PATH: process.env.PATH ?? '', TZ: 'UTC', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // A server that stops during the run would leave its figures meaningless: the run ends there.
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`${script} exited during the run: ${code ?? signal}`);
    process.exit(1);
  });
  return child;
}

async function drive(opts: autocannon.Options): Promise<Figures> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (runs: Figures[]): Figures => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
});

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required: the database bench:seed filled');
  for (const port of [SERVICE_PORT, FLOOR_PORT, NEST_FLOOR_PORT, APP_FLOOR_PORT, APP_AUTH_FLOOR_PORT]) await assertPortFree(port);
  const t0 = Date.now();
  const serviceEnv = {
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    LOGIN_RATE_LIMIT_PER_USERNAME: '1000',
    // Passed on when set: several processes, tracing (an OTLP endpoint), read replicas.
    ...Object.fromEntries(PASSED_ON.filter((k) => process.env[k]).map((k) => [k, process.env[k] as string])),
  };
  const service = start('src/main.js', { ...serviceEnv, PORT: String(SERVICE_PORT) });
  const base = `http://127.0.0.1:${SERVICE_PORT}/app/api`;
  // The floors start once the service answers: starting all three at once on two cores had made
  // the cold start 0.25-0.3 s longer than the service's own (983-1 056 ms against 723-790 ms).
  const coldStart = await waitFor(`${base}/health/live`)
    .then(() => Date.now() - t0)
    .catch((err: Error) => {
      stopping = true;
      service.kill('SIGKILL');
      throw err;
    });
  const floor = start('scripts/bench-floor.js', { DATABASE_URL: databaseUrl, PORT: String(FLOOR_PORT) });
  const nestFloor = start('scripts/bench-floor.js', { DATABASE_URL: databaseUrl, PORT: String(NEST_FLOOR_PORT), FLOOR: 'nest' });
  // One process at a time: the service's application runs its migrations check and jobs at start.
  const appFloor = start('scripts/bench-floor.js', { ...serviceEnv, PORT: String(APP_FLOOR_PORT), FLOOR: 'app' });
  await waitFor(`http://127.0.0.1:${APP_FLOOR_PORT}/app/api/health/live`).catch(() => undefined);
  const appAuthFloor = start('scripts/bench-floor.js', { ...serviceEnv, PORT: String(APP_AUTH_FLOOR_PORT), FLOOR: 'app-auth' });
  try {
    await waitFor(`http://127.0.0.1:${FLOOR_PORT}/employees/1`).catch(() => undefined);
    await waitFor(`http://127.0.0.1:${NEST_FLOOR_PORT}/employees/1`).catch(() => undefined);
    await waitFor(`http://127.0.0.1:${APP_AUTH_FLOOR_PORT}/app/api/health/live`).catch(() => undefined);
    // With API_PROCESSES, every process listens before a connection is made (node:cluster never moves one).
    await waitFor(`${base}/health/ready`, 60_000);
    const token = (username: string) => benchToken(base, username);
    const admin = { authorization: `Bearer ${await token('bench-admin')}` };
    const employee = { authorization: `Bearer ${await token('bench-employee')}` };
    const get = async <T>(path: string): Promise<T> =>
      ((await (await fetch(base + path, { headers: admin })).json()) as { data: T }).data;
    const [first] = await get<Array<{ id: number }>>('/employees?limit=1');
    const id = first.id + 42;
    const departments = (await get<Array<{ id: number; parent: number | null }>>('/departments?limit=500')).filter(
      (d) => d.parent !== null,
    );
    const filters = encodeURIComponent(JSON.stringify({ status: 'Active', department: departments.slice(-2).map((d) => d.id) }));
    const [payroll] = await get<Array<{ id: number }>>('/payroll_config/payrolls?limit=1');
    let unique = 0;
    const scenarios: Array<{ name: string; opts: autocannon.Options; floor?: string }> = [
      { name: 'GET /employees/{id}', opts: { url: `${base}/employees/${id}`, headers: admin }, floor: `/employees/${id}` },
      { name: 'GET /employees/me', opts: { url: `${base}/employees/me`, headers: employee } },
      {
        name: 'GET /employees?limit=50&sortField=last_name',
        opts: { url: `${base}/employees?limit=50&sortField=last_name`, headers: admin },
      },
      {
        // At 50 connections the p50 is the queue (50 / throughput); what one of ten clients waits.
        name: '  the same, 10 connections',
        opts: { url: `${base}/employees?limit=50&sortField=last_name`, headers: admin, connections: 10 },
      },
      {
        name: '  the same, page 1000',
        opts: { url: `${base}/employees?limit=50&sortField=last_name&page=1000`, headers: admin },
      },
      {
        name: '  filtered: Active, two departments',
        opts: { url: `${base}/employees?limit=50&sortField=last_name&filters=${filters}`, headers: admin },
      },
      { name: 'GET /employees?search=Last12', opts: { url: `${base}/employees?limit=50&search=Last12`, headers: admin } },
      {
        name: 'POST /employees',
        opts: {
          url: `${base}/employees`,
          method: 'POST',
          headers: { ...admin, 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (req) => {
                unique += 1;
                const n = `${process.pid}-${Date.now()}-${unique}`;
                return {
                  ...req,
                  body: JSON.stringify({
                    employee_id: `H${n}`,
                    first_name: 'Bench',
                    last_name: `Post${unique}`,
                    joined_date: '2024-01-15',
                    work_email: `h${n}@bench.test`,
                  }),
                };
              },
            },
          ],
        },
      },
      {
        name: 'GET /employees/{id}/leaves/summary',
        opts: { url: `${base}/employees/${first.id}/leaves/summary`, headers: admin },
      },
      {
        name: 'GET /payroll_config/payrolls/{id}/data',
        opts: { url: `${base}/payroll_config/payrolls/${payroll.id}/data?limit=50`, headers: admin },
      },
      {
        name: '  the same, page 100',
        opts: { url: `${base}/payroll_config/payrolls/${payroll.id}/data?limit=50&page=100`, headers: admin },
      },
      { name: 'GET /insights/leave-summary/1year', opts: { url: `${base}/insights/leave-summary/1year`, headers: admin } },
    ];
    const kind = databaseUrl.startsWith('mysql') ? 'MariaDB' : 'SQLite';
    console.log(
      `${kind}, ${CONNECTIONS} connections, ${DURATION} s × ${ROUNDS} rounds per scenario (medians), cold start ${coldStart} ms${process.env.API_PROCESSES ? `, API_PROCESSES=${process.env.API_PROCESSES}` : ''}`,
    );
    console.log(
      `${'scenario'.padEnd(44)} ${'req/s'.padStart(8)} ${'p50'.padStart(6)} ${'p99'.padStart(6)} ${'non-2xx'.padStart(8)} ${'RSS MiB'.padStart(8)}  ratio`,
    );
    const line = (name: string, f: Figures, ratio = '', rss = '') =>
      console.log(
        `${name.padEnd(44)} ${Math.round(f.rps).toString().padStart(8)} ${f.p50.toString().padStart(6)} ${f.p99.toString().padStart(6)} ${f.non2xx.toString().padStart(8)} ${rss.padStart(8)}  ${ratio}`,
      );
    for (const s of scenarios) {
      if (ONLY && !s.name.includes(ONLY)) continue;
      const own: Figures[] = [];
      const bare: Figures[] = [];
      const nest: Figures[] = [];
      const app: Figures[] = [];
      const appAuth: Figures[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const floorRun = async () => {
          if (!s.floor) return;
          bare.push(await drive({ url: `http://127.0.0.1:${FLOOR_PORT}${s.floor}` }));
          nest.push(await drive({ url: `http://127.0.0.1:${NEST_FLOOR_PORT}${s.floor}` }));
          app.push(await drive({ url: `http://127.0.0.1:${APP_FLOOR_PORT}/app/api/floor${s.floor}` }));
          appAuth.push(await drive({ url: `http://127.0.0.1:${APP_AUTH_FLOOR_PORT}/app/api/floor${s.floor}`, headers: admin }));
        };
        if (round % 2) await floorRun();
        own.push(await drive(s.opts));
        if (!(round % 2)) await floorRun();
      }
      const mine = summary(own);
      // The service's resident memory (all its processes) right after its last round of the scenario.
      const rss = rssMiB(service.pid ?? 0).toFixed(0);
      if (s.floor) {
        const f = summary(bare);
        line(s.name, mine, (mine.rps / f.rps).toFixed(2), rss);
        line('  the floor (bare Fastify, same SELECT)', f);
        const n = summary(nest);
        line('  the NestJS floor (one controller, same SELECT)', n, (n.rps / f.rps).toFixed(2));
        const a = summary(app);
        line("  the service's app, @Public() (same SELECT)", a, (a.rps / f.rps).toFixed(2));
        const aa = summary(appAuth);
        line("  the service's app, authenticated (same)", aa, (aa.rps / f.rps).toFixed(2));
      } else line(s.name, mine, '', rss);
    }
  } finally {
    stopping = true;
    service.kill('SIGTERM');
    floor.kill('SIGTERM');
    nestFloor.kill('SIGTERM');
    appFloor.kill('SIGTERM');
    appAuthFloor.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
