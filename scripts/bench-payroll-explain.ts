/**
 * Explain and diff on large runs, run by hand: `npm run bench:payroll-explain [employees]` (SQLite
 * file in a temp dir), or with DATABASE_URL=mysql://... for MariaDB (that database is emptied
 * first!) and REDIS_URL for Bull. Loads N employees (default 12 500) with the 30 benchmark columns,
 * processes January, raises every tenth employee's basic salary and changes the income tax rate,
 * processes February, then times through HTTP (app.inject): the explanation of random cells, the
 * first diff request (the full diff computed), further pages, a filtered page and the summary;
 * then changes the basic column for everyone, processes March and times its diff against January.
 * Targets (issue 32): explain ≤ 50 ms p99 on 12 500 × 30, the diff ≤ 3 s whole and ≤ 200 ms a page.
 * Last, the production API started in a process of its own on the same database serves the same
 * reads while its RSS is sampled (inApiProcess; issue 49: ≤ 400 MiB).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { AppConfig } from '../src/config/config';
import { assertPortFree, BENCH_PASSWORD, percentile, PRODUCTION_NODE_FLAGS, rssMiB, waitFor, withBenchApp } from './bench-tools';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PayrollDiffService } from '../src/payroll/explain/payroll-diff.service';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MiB = (bytes: number) => Math.round(bytes / 1048576);
/** The heap and the typed arrays' memory after a full garbage collection. */
function held(): number {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
import { benchColumns, loadPayrollDataset } from './bench-payroll-columns';

const COUNT = Number(process.argv[2] ?? 12_500);
/** The port of the API started in a process of its own. */
const API_PORT = 3391;

/**
 * The same reads served by the production API in a process of its own, as it runs in production
 * (this process loaded and processed the payrolls): its RSS sampled every 20 ms from its start,
 * through the explanations, both diffs (first requests and pages) and the summary (issue 49: ≤ 400 MiB).
 */
async function inApiProcess(
  config: AppConfig,
  token: string,
  runs: { january: number; february: number; march: number },
  employees: number[],
  columns: number[],
  variant: string,
): Promise<void> {
  await assertPortFree(API_PORT);
  const database = config.database.type === 'mysql' ? config.database.url : `sqlite:${config.database.path}`;
  // API_NODE_FLAGS replaces npm start's node flags (its 64 MiB semi-spaces: `API_NODE_FLAGS= ` for V8's default).
  // A variant's node flags replace these; its NAME=value words are set in the API's environment.
  const words = variant.split(/\s+/).filter(Boolean);
  const extraEnv = Object.fromEntries(
    words.filter((w) => !w.startsWith('--')).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  const flags = words.some((w) => w.startsWith('--'))
    ? words.filter((w) => w.startsWith('--'))
    : process.env.API_NODE_FLAGS === undefined
      ? PRODUCTION_NODE_FLAGS
      : process.env.API_NODE_FLAGS.split(/\s+/).filter(Boolean);
  const api = spawn(process.execPath, [...flags, join(__dirname, '..', 'src', 'main.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      TZ: 'UTC',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATABASE_URL: database,
      PORT: String(API_PORT),
      HOST: '127.0.0.1',
      ...(config.redisUrl ? { REDIS_URL: config.redisUrl, QUEUE_PREFIX: config.queuePrefix } : {}),
      ...extraEnv,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const pid = api.pid as number;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  try {
    const base = `http://127.0.0.1:${API_PORT}/app/api`;
    await waitFor(`${base}/health/live`);
    const started = rssMiB(pid);
    const get = async (url: string) => {
      const res = await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${(await res.text()).slice(0, 300)}`);
      return (await res.json()) as { total?: number };
    };
    const steps: string[] = [];
    const step = (label: string) => steps.push(`${label} ${Math.round(rssMiB(pid))} (peak ${Math.round(peak)})`);
    for (let i = 0; i < 200; i++) {
      const employee = employees[Math.floor(Math.random() * employees.length)];
      await get(`/payroll_config/payrolls/${runs.february}/cells/${employee}/${columns[i % columns.length]}/explain`);
    }
    step('200 explanations');
    for (const [name, run] of [
      ['February', runs.february],
      ['March', runs.march],
    ] as const) {
      const total = (await get(`/payroll_config/payrolls/${run}/diff?against=${runs.january}&limit=100`)).total ?? 0;
      step(`${name}'s diff computed`);
      for (let i = 0; i < 50; i++)
        await get(
          `/payroll_config/payrolls/${run}/diff?against=${runs.january}&limit=100&page=${1 + Math.floor(Math.random() * Math.ceil(total / 100))}`,
        );
      await get(`/payroll_config/payrolls/${run}/diff/summary?against=${runs.january}`);
      step('50 pages and the summary');
    }
    console.log(
      `the API in a process of its own (${Object.entries(extraEnv)
        .map(([k, v]) => `${k}=${v} `)
        .join(
          '',
        )}node ${flags.join(' ') || 'without flags'}), RSS in MiB: ${Math.round(started)} when it answered; after ${steps.join('; ')}`,
    );
  } finally {
    clearInterval(sampler);
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
  }
}

async function main(): Promise<void> {
  await withBenchApp(
    'payroll-explain',
    { REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: `bench${Date.now()}` },
    async (app, config) => {
      const department = await app.get(ReferenceService).addDepartment('Bench', null);
      await loadPayrollDataset(app, department, COUNT);
      const admin = await app
        .get(UsersService)
        .create({ username: 'bench-admin', email: 'bench@x.test', password: BENCH_PASSWORD, level: 'Admin' });
      const token = (await app.get(TokenService).issue(admin)).access_token;
      const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
        const res = await app.inject({ method, url: `/app/api${url}`, headers: { authorization: `Bearer ${token}` }, payload });
        if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        return res.json<{ data: unknown; total?: number }>();
      };
      const columns = benchColumns();
      const processed = async (name: string, month: string, days: number) => {
        const { id } = (
          await call('POST', '/payroll_config/payrolls', {
            name,
            pay_period: 4,
            department,
            date_start: `2026-${month}-01`,
            date_end: `2026-${month}-${days}`,
            columns: columns.map((c) => c.id),
          })
        ).data as { id: number };
        const start = Date.now();
        await call('POST', `/payroll_config/payrolls/${id}/process`);
        for (let status = 'Processing'; status === 'Processing'; await new Promise((r) => setTimeout(r, 20)))
          status = ((await call('GET', `/payroll_config/payrolls/${id}`)).data as { status: string }).status;
        console.log(
          `${name}: ${COUNT} employees × ${columns.length} columns processed in ${((Date.now() - start) / 1000).toFixed(2)} s`,
        );
        return id;
      };
      const january = await processed('January', '01', 31);
      // The employees in the run (every seventh of the dataset is Terminated, outside it).
      const employees = (
        await app
          .get(DataSource)
          .query<Array<{ employee_id: number | string }>>(
            'SELECT DISTINCT employee_id FROM payroll_cells WHERE payroll_id = ? ORDER BY employee_id',
            [january],
          )
      ).map((r) => Number(r.employee_id));
      const t0 = Date.now();
      for (const id of employees.filter((_, i) => i % 10 === 0)) {
        const items = (await call('GET', `/employees/${id}/salary`)).data as Array<{ component: number; amount: string }>;
        // Effective in February (PUT /salary would date it today, after the runs: issue 43).
        await call('POST', `/employees/${id}/changes`, {
          effective_date: '2026-02-01',
          reason: 'Raise',
          salary: items.map((i) => ({
            component: i.component,
            amount: i.component === 1 ? (Number(i.amount) + 100).toFixed(2) : i.amount,
          })),
        });
      }
      const tax = columns.find((c) => c.variable === 'income_tax');
      await call('POST', '/payroll_config/payroll-columns', {
        id: tax?.id,
        name: tax?.name,
        variable: tax?.variable,
        script: tax?.script?.replace('0.42', '0.43'),
      });
      console.log(`raised ${Math.ceil(employees.length / 10)} salaries and changed the tax rate in ${Date.now() - t0} ms`);
      const february = await processed('February', '02', 28);

      const explain: number[] = [];
      for (let i = 0; i < 1000; i++) {
        const employee = employees[Math.floor(Math.random() * employees.length)];
        const column = columns[Math.floor(Math.random() * columns.length)].id;
        const start = process.hrtime.bigint();
        await call('GET', `/payroll_config/payrolls/${february}/cells/${employee}/${column}/explain`);
        explain.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
      explain.sort((a, b) => a - b);
      console.log(
        `explain, 1000 random cells: p50 ${percentile(explain, 50).toFixed(1)} ms, p99 ${percentile(explain, 99).toFixed(1)} ms, max ${explain.at(-1)?.toFixed(1)} ms`,
      );

      const timed = async (url: string) => {
        const start = process.hrtime.bigint();
        const answer = await call('GET', url);
        return { ms: Number(process.hrtime.bigint() - start) / 1e6, answer };
      };
      const first = await timed(`/payroll_config/payrolls/${february}/diff?against=${january}&limit=100`);
      const total = first.answer.total ?? 0;
      console.log(`diff, first request (the whole diff computed, ${total} changed cells): ${first.ms.toFixed(0)} ms`);
      const pages: number[] = [];
      for (let i = 0; i < 200; i++) {
        const page = 1 + Math.floor(Math.random() * Math.max(1, Math.ceil(total / 100)));
        pages.push((await timed(`/payroll_config/payrolls/${february}/diff?against=${january}&limit=100&page=${page}`)).ms);
      }
      pages.sort((a, b) => a - b);
      console.log(
        `diff, 200 further pages of 100: p50 ${percentile(pages, 50).toFixed(1)} ms, p99 ${percentile(pages, 99).toFixed(1)} ms`,
      );
      const filtered = await timed(`/payroll_config/payrolls/${february}/diff?against=${january}&limit=100&cause=salary`);
      console.log(`diff, cause=salary (${filtered.answer.total} cells): ${filtered.ms.toFixed(1)} ms`);
      const summary = await timed(`/payroll_config/payrolls/${february}/diff/summary?against=${january}`);
      console.log(`diff summary (${(summary.answer.data as unknown[]).length} columns): ${summary.ms.toFixed(1)} ms`);

      // The worst case: a change of the basic column moves nearly every cell of every employee.
      await call('POST', '/payroll_config/payroll-columns', {
        id: 1,
        name: 'basic',
        variable: 'basic',
        salary_components: [1, 3],
      });
      const march = await processed('March', '03', 31);
      const differ = app.get(PayrollDiffService);
      const heldBefore = held();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
      const whole = await timed(`/payroll_config/payrolls/${march}/diff?against=${january}&limit=100`);
      console.log(
        `diff, March (basic changed for all) against January, first request: ${whole.answer.total} changed cells in ${whole.ms.toFixed(0)} ms`,
      );
      const later: number[] = [];
      for (let i = 0; i < 100; i++) {
        const page = 1 + Math.floor(Math.random() * Math.ceil((whole.answer.total ?? 0) / 100));
        later.push((await timed(`/payroll_config/payrolls/${march}/diff?against=${january}&limit=100&page=${page}`)).ms);
      }
      later.sort((a, b) => a - b);
      console.log(
        `  100 further pages of 100: p50 ${percentile(later, 50).toFixed(1)} ms, p99 ${percentile(later, 99).toFixed(1)} ms`,
      );
      clearInterval(sampler);
      console.log(
        `  the diffs kept hold ${MiB(differ.cachedBytes())} MiB by their own count; the heap and typed arrays grew ` +
          `${MiB(held() - heldBefore)} MiB with this diff kept; peak RSS while it was computed and paged ${MiB(peak)} MiB (${MiB(rssBefore)} MiB before it)`,
      );
      console.log(
        `${config.database.type}${config.redisUrl ? ' + Bull' : ''}; RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB`,
      );
      // API_VARIANTS: the API started once per variant (';'-separated): node flags and NAME=value words.
      for (const variant of (process.env.API_VARIANTS ?? '').split(';'))
        await inApiProcess(
          config,
          token,
          { january, february, march },
          employees,
          columns.map((c) => c.id),
          variant,
        );
    },
  );
}

void main();
