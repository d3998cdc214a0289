/**
 * Employee documents at scale, run by hand, on a database bench:seed filled:
 * `DATABASE_URL=sqlite:/tmp/bench.sqlite npm run bench:documents` (or a MariaDB URL).
 * 1. Adds N documents (default 1 000 000, ten per employee of the first 100 000; once: a second run
 *    finds them) of a type "Bench passport": 5 % Expiring within 30 days, 5 % Expired, the rest valid.
 * 2. Starts the API as `npm start` does (its node flags), files on local disk in a temp dir, and times
 *    `GET /documents?filters={"status":"Expiring"}` (a page of 50 and its total) as the Admin and as
 *    the Restricted Admin of Division 1, p50/p99 of 200 requests each after a warm-up.
 * 3. Uploads a 20 MB PDF and downloads it again, five times, through HTTP: MB/s each way.
 * 4. Ten 20 MB uploads at once: the API process's RSS (from /proc) before and at its peak.
 * Targets (issue 28): a page ≤ 50 ms; ≥ 50 MB/s each way; RSS growth < 30 MiB during the ten uploads.
 * Options: `--documents N`, `--port P` (3993).
 */
import 'reflect-metadata';
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/config';
import { dataSourceOptions } from '../src/database/data-source';
import {
  assertPortFree,
  benchToken,
  bulkInsert,
  isoDay,
  multipartPdf,
  numberArg,
  percentile,
  rssMiB,
  startProductionApi,
  waitFor,
} from './bench-tools';

const DOCUMENTS = numberArg('documents', 1_000_000);
const PORT = numberArg('port', 3993);
const SIZE = 20 * 1024 * 1024;
const TYPE_NAME = 'Bench passport';
const DAY = 86_400_000;

