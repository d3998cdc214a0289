/**
 * GET /employees at scale, run by hand: `npm run bench:employees` (SQLite file in a temp dir), or
 * with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!). Loads 100 000
 * employees, then times list requests through HTTP (bearer token, scope, paging) with autocannon
 * (10 connections, 5 s each, in the same process) and prints req/s, latency and the process RSS.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.factory';
import { TokenService } from '../src/auth/token.service';
import { loadConfig } from '../src/config/config';
import { dataSourceOptions } from '../src/database/data-source';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { SettingsService } from '../src/settings/settings.service';
import { UserDepartment } from '../src/users/entities/user-department.entity';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';

const COUNT = Number(process.argv[2] ?? 100_000);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hr-bench-'));
  const config = loadConfig({
    DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${join(dir, 'bench.sqlite')}`,
    PORT: '3991',
    LOG_LEVEL: 'warn',
  });
  if (config.database.type === 'mysql') {
    const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
    await ds.dropDatabase();
    await ds.destroy();
  }
  const app = await createApp(config);
  try {
    await app.get(SettingsService).set('Enable Rest Api', 'Yes');
    const ref = app.get(ReferenceService);
    const dep = (name: string, parent: number | null) => ref.addDepartment(name, parent);
    const root = await dep('Root', null);
    const a = await dep('A', root);
    const b = await dep('B', a);
    const c = await dep('C', root);
    const t0 = Date.now();
    const first = await bulkEmployees(app.get(DataSource), COUNT, [a, b, c]);
    console.log(`${config.database.type}: loaded ${COUNT} employees in ${Date.now() - t0} ms`);

    const users = app.get(UsersService);
    const tokens = app.get(TokenService);
    const make = (username: string, level: User['userLevel'], employeeId?: number) =>
      users.create({ username, email: `${username}@x.test`, password: 'bench-Secret-1', level, employeeId });
    const admin = await make('bench-admin', 'Admin');
    const ra = await make('bench-ra', 'Restricted Admin');
    await app.get(DataSource).getRepository(UserDepartment).insert({ userId: ra.id, departmentId: a });
    const mgr = await make('bench-mgr', 'Manager', first);
    const token = async (u: User) => (await tokens.issue(u)).access_token;
    const [adminToken, raToken, mgrToken] = [await token(admin), await token(ra), await token(mgr)];

    await app.listen(config.port, config.host);
    const base = `http://${config.host}:${config.port}${config.apiPrefix}/employees`;
    const filters = encodeURIComponent(JSON.stringify({ status: 'Active', department: [a, b] }));
    const runs: Array<[string, string, string]> = [
      ['Admin, first page', '?limit=50', adminToken],
      ['Admin, page 1000, sorted by last_name', '?page=1000&limit=50&sortField=last_name', adminToken],
      ['Admin, filtered, sorted desc', `?filters=${filters}&sortField=joined_date&sortOrder=descend`, adminToken],
      ['Admin, search', '?search=Last100', adminToken],
      ['Restricted Admin (subtree)', '?limit=50', raToken],
      ['Manager (direct reports)', '?limit=50', mgrToken],
    ];
    for (const [name, qs, tok] of runs) {
      const r = await autocannon({ url: base + qs, headers: { authorization: `Bearer ${tok}` }, connections: 10, duration: 5 });
      console.log(
        `${name.padEnd(40)} ${String(Math.round(r.requests.average)).padStart(6)} req/s  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx + r.errors}`,
      );
    }
    console.log(`RSS ${Math.round(process.memoryUsage().rss / 1048576)} MiB`);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
