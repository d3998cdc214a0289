/**
 * Exports at scale, run by hand: `npm run bench:export` (SQLite in a temp dir) or with
 * `DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench_export` (that database is emptied first!).
 * Loads 100 000 employees (1 000 of them in a department of their own), then downloads through
 * HTTP, as an Admin, GET /employees as CSV and as XLSX: the 1 000 (filtered by department) and all
 * 100 000, each twice after a warm-up. Prints rows/s and the process's peak RSS above its level
 * before each download (the client only counts bytes). Targets (issue 27): CSV ≥ 20 000 rows/s,
 * XLSX ≥ 5 000 rows/s, RSS growth from 1 000 to 100 000 rows under 50 MiB. Then a payroll of
 * about 12 500 employees × the 30 benchmark columns is processed and its grid downloaded as CSV and
 * XLSX (target: XLSX in ≤ 10 s).
 * Options: `--employees N` (100 000), `--grid N` (12 500 grid rows).
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, numberArg, withBenchApp } from './bench-tools';
import { benchColumns, loadPayrollDataset } from './bench-payroll-columns';

const EMPLOYEES = numberArg('employees', 100_000);
/** Rows of the payroll grid exported (its Active employees: about 6 in 7 of those loaded). */
const GRID = numberArg('grid', 12_500);
const ACTIVE_SHARE = 4285 / 5000;

async function download(url: string, token: string): Promise<{ ms: number; bytes: number; peakMiB: number }> {
  global.gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const start = process.hrtime.bigint();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200 || !res.body) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, bytes, peakMiB: (peak - base) / 1048576 };
}

async function main(): Promise<void> {
  await withBenchApp('export', { PORT: '0', LIST_TOTALS_CACHE_MS: '0' }, async (app, config) => {
    const ds = app.get(DataSource);
    const reference = app.get(ReferenceService);
    const root = await reference.addDepartment('Company', null);
    const few = await reference.addDepartment('Few', root);
    const many = await reference.addDepartment('Many', root);
    const t0 = Date.now();
    await bulkEmployees(ds, 1000, [few], 'F');
    await bulkEmployees(ds, EMPLOYEES - 1000, [many], 'M');
    console.log(
      `${config.database.type}: ${EMPLOYEES.toLocaleString('en-US')} employees loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench-admin', email: 'a@bench.test', password: BENCH_PASSWORD, level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    const base = `http://127.0.0.1:${address.port}${config.apiPrefix}/employees`;
    const fewFilter = `filters=${encodeURIComponent(JSON.stringify({ department: few }))}`;
    console.log(
      `\n${'export'.padEnd(34)} ${'rows'.padStart(8)} ${'ms'.padStart(8)} ${'rows/s'.padStart(8)} ${'MiB'.padStart(6)} ${'peak RSS +MiB'.padStart(14)}`,
    );
    for (const format of ['csv', 'xlsx']) {
      for (const [label, rows, query] of [
        ['1 000 (one department)', 1000, fewFilter],
        ['all', EMPLOYEES, ''],
      ] as const) {
        const url = `${base}?format=${format}&sortField=last_name${query ? `&${query}` : ''}`;
        await download(url, token); // warm-up
        for (let i = 0; i < 2; i++) {
          const r = await download(url, token);
          console.log(
            `${`${format} ${label}`.padEnd(34)} ${String(rows).padStart(8)} ${r.ms.toFixed(0).padStart(8)} ${Math.round(
              (rows / r.ms) * 1000,
            )
              .toString()
              .padStart(8)} ${(r.bytes / 1048576).toFixed(1).padStart(6)} ${r.peakMiB.toFixed(1).padStart(14)}`,
          );
        }
      }
    }

    // The payroll grid of GRID rows × the 30 benchmark columns, processed, then downloaded.
    const department = await reference.addDepartment('Payroll', root);
    await loadPayrollDataset(app, department, Math.ceil(GRID / ACTIVE_SHARE), 'G');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(`http://127.0.0.1:${address.port}${config.apiPrefix}/payroll_config/payrolls`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Grid',
        pay_period: 4,
        department,
        date_start: '2026-01-01',
        date_end: '2026-01-31',
        columns: benchColumns().map((c) => c.id),
      }),
    });
    const payroll = ((await created.json()) as { data: { id: number } }).data.id;
    const runs = `http://127.0.0.1:${address.port}${config.apiPrefix}/payroll_config/payrolls/${payroll}`;
    await fetch(`${runs}/process`, { method: 'POST', headers });
    for (let status = 'Processing'; status === 'Processing';) {
      await new Promise((r) => setTimeout(r, 200));
      status = ((await (await fetch(runs, { headers })).json()) as { data: { status: string } }).data.status;
    }
    const rows = ((await (await fetch(`${runs}/employees?limit=1`, { headers })).json()) as { total: number }).total;
    for (const format of ['csv', 'xlsx']) {
      await download(`${runs}/data?format=${format}`, token); // warm-up
      for (let i = 0; i < 2; i++) {
        const r = await download(`${runs}/data?format=${format}`, token);
        console.log(
          `${`${format} payroll grid ${rows} × ${benchColumns().length}`.padEnd(34)} ${String(rows).padStart(8)} ${r.ms.toFixed(0).padStart(8)} ${Math.round(
            (rows / r.ms) * 1000,
          )
            .toString()
            .padStart(8)} ${(r.bytes / 1048576).toFixed(1).padStart(6)} ${r.peakMiB.toFixed(1).padStart(14)}`,
        );
      }
    }
  });
}

void main();
