/**
 * GET /employees at scale, run by hand: `npm run bench:employees` (SQLite file in a temp dir), or
 * with DATABASE_URL=mysql://... for MariaDB (that database is emptied first!). Loads 100 000
 * employees, then times list requests through HTTP (bearer token, scope, paging) with autocannon
 * (10 connections, 5 s each, in the same process) and prints req/s, latency and the process RSS.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { optimizeSqlite } from '../src/common/database/sqlite-statistics';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { ReferenceService } from '../src/reference/reference.service';
import { UserDepartment } from '../src/users/entities/user-department.entity';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';
import { BENCH_PASSWORD, withBenchApp } from './bench-tools';

const COUNT = Number(process.argv[2] ?? 100_000);

async function main(): Promise<void> {
  await withBenchApp('employees', { PORT: '3991' }, async (app, config) => {
    const ref = app.get(ReferenceService);
    const dep = (name: string, parent: number | null) => ref.addDepartment(name, parent);
    const root = await dep('Root', null);
    const a = await dep('A', root);
    const b = await dep('B', a);
    const c = await dep('C', root);
    const t0 = Date.now();
    const first = await bulkEmployees(app.get(DataSource), COUNT, [a, b, c]);
    console.log(`${config.database.type}: loaded ${COUNT} employees in ${Date.now() - t0} ms`);
    // Planner statistics as a running service has them (SQLite: refreshed at start and hourly).
    const ds = app.get(DataSource);
    if (config.database.type === 'mysql') await ds.query('ANALYZE TABLE employees');
    else await optimizeSqlite(ds);

    const users = app.get(UsersService);
    const tokens = app.get(TokenService);
    const make = (username: string, level: User['userLevel'], employeeId?: number) =>
      users.create({ username, email: `${username}@x.test`, password: BENCH_PASSWORD, level, employeeId });
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
  });
}

void main();
