/**
 * Sign-ins at their real cost (issue 71), by hand, on a database bench:seed filled:
 *   DATABASE_URL=... npm run bench:sign-in [-- --duration 10 --flood 20 --beside ../other-checkout]
 * Starts the production build as `npm start` does (its node flags, NODE_ENV=production,
 * LOG_LEVEL=warn, TRUST_PROXY=1: the load stands for clients behind one proxy, each named by
 * X-Forwarded-For), files on local disk in a temp dir, uploads a 1 MB document, then, for
 * API_PROCESSES=1 and 2:
 * 1. idle: `--duration` seconds of steady reads, 100 GET /employees/{id} and 10 downloads of the
 *    document a second (open loop: each request at its time, whatever the others do): p50, p99;
 * 2. flood: the same reads while one address sends `--flood` sign-in attempts a second (unknown
 *    names, wrong passwords: each costs a hash until the address's limit answers 429): the reads'
 *    p50 and p99 beside idle's, and what the attempts were answered;
 * 3. throughput: 16 attempts at once from distinct addresses and names (none limited: every one
 *    costs one hash, as a real password check does) during `--duration` seconds: attempts a second.
 * `--processes 1,2` (the default): the API_PROCESSES to run. `--beside DIR`: the same, first, with the build of another checkout (its dist/, built), printed
 * above this one's, so that one run compares two builds on one machine and hour.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  assertPortFree,
  benchToken,
  multipartPdf,
  numberArg,
  percentile,
  startProductionApi,
  textArg,
  waitFor,
} from './bench-tools';

const DURATION_MS = numberArg('duration', 10) * 1000;
const FLOOD = numberArg('flood', 20);
const BESIDE = textArg('beside');
const PORT = numberArg('port', 3995);
/** `--processes 1,2`: the API_PROCESSES each build runs with, in turn. */
const PROCESSES = (textArg('processes') ?? '1,2').split(',').map(Number);
const READS = 100;
const DOWNLOADS = 10;
const AT_ONCE = 16;
const base = `http://127.0.0.1:${PORT}/app/api`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function startApi(root: string, processes: number, files: string): ChildProcess {
  const env = { DATABASE_URL: process.env.DATABASE_URL, FILE_STORAGE: `local:${files}`, TRUST_PROXY: '1' };
  return startProductionApi(PORT, { ...env, API_PROCESSES: String(processes) }, root);
}

interface Steady {
  times: number[];
  failed: number;
  statuses: Map<number, number>;
}

/** `rate` requests a second for `ms`, each sent at its time (open loop), their times and statuses. */
async function steady(rate: number, ms: number, send: () => Promise<Response>): Promise<Steady> {
  const out: Steady = { times: [], failed: 0, statuses: new Map() };
  const pending: Array<Promise<void>> = [];
  const start = performance.now();
  for (let i = 0; performance.now() - start < ms; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    pending.push(
      (async () => {
        const t = performance.now();
        try {
          const res = await send();
          await res.arrayBuffer();
          out.statuses.set(res.status, (out.statuses.get(res.status) ?? 0) + 1);
          if (res.status !== 200) out.failed += 1;
        } catch {
          out.failed += 1;
        }
        out.times.push(performance.now() - t);
      })(),
    );
  }
  await Promise.all(pending);
  return out;
}

const latency = (s: Steady) =>
  `p50 ${percentile(s.times, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(s.times, 99).toFixed(1).padStart(6)} ms${s.failed ? `  (${s.failed} not 200)` : ''}`;

/** A sign-in attempt that costs one hash: an unknown name from `address`. */
const attempt = (address: string) =>
  fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({
      grant_type: 'password',
      username: `nobody-${randomBytes(6).toString('hex')}`,
      password: 'wrong-Secret-1',
    }),
  });

async function run(label: string, root: string, processes: number, employee: number): Promise<void> {
  const files = mkdtempSync(join(tmpdir(), 'hr-bench-sign-in-'));
  await assertPortFree(PORT);
  const api = startApi(root, processes, files);
  try {
    await waitFor(`${base}/health/live`, 60_000);
    const admin = { authorization: `Bearer ${await benchToken(base, 'bench-admin')}` };
    // A 1 MB document of the employee read (its files on this run's disk).
    const types = (await (await fetch(`${base}/document-types?limit=100`, { headers: admin })).json()) as {
      data: Array<{ id: number; name: string }>;
    };
    let typeId = types.data.find((t) => t.name === 'Bench sign-in')?.id;
    if (typeId === undefined) {
      const made = await fetch(`${base}/document-types`, {
        method: 'POST',
        headers: { ...admin, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench sign-in' }),
      });
      typeId = ((await made.json()) as { data: { id: number } }).data.id;
    }
    const form = multipartPdf(
      { document_type: String(typeId) },
      Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1024 * 1024 - 9)]),
    );
    const uploaded = await fetch(`${base}/employees/${employee}/documents`, {
      method: 'POST',
      headers: { ...admin, 'content-type': form.type },
      body: form.body,
    });
    if (uploaded.status !== 200) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const docId = ((await uploaded.json()) as { data: { id: number } }).data.id;
    const read = () => fetch(`${base}/employees/${employee}`, { headers: admin });
    const download = () => fetch(`${base}/employees/${employee}/documents/${docId}/file`, { headers: admin });
    const reads = () => Promise.all([steady(READS, DURATION_MS, read), steady(DOWNLOADS, DURATION_MS, download)]);
    await steady(READS, 2000, read); // warm-up

    const head = `${label}, API_PROCESSES=${processes}`;
    const [idleRead, idleDownload] = await reads();
    const address = `198.51.100.${processes}`;
    const [[floodRead, floodDownload], flood] = await Promise.all([reads(), steady(FLOOD, DURATION_MS, () => attempt(address))]);
    const answered = [...flood.statuses].map(([status, n]) => `${n} × ${status}`).join(', ');
    console.log(`${head}\n  GET /employees/{id}  idle ${latency(idleRead)}   flood ${latency(floodRead)}`);
    console.log(`  document download    idle ${latency(idleDownload)}   flood ${latency(floodDownload)}`);
    console.log(`  flood: ${FLOOD} attempts/s from one address for ${DURATION_MS / 1000} s answered ${answered}`);

    // Throughput: AT_ONCE attempts at once, each from an address of its own.
    let done = 0;
    const statuses = new Map<number, number>();
    const until = performance.now() + DURATION_MS;
    let n = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (performance.now() < until) {
          const res = await attempt(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`);
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 401) done += 1;
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    console.log(
      `  throughput: ${(done / seconds).toFixed(1)} sign-in attempts/s checked (${AT_ONCE} at once, distinct addresses; ${[...statuses].map(([s, k]) => `${k} × ${s}`).join(', ')})`,
    );
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    rmSync(files, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required: the database bench:seed filled');
  const builds: Array<[string, string]> = [];
  if (BESIDE) builds.push([`beside (${BESIDE})`, resolve(BESIDE)]);
  builds.push(['this build', resolve(__dirname, '..', '..')]);
  for (const processes of PROCESSES) for (const [label, root] of builds) await run(label, root, processes, 1);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
