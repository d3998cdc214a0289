/**
 * Where the CPU of one kind of request goes, by hand:
 *   DATABASE_URL=... npm run bench:seed -- --employees 100000 --reset
 *   DATABASE_URL=... npm run bench:profile -- --path '/employees/{id}' [--user bench-admin] [--duration 6] [--top 40]
 * Starts the production build as bench:http does (on port 3993, with the inspector on loopback),
 * warms it with 3 s of autocannon (50 connections), then records a V8 CPU profile through the
 * inspector during `--duration` seconds of the same load only (start-up and warm-up left out), and
 * prints: req/s, the CPU time per request (from /proc, the profiler's own cost included), the
 * response's body and header bytes, then self time by package (our files by module) and by function,
 * as shares of the busy time. `{id}` is an employee id, `{payroll}` a payroll id. The profile is
 * written to `--out` (default bench-profile.cpuprofile, for Chrome DevTools).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Profile, report } from './cpu-profile';
import { assertPortFree, benchToken, numberArg, PRODUCTION_NODE_FLAGS, textArg, waitFor } from './bench-tools';

const PORT = 3993;
const INSPECTOR_PORT = 9339;
const DURATION = numberArg('duration', 6);
const TOP = numberArg('top', 40);

/** user + system CPU ticks of a process (1/100 s). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

async function inspectorCall(ws: WebSocket, pending: Map<number, (r: unknown) => void>, id: number, method: string, params = {}) {
  return new Promise<unknown>((resolve) => {
    pending.set(id, resolve);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required: the database bench:seed filled');
  const path = textArg('path') ?? '/employees/{id}';
  await assertPortFree(PORT);
  const service = spawn(
    process.execPath,
    [...PRODUCTION_NODE_FLAGS, `--inspect=127.0.0.1:${INSPECTOR_PORT}`, join(__dirname, '..', 'src/main.js')],
    {
      env: {
        PATH: process.env.PATH ?? '',
        TZ: 'UTC',
        DATABASE_URL: databaseUrl,
        PORT: String(PORT),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT_PER_USERNAME: '1000',
        ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      },
      stdio: ['ignore', 'inherit', 'ignore'],
    },
  );
  try {
    const base = `http://127.0.0.1:${PORT}/app/api`;
    await waitFor(`${base}/health/live`);
    const headers = { authorization: `Bearer ${await benchToken(base, textArg('user') ?? 'bench-admin')}` };
    const first = async (list: string) =>
      ((await (await fetch(`${base}${list}?limit=1`, { headers })).json()) as { data: Array<{ id: number }> }).data[0].id;
    let url = path;
    if (url.includes('{id}')) url = url.replace('{id}', String((await first('/employees')) + 42));
    if (url.includes('{payroll}')) url = url.replace('{payroll}', String(await first('/payroll_config/payrolls')));
    const one = await fetch(base + url, { headers });
    const body = await one.text();
    let headerBytes = 0;
    one.headers.forEach((value, name) => (headerBytes += name.length + value.length + 4));
    await autocannon({ url: base + url, headers, connections: 50, duration: 3 });

    const [target] = (await (await fetch(`http://127.0.0.1:${INSPECTOR_PORT}/json/list`)).json()) as Array<{
      webSocketDebuggerUrl: string;
    }>;
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve) => ws.addEventListener('open', resolve));
    const pending = new Map<number, (r: unknown) => void>();
    ws.addEventListener('message', (e: MessageEvent) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown };
      if (m.id !== undefined) pending.get(m.id)?.(m.result);
    });
    let seq = 0;
    const call = (method: string, params = {}) => inspectorCall(ws, pending, ++seq, method, params);
    await call('Profiler.enable');
    await call('Profiler.setSamplingInterval', { interval: 100 });
    await call('Profiler.start');
    const before = cpuTicks(service.pid!);
    const run = await autocannon({ url: base + url, headers, connections: 50, duration: DURATION });
    const cpu = cpuTicks(service.pid!) - before;
    const { profile } = (await call('Profiler.stop')) as { profile: Profile };
    ws.close();
    writeFileSync(textArg('out') ?? 'bench-profile.cpuprofile', JSON.stringify(profile));
    console.log(`GET ${url}: status ${one.status}, body ${body.length} bytes, headers about ${headerBytes} bytes`);
    console.log(
      `${Math.round(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, non-2xx ${run.non2xx}, ` +
        `CPU ${((cpu * 10_000) / run.requests.total).toFixed(1)} µs per request (profiler on)`,
    );
    report(profile, TOP);
  } finally {
    service.kill('SIGTERM');
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