/** The benchmark's documents, inserted once: ten per employee, statuses as the expiry job would set them today. */
async function addDocuments(ds: DataSource): Promise<number> {
  let [type] = await ds.query<Array<{ id: number | string }>>('SELECT id FROM document_types WHERE name = ?', [TYPE_NAME]);
  if (type) return Number(type.id);
  await ds.query(
    'INSERT INTO document_types (name, expires, notify_days_before, visible_to_employee, visible_to_manager, employee_may_upload) VALUES (?, ?, ?, ?, ?, ?)',
    [TYPE_NAME, 1, '[30,7,1]', 1, 0, 0],
  );
  [type] = await ds.query<Array<{ id: number | string }>>('SELECT id FROM document_types WHERE name = ?', [TYPE_NAME]);
  const employees = (await ds.query<Array<{ id: number | string }>>('SELECT id FROM employees ORDER BY id')).map((r) =>
    Number(r.id),
  );
  const perEmployee = Math.ceil(DOCUMENTS / employees.length);
  const now = Date.now();
  const t0 = Date.now();
  await bulkInsert(
    ds,
    'documents',
    ['employee_id', 'document_type_id', 'name', 'file_key', 'file_name', 'content_type', 'size', 'sha256'].concat([
      'valid_from',
      'valid_until',
      'status',
      'version',
      'created_at',
      'updated_at',
    ]),
    DOCUMENTS,
    (i) => {
      const kind = i % 20;
      const days = kind === 0 ? 1 + (i % 30) : kind === 1 ? -1 - (i % 365) : 31 + (i % 3600);
      const status = kind === 0 ? 'Expiring' : kind === 1 ? 'Expired' : 'Valid';
      const stamp = new Date(now).toISOString().slice(0, 19).replace('T', ' ');
      return [
        employees[Math.floor(i / perEmployee) % employees.length],
        Number(type.id),
        TYPE_NAME,
        randomBytes(24).toString('hex'),
        'passport.pdf',
        'application/pdf',
        100_000,
        '0'.repeat(64),
        isoDay(now + (days - 3650) * DAY),
        isoDay(now + days * DAY),
        status,
        1,
        stamp,
        stamp,
      ];
    },
  );
  if (ds.options.type === 'mysql') await ds.query('ANALYZE TABLE documents');
  else await ds.query('ANALYZE documents');
  console.log(`documents      ${DOCUMENTS.toLocaleString('en-US')} added in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return Number(type.id);
}

function startApi(databaseUrl: string, files: string): ChildProcess {
  return startProductionApi(PORT, { DATABASE_URL: databaseUrl, FILE_STORAGE: `local:${files}` });
}

async function main(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required: the database bench:seed filled');
  await assertPortFree(PORT);
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' });
  const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
  let typeId: number;
  let employee: number;
  try {
    typeId = await addDocuments(ds);
    employee = Number((await ds.query<Array<{ id: number | string }>>('SELECT MIN(id) AS id FROM employees'))[0].id);
  } finally {
    await ds.destroy();
  }

  const files = mkdtempSync(join(tmpdir(), 'hr-bench-documents-'));
  const api = startApi(databaseUrl, files);
  const base = `http://127.0.0.1:${PORT}/app/api`;
  try {
    await waitFor(`${base}/health/live`);
    const started = rssMiB(api.pid!);
    const token = async (username: string) => `Bearer ${await benchToken(base, username)}`;
    const admin = await token('bench-admin');

    // The HR view: what is expiring, soonest first.
    const expiring = `${base}/documents?filters=${encodeURIComponent('{"status":"Expiring"}')}&limit=50`;
    for (const [who, auth] of [
      ['Admin', admin],
      ['Restricted Admin', await token('bench-hradmin')],
    ] as const) {
      const times: number[] = [];
      let total = 0;
      for (let i = 0; i < 220; i++) {
        const t = process.hrtime.bigint();
        const res = await fetch(expiring, { headers: { authorization: auth } });
        const page = (await res.json()) as { total: number; data: unknown[] };
        if (res.status !== 200 || page.data.length !== 50) throw new Error(`GET /documents: ${res.status}`);
        if (i >= 20) times.push(Number(process.hrtime.bigint() - t) / 1e6);
        total = page.total;
      }
      console.log(
        `GET /documents?status=Expiring ${who.padEnd(16)} p50 ${percentile(times, 50).toFixed(1)} ms   p99 ${percentile(times, 99).toFixed(1)} ms   (total ${total.toLocaleString('en-US')})`,
      );
    }

    const afterLists = rssMiB(api.pid!);
    // One 20 MB file up and down, five times.
    const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(SIZE - 9)]);
    const upload = async (): Promise<{ id: number }> => {
      const form = multipartPdf({ document_type: String(typeId), valid_until: isoDay(Date.now() + 400 * DAY) }, content);
      const res = await fetch(`${base}/employees/${employee}/documents`, {
        method: 'POST',
        headers: { authorization: admin, 'content-type': form.type },
        body: form.body,
      });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { id: number } }).data;
    };
    const mbps = (ms: number) => ((SIZE / 1e6 / ms) * 1000).toFixed(0);
    for (let round = 0; round < 5; round++) {
      let t = process.hrtime.bigint();
      const doc = await upload();
      const upMs = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      const res = await fetch(`${base}/employees/${employee}/documents/${doc.id}/file`, { headers: { authorization: admin } });
      let n = 0;
      for await (const chunk of res.body!) n += (chunk as Uint8Array).length;
      const downMs = Number(process.hrtime.bigint() - t) / 1e6;
      if (n !== SIZE) throw new Error(`downloaded ${n} bytes of ${SIZE}`);
      console.log(`20 MB document  upload ${mbps(upMs).padStart(4)} MB/s   download ${mbps(downMs).padStart(4)} MB/s`);
    }

    // Ten at once: what the API process holds meanwhile.
    const before = rssMiB(api.pid!);
    console.log(
      `API RSS ${started.toFixed(0)} MiB after start, ${afterLists.toFixed(0)} MiB after the lists, ${before.toFixed(0)} MiB after the uploads above`,
    );
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(api.pid!))), 20);
    const t = Date.now();
    await Promise.all(Array.from({ length: 10 }, () => upload()));
    clearInterval(sampler);
    console.log(
      `10 concurrent 20 MB uploads in ${((Date.now() - t) / 1000).toFixed(1)} s: API RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB (+${(peak - before).toFixed(1)} MiB)`,
    );
  } finally {
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    rmSync(files, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
