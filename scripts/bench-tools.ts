import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { scripts } from '../package.json';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { transaction } from '../src/common/database/transaction';
import { AppConfig, loadConfig } from '../src/config/config';
import { dataSourceOptions } from '../src/database/data-source';
import { SettingsService } from '../src/settings/settings.service';
import { TokenService } from '../src/auth/token.service';
import { UsersService } from '../src/users/users.service';

/** The password of every benchmark user (bench:seed's and those the benchmarks make). */
export const BENCH_PASSWORD = 'bench-Secret-1';

/**
 * The application a benchmark runs against: DATABASE_URL from the environment (a MariaDB database
 * is emptied first!) or a SQLite file in a temporary directory, `env` on top, the REST API enabled.
 * `run` gets the app and its config; the app is closed and the directory removed afterwards, and
 * so are the Redis keys under a QUEUE_PREFIX the benchmark gave in `env` (its own queues: a run of
 * bench:payroll-scale left about a thousand Bull keys behind).
 */
export async function withBenchApp(
  name: string,
  env: Record<string, string | undefined>,
  run: (app: NestFastifyApplication, config: AppConfig) => Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), `hr-bench-${name}-`));
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.sqlite')}`,
    LOG_LEVEL: 'warn',
    ...env,
  });
  // BENCH_REUSE=1 keeps a MariaDB database an earlier run loaded (a benchmark that knows how to reuse it).
  if (config.database.type === 'mysql' && !process.env.BENCH_REUSE) {
    const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
    await ds.dropDatabase();
    await ds.destroy();
  }
  const app = await createApp(config);
  try {
    await app.get(SettingsService).set('Enable Rest Api', 'Yes');
    await run(app, config);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    if (env.QUEUE_PREFIX && config.redisUrl) await removeRedisKeys(config.redisUrl, env.QUEUE_PREFIX);
  }
}

