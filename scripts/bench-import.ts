/**
 * Imports at scale, run by hand: `npm run bench:import` (SQLite in a temp dir) or with
 * `DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench_import` (that database is emptied first!).
 * Writes a CSV of N new employees (department, job title and nationality by name, dates, e-mails,
 * every fifth with a supervisor from a row above), uploads it through HTTP as an Admin and times,
 * from the upload to the import's end: the dry run, its commit (all-or-nothing, every row checked
 * again and written), and a second file imported at once with dry_run=false. Prints rows/s and the
 * process's peak RSS (the in-process job runner: this process is the worker). Targets (issue 27):
 * dry run ≥ 5 000 rows/s, import ≥ 2 000 rows/s, worker RSS ≤ 300 MiB.
 * With REDIS_URL set, the jobs run in a separate worker process (`node dist/src/worker.js`, as
 * `npm run worker` starts it, its node flags; BENCH_WORKER_FLAGS replaces them), whose RSS is sampled from
 * /proc: the worker's figure, alone.
 * Options: `--employees N` (100 000).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { Employee } from '../src/employees/entities/employee.entity';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../src/config/config';
import { numberArg, rssMiB, withBenchApp, WORKER_NODE_FLAGS } from './bench-tools';

const EMPLOYEES = numberArg('employees', 100_000);

function csvOf(prefix: string, n: number): Buffer {
  const lines = [
    'Employee ID,First name,Last name,Joined date,Birthday,Work email,Department,Job title,Nationality,Supervisor,Gender',
  ];
  for (let i = 1; i <= n; i++) {
    const boss = i > 10 && i % 5 === 0 ? `${prefix}${String(i - 7).padStart(6, '0')}` : '';
    lines.push(
      `${prefix}${String(i).padStart(6, '0')},First${i},Last${i},2024-0${(i % 9) + 1}-1${i % 10},1990-01-0${(i % 9) + 1},` +
        `${prefix.toLowerCase()}${i}@bench.test,${i % 2 ? 'Engineering' : 'Sales'},Engineer,British,${boss},${i % 2 ? 'Female' : 'Male'}`,
    );
  }
  return Buffer.from(lines.join('\n'));
}

const REDIS = process.env.REDIS_URL;
const IMPORT_DIR = mkdtempSync(join(tmpdir(), 'hr-bench-imports-'));
const QUEUE_PREFIX = `bench-import-${process.pid}`;
const FILE_STORAGE = `local:${join(IMPORT_DIR, 'files')}`;

/** The worker process (with Redis), ready to take jobs. */
async function startWorker(config: AppConfig): Promise<ChildProcess> {
  const flags =
    process.env.BENCH_WORKER_FLAGS === undefined ? WORKER_NODE_FLAGS : process.env.BENCH_WORKER_FLAGS.split(' ').filter(Boolean);
  const worker = spawn(process.execPath, [...flags, join(__dirname, '..', 'src', 'worker.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      TZ: 'UTC',
      LOG_LEVEL: 'info',
      MIGRATIONS_RUN: 'false',
      DATABASE_URL: config.database.type === 'mysql' ? config.database.url : `sqlite:${config.database.path}`,
      REDIS_URL: REDIS,
      QUEUE_PREFIX,
      IMPORT_DIR,
      FILE_STORAGE,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    worker.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('worker consuming jobs')) resolve();
    });
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
  });
  return worker;
}

