/**
 * Imports at scale, run by hand: `npm run bench:import` (SQLite in a temp dir) or with
 * `DATABASE_URL=mysql://root:@127.0.0.1:3306/hr_bench_import` (that database is emptied first!).
 * Writes a CSV of N new employees (department, job title and nationality by name, dates, e-mails,
 * every fifth with a supervisor from a row above), uploads it through HTTP as an Admin and times,
 * from the upload to the import's end: the dry run, its commit (all-or-nothing, every row checked
 * again and written), and a second file imported at once with dry_run=false. Prints rows/s and the
 * process's peak RSS (the in-process job runner: this process is the worker). Targets (issue 27):
 * dry run ≥ 5 000 rows/s, import ≥ 2 000 rows/s, worker RSS ≤ 300 MiB.
 * Options: `--employees N` (100 000).
 */
import 'reflect-metadata';
import { TokenService } from '../src/auth/token.service';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { numberArg, withBenchApp } from './bench-tools';

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

async function main(): Promise<void> {
  await withBenchApp('import', { PORT: '0', LIST_TOTALS_CACHE_MS: '0' }, async (app, config) => {
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
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    const until = async (id: number, states: string[]) => {
      for (;;) {
        const r = (await (await fetch(`${base}/${id}`, { headers })).json()) as { data: Record<string, unknown> };
        if (states.includes(r.data.status as string)) return r.data;
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const report = (label: string, ms: number, record: Record<string, unknown>) =>
      console.log(
        `${label.padEnd(40)} ${String(record.rows_total).padStart(8)} ${(ms / 1000).toFixed(1).padStart(7)} ${Math.round(
          (EMPLOYEES / ms) * 1000,
        )
          .toString()
          .padStart(8)} ${String(record.status).padStart(10)} ${(peak / 1048576).toFixed(0).padStart(9)}`,
      );
    console.log(`${config.database.type}: ${EMPLOYEES.toLocaleString('en-US')} employees per file`);
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
    console.log(`(file of ${(first.length / 1048576).toFixed(1)} MiB)`);
    peak = process.memoryUsage().rss;
    let t = Date.now();
    const id = await upload(first, 'kind=employees');
    report('dry run (checks only)', Date.now() - t, await until(id, ['Validated', 'Failed']));
    peak = process.memoryUsage().rss;
    t = Date.now();
    const commit = await fetch(`${base}/${id}/commit`, { method: 'POST', headers });
    if (commit.status !== 202) throw new Error(`commit: ${commit.status} ${await commit.text()}`);
    report('commit (all-or-nothing)', Date.now() - t, await until(id, ['Completed', 'Failed']));
    peak = process.memoryUsage().rss;
    t = Date.now();
    const second = await upload(csvOf('C', EMPLOYEES), 'kind=employees&dry_run=false&mode=valid-rows');
    report('dry_run=false, valid-rows', Date.now() - t, await until(second, ['Completed', 'Failed']));
    clearInterval(sampler);
  });
}

void main();