/** Deletes every Redis key under `prefix:` (a benchmark's own queues), by SCAN in pages. */
export async function removeRedisKeys(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Multi-row INSERTs of 2 000 rows a statement, one transaction; `row(i)` gives row i of `count`. */
export async function bulkInsert(
  ds: DataSource,
  table: string,
  columns: readonly string[],
  count: number,
  row: (i: number) => unknown[],
): Promise<void> {
  const batch = 2000;
  await transaction(ds, async (em) => {
    for (let start = 0; start < count; start += batch) {
      const n = Math.min(batch, count - start);
      const params: unknown[] = [];
      for (let i = start; i < start + n; i++) params.push(...row(i));
      const placeholders = Array.from({ length: n }, () => `(${columns.map(() => '?').join(', ')})`).join(', ');
      await em.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${placeholders}`, params);
    }
  });
}

/** 'YYYY-MM-DD' of an instant (UTC). */
export const isoDay = (t: number) => new Date(t).toISOString().slice(0, 10);
/** 'YYYY-MM-DD HH:MM:SS' of an instant (UTC), as the datetime columns hold it. */
export const sqlTime = (t: number) => new Date(t).toISOString().slice(0, 19).replace('T', ' ');

/** `--name N` on the command line, else `def`. */
export function numberArg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** `--name text` on the command line, else undefined. */
export function textArg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** A process and all its descendants (the cluster's HTTP processes, a browser's), from /proc. */
function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const pids: number[] = [];
  for (const queue = [pid]; queue.length;) {
    const p = queue.pop()!;
    pids.push(p);
    queue.push(...(children.get(p) ?? []));
  }
  return pids;
}

/** The sum of a field of /proc/<pid>/<file> (kB) over the pids, in MiB. */
function sumKib(pids: number[], file: string, field: string): number {
  let kib = 0;
  for (const p of pids) {
    try {
      kib += Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${p}/${file}`, 'utf8'))?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return kib / 1024;
}

/** Resident set size in MiB of a process and its descendants (pages shared between them counted in each). */
export function rssMiB(pid: number): number {
  return sumKib(processTree(pid), 'status', 'VmRSS');
}

/**
 * Proportional set size in MiB of a process and its descendants: each shared page divided among
 * the processes sharing it, so the sum is the memory the tree really holds (a browser's many
 * processes share most of their pages; their RSS summed counts them several times).
 */
export function pssMiB(pid: number): number {
  return sumKib(processTree(pid), 'smaps_rollup', 'Pss');
}

/**
 * The node flags of the production start (`npm start` in package.json, `node <flags> dist/src/main.js`),
 * for the benchmarks that start the API as a separate process, so they measure what is shipped.
 */
export const PRODUCTION_NODE_FLAGS: readonly string[] = (() => {
  const words = scripts.start.split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/src/main.js') {
    throw new Error(`package.json start is not "node [flags] dist/src/main.js": ${scripts.start}`);
  }
  return words.slice(1, -1);
})();

/** The node flags of `npm run worker` (package.json), for the benchmarks that start a worker process. */
export const WORKER_NODE_FLAGS: readonly string[] = (() => {
  const words = scripts.worker.split('&&').pop()!.trim().split(/\s+/);
  if (words[0] !== 'node' || words[words.length - 1] !== 'dist/src/worker.js') {
    throw new Error(`package.json worker is not "... && node [flags] dist/src/worker.js": ${scripts.worker}`);
  }
  return words.slice(1, -1);
})();

/**
 * Fails when something already listens on `port`: the run would measure that server instead of the
 * one it starts (a stray service from an earlier run answered a whole run once, cold start 54 ms).
 */
/**
 * The API of a build (`root`: a checkout, this one's by default) as `npm start` runs it in
 * production (its node flags, NODE_ENV=production, LOG_LEVEL=warn) on 127.0.0.1:`port`, with `env`
 * besides; killed when this process exits, so that a benchmark stopped half-way (Ctrl-C, a closed
 * pipe) does not leave it listening.
 */
export function startProductionApi(
  port: number,
  env: Record<string, string | undefined>,
  root = join(__dirname, '..', '..'),
): ChildProcess {
  const child = spawn(process.execPath, [...PRODUCTION_NODE_FLAGS, join(root, 'dist', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      TZ: 'UTC',
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      API_PROCESSES: '1',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return child;
}

/** The `p`th percentile (50, 99) of `xs`, in any order. */
export function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

export function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () => reject(new Error(`port ${port} is in use: stop what listens there (ss -ltnp) and run again`)));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

export async function waitFor(url: string, timeoutMs = 30_000): Promise<number> {
  const t0 = Date.now();
  for (;;) {
    try {
      if ((await fetch(url)).status === 200) return Date.now() - t0;
    } catch {
      // not listening yet
    }
    if (Date.now() - t0 > timeoutMs) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An access token of a bench:seed user (BENCH_PASSWORD), signed in through the API at `base`. */
export async function benchToken(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username, password: BENCH_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} (run bench:seed first)`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** An SMTP server on loopback that accepts everything and counts the messages and their bytes. */
export async function smtpSink(): Promise<{ url: string; messages: () => number; bytes: () => number; close(): Promise<void> }> {
  let messages = 0;
  let bytes = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', (c: Buffer) => (bytes += c.length));
      stream.on('end', () => {
        messages += 1;
        callback();
      });
    },
  });
  // A sender's reset socket is an 'error' on the server; unheard, it would end the benchmark.
  server.on('error', (err) => console.warn(`smtp sink: ${err.message}`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    messages: () => messages,
    bytes: () => bytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An Admin user of the benchmark app and a caller of its API as that user (app.inject, no sockets). */
export async function adminCaller(app: NestFastifyApplication): Promise<
  (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    /** A response read as a stream (res.stream()), not kept: a large download's bytes counted, not held. */
    options?: { payloadAsStream?: boolean },
  ) => ReturnType<NestFastifyApplication['inject']>
> {
  // A database kept from an earlier run (BENCH_REUSE) has it already.
  const users = app.get(UsersService);
  const admin =
    (await users.findByUsername('bench-admin')) ??
    (await users.create({ username: 'bench-admin', email: 'bench@x.test', password: BENCH_PASSWORD, level: 'Admin' }));
  const token = (await app.get(TokenService).issue(admin)).access_token;
  return (method, url, payload, options) =>
    app.inject({ method, url: `/app/api${url}`, headers: { authorization: `Bearer ${token}` }, payload, ...options });
}

/** A multipart/form-data body: the fields, then `file` as a PDF of `content`. */
export function multipartPdf(fields: Record<string, string>, content: Buffer): { body: Buffer; type: string } {
  const boundary = `bench${randomBytes(8).toString('hex')}`;
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const filePart = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="scan.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
  return {
    body: Buffer.concat([Buffer.from(head + filePart), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}