async function main(): Promise<void> {
  const env = {
    PORT: '0',
    LIST_TOTALS_CACHE_MS: '0',
    IMPORT_DIR,
    FILE_STORAGE,
    ...(REDIS ? { REDIS_URL: REDIS, QUEUE_CONSUMER: 'false', QUEUE_PREFIX } : {}),
  };
  await withBenchApp('import', env, async (app, config) => {
    const worker = REDIS ? await startWorker(config) : null;
    const rss = () => (worker ? rssMiB(worker.pid!) * 1048576 : process.memoryUsage().rss);
    const reference = app.get(ReferenceService);
    const root = await reference.addDepartment('Company', null);
    await reference.addDepartment('Engineering', root);
    await reference.addDepartment('Sales', root);
    await reference.crud('job-titles').create({ name: 'Engineer' });
    await reference.crud('nationalities').create({ name: 'British' });
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench-admin', email: 'a@bench.test', password: 'bench-Secret-1', level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${address.port}${config.apiPrefix}/imports`;
    const headers = { authorization: `Bearer ${token}` };

    let peak = 0;
    let atPeak = process.memoryUsage();
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      const now = rss();
      if (now > peak) [peak, atPeak] = [now, m];
    }, 50);
    const until = async (id: number, states: string[]) => {
      for (;;) {
        const r = (await (await fetch(`${base}/${id}`, { headers })).json()) as { data: Record<string, unknown> };
        if (states.includes(r.data.status as string)) return r.data;
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const report = (label: string, started: number, record: Record<string, unknown>, ms = Date.now() - started) => {
      global.gc?.();
      const m = process.memoryUsage();
      const p = atPeak;
      if (process.env.BENCH_MEMORY)
        console.log(
          `  at the peak: heapTotal ${(p.heapTotal / 1048576).toFixed(0)} heapUsed ${(p.heapUsed / 1048576).toFixed(0)} external ${(p.external / 1048576).toFixed(0)} MiB`,
        );
      if (process.env.BENCH_MEMORY)
        console.log(
          `  after gc: rss ${(m.rss / 1048576).toFixed(0)} heapUsed ${(m.heapUsed / 1048576).toFixed(0)} external ${(m.external / 1048576).toFixed(0)} MiB`,
        );
      console.log(
        `${label.padEnd(40)} ${String(record.rows_total).padStart(8)} ${(ms / 1000).toFixed(1).padStart(7)} ${Math.round(
          (EMPLOYEES / ms) * 1000,
        )
          .toString()
          .padStart(8)} ${String(record.status).padStart(10)} ${(peak / 1048576).toFixed(0).padStart(9)}`,
      );
    };
    console.log(
      `${config.database.type}: ${EMPLOYEES.toLocaleString('en-US')} employees per file; ${worker ? 'RSS of the worker process' : 'one process (API, in-process worker, this client): its RSS'}`,
    );
    console.log(
      `${'import'.padEnd(40)} ${'rows'.padStart(8)} ${'s'.padStart(7)} ${'rows/s'.padStart(8)} ${'status'.padStart(10)} ${'RSS MiB'.padStart(9)}`,
    );

    const upload = async (file: Buffer, query: string) => {
      const res = await fetch(`${base}?${query}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'text/csv' },
        body: file,
      });
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { id: number } }).data.id;
    };

    const first = csvOf('B', EMPLOYEES);
    global.gc?.();
    console.log(
      `(file of ${(first.length / 1048576).toFixed(1)} MiB; RSS before the imports ${(rss() / 1048576).toFixed(0)} MiB)`,
    );
    peak = rss();
    let t = Date.now();
    const id = await upload(first, 'kind=employees');
    report('dry run (checks only)', t, await until(id, ['Validated', 'Failed']));
    peak = rss();
    t = Date.now();
    const commit = await fetch(`${base}/${id}/commit`, { method: 'POST', headers });
    if (commit.status !== 202) throw new Error(`commit: ${commit.status} ${await commit.text()}`);
    report('commit (all-or-nothing)', t, await until(id, ['Completed', 'Failed']));
    peak = rss();
    t = Date.now();
    const second = await upload(csvOf('C', EMPLOYEES), 'kind=employees&dry_run=false&mode=valid-rows');
    report('dry_run=false, valid-rows', t, await until(second, ['Completed', 'Failed']));
    clearInterval(sampler);
    const stored = await app.get(DataSource).getRepository(Employee).count();
    console.log(`employees stored: ${stored} (expected ${2 * EMPLOYEES})`);
    worker?.kill('SIGTERM');
  });
  rmSync(IMPORT_DIR, { recursive: true, force: true });
}

void main();
