import { describeIf, itIf, NEEDS_SERVERS } from './helpers/skip';
import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { PasswordHasher } from '../src/auth/password-hasher';
import { dataSourceOptions } from '../src/database/data-source';
import { assertUtf8mb4, transaction } from '../src/common/database/transaction';
import { Department } from '../src/reference/entities/reference.entities';
import { UserAccountsService } from '../src/users/user-accounts.service';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';
import { WelcomeMailService } from '../src/users/welcome-mail.service';
import { employeeBody } from './helpers/company';
import { SmtpSink, startSmtp } from './helpers/smtp';
import { apiCaller, createTestApp, createUser, INTEGRATION, sleep, TestApp } from './helpers/test-app';

/** Regression tests of issue 8 that need an application of their own (API off, limits, SMTP, databases). */
describe('hardening (issue 8): platform', () => {
  describe('item 2: the "Enable Rest Api" gate decides on the decoded, normalized path', () => {
    let t: TestApp;
    beforeAll(async () => (t = await createTestApp({}, { enableApi: false })));
    afterAll(() => t.close());

    it('answers 503 API_DISABLED for encoded letters, //, /./, %2e, .., a trailing slash and a query string', async () => {
      const probes: Array<['GET' | 'POST', string]> = [
        ['GET', '/app/%61pi/echo'],
        ['POST', '/app/%61pi/oauth/token'],
        ['GET', '/%61pp/api/echo'],
        ['GET', '/app/api/ech%6F'],
        ['GET', '/app//api/echo'],
        ['GET', '/app/api//echo'],
        ['GET', '//app/api/echo'],
        ['GET', '/app/./api/echo'],
        ['GET', '/app/api/%2e/echo'],
        ['GET', '/app/api/%2E%2E/api/echo'],
        ['GET', '/app/api/health/../echo'],
        ['GET', '/app/api/health/%2e%2e/echo'],
        ['GET', '/app/api/echo/'],
        ['GET', '/app/api/echo?x=1'],
        ['GET', '/app/api/echo/?x=/health/live'],
        ['GET', '/app/%2561pi/echo'],
      ];
      for (const [method, url] of probes) {
        const res = await t.app.inject({ method, url, payload: method === 'POST' ? { grant_type: 'password' } : undefined });
        expect({ url, status: res.statusCode, code: res.json().error?.code }).toEqual({ url, status: 503, code: 'API_DISABLED' });
      }
      expect((await t.app.inject({ method: 'GET', url: '/app/api/health/live' })).statusCode).toBe(200);
      // Past the gate (not 503) with a query string; refused as a parameter the route does not read (issue 41).
      const ready = await t.app.inject({ method: 'GET', url: '/app/api/health/ready?x=1' });
      expect([ready.statusCode, ready.json().error.details]).toEqual([400, [{ field: 'x', message: 'is not allowed' }]]);
    });
  });

  describe('item 7: the last Admin under concurrency', () => {
    it('refuses to delete the employee of the only active Admin with 409 LAST_ADMIN, and deletes it once another Admin exists', async () => {
      // An application of its own: the only Admin is the one created here.
      const solo = await createTestApp();
      try {
        const soloCall = apiCaller(solo.app);
        const bootstrap = await createUser(solo.app, 'Admin');
        const employee = (await soloCall('POST', '/employees', bootstrap.token, employeeBody())).json().data.id as number;
        const admin = await createUser(solo.app, 'Admin', { employeeId: employee });
        await soloCall('PUT', `/users/${bootstrap.user.id}`, admin.token, { active: false });
        const refused = await soloCall('DELETE', `/employees/${employee}`, admin.token);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.code).toBe('LAST_ADMIN');
        expect((await soloCall('GET', `/employees/${employee}`, admin.token)).statusCode).toBe(200);
        expect(
          (await solo.app.get<Repository<User>>(getRepositoryToken(User)).findOneByOrFail({ id: admin.user.id })).active,
        ).toBe(true);
        await soloCall('PUT', `/users/${bootstrap.user.id}`, admin.token, { active: true });
        expect((await soloCall('DELETE', `/employees/${employee}`, admin.token)).statusCode).toBe(200);
      } finally {
        await solo.close();
      }
    });

    it('two concurrent deactivations of the only two Admins: one succeeds, the other answers LAST_ADMIN', async () => {
      const t = await createTestApp();
      try {
        const a = await createUser(t.app, 'Admin');
        const b = await createUser(t.app, 'Admin');
        const accounts = t.app.get(UserAccountsService);
        const results = await Promise.allSettled([
          accounts.update(a.user.id, { active: false }),
          accounts.update(b.user.id, { active: false }),
        ]);
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        expect((rejected.reason as { code: string }).code).toBe('LAST_ADMIN');
        const users = t.app.get<Repository<User>>(getRepositoryToken(User));
        expect(await users.count({ where: { userLevel: 'Admin', active: true } })).toBe(1);
      } finally {
        await t.close();
      }
    });
  });

  describe('item 8: transactions do not interleave on one SQLite connection', () => {
    it('two overlapping transactions awaiting timers: the thrower is rolled back alone, the other commits', async () => {
      const t = await createTestApp();
      try {
        const ds = t.app.get(DataSource);
        const run = (name: string, ms: number, fail: boolean) =>
          transaction(ds, async (em) => {
            await em.insert(Department, { name, parentId: null });
            await sleep(ms);
            await em.insert(Department, { name: `${name}-second`, parentId: null });
            if (fail) throw new Error('boom');
          });
        const [a, b] = await Promise.allSettled([run('tx-fails', 60, true), run('tx-commits', 120, false)]);
        expect(a.status).toBe('rejected');
        expect(b.status).toBe('fulfilled');
        const names = (await ds.getRepository(Department).find()).map((d) => d.name).sort();
        expect(names).toEqual(['tx-commits', 'tx-commits-second']);
      } finally {
        await t.close();
      }
    });
  });

  describe('item 9: throttling', () => {
    it('TRUST_PROXY as a hop count: a rotating X-Forwarded-For does not escape the per-address sign-in limit', async () => {
      const t = await createTestApp({
        TRUST_PROXY: '1',
        LOGIN_RATE_LIMIT_PER_ADDRESS: '3',
        LOGIN_RATE_LIMIT_PER_USERNAME: '1000',
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await t.app.inject({
            method: 'POST',
            url: '/app/api/oauth/token',
            headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
            payload: { grant_type: 'password', username: `nobody${i}`, password: 'whatever-pass' },
          });
          statuses.push(res.statusCode);
          if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
        expect(statuses).toEqual([401, 401, 401, 429, 429]);
      } finally {
        await t.close();
      }
    });

    it('limits POST /users/me/password per user', async () => {
      const t = await createTestApp({ PASSWORD_CHANGE_RATE_LIMIT: '3' });
      try {
        const call = apiCaller(t.app);
        const u = await createUser(t.app, 'Admin');
        const statuses: number[] = [];
        for (let i = 0; i < 5; i++) {
          const res = await call('POST', '/users/me/password', u.token, {
            current_password: `wrong-${i}-guess`,
            new_password: 'Another-pass-1',
          });
          statuses.push(res.statusCode);
        }
        expect(statuses).toEqual([400, 400, 400, 429, 429]);
        const other = await createUser(t.app, 'Admin');
        expect(
          (
            await call('POST', '/users/me/password', other.token, {
              current_password: 'x-wrong-1',
              new_password: 'Another-pass-1',
            })
          ).statusCode,
        ).toBe(400);
      } finally {
        await t.close();
      }
    });

    itIf(INTEGRATION, NEEDS_SERVERS)('with Redis, two API processes count sign-ins together', async () => {
      const shared = { QUEUE_PREFIX: `${process.env.QUEUE_PREFIX ?? 'hr'}:rl${Date.now()}`, LOGIN_RATE_LIMIT_PER_USERNAME: '4' };
      const one = await createTestApp(shared);
      const two = await createTestApp(shared, { keepDatabase: true });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const app = i % 2 ? two.app : one.app;
          const res = await app.inject({
            method: 'POST',
            url: '/app/api/oauth/token',
            payload: { grant_type: 'password', username: 'shared-user', password: 'whatever-pass' },
          });
          statuses.push(res.statusCode);
        }
        expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
      } finally {
        await two.close();
        await one.close();
      }
    });
  });

  describe('item 13: a late welcome e-mail retry', () => {
    let smtp: SmtpSink;
    let t: TestApp;
    beforeAll(async () => {
      smtp = await startSmtp();
      t = await createTestApp({ SMTP_URL: smtp.url, MAIL_STATUS_WAIT_MS: '5000' });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    it('does not overwrite a password the user chose meanwhile, and sends nothing', async () => {
      const users = t.app.get<Repository<User>>(getRepositoryToken(User));
      const hasher = t.app.get(PasswordHasher);
      const user = await t.app.get(UsersService).create({
        username: 'late-retry',
        email: 'late-retry@test.example',
        password: 'unusable-Secret-1',
        level: 'Employee',
        mustChangePassword: true,
        welcomeEmailStatus: 'pending',
        inTransaction: (em, made) => t.app.get(WelcomeMailService).queue(em, made.id),
      });
      const chosen = await hasher.hash('my-chosen-Secret-9');
      const original = hasher.hash.bind(hasher);
      // The user changes its password while the job is making the temporary one.
      const spy = jest.spyOn(hasher, 'hash').mockImplementationOnce(async (password: string) => {
        await users.update({ id: user.id }, { passwordHash: chosen, mustChangePassword: false, passwordChangedAt: new Date() });
        return original(password);
      });
      try {
        await t.app.get(WelcomeMailService).send(user.id);
      } finally {
        spy.mockRestore();
      }
      const after = await users.findOneByOrFail({ id: user.id });
      expect(after.passwordHash).toBe(chosen);
      expect(after.mustChangePassword).toBe(false);
      expect(smtp.messages.filter((m) => m.to.includes('late-retry@test.example'))).toEqual([]);
      // The e-mail ends failed with the reason, and the user not_sent.
      expect(after.welcomeEmailStatus).toBe('not_sent');
    });
  });

  describeIf(INTEGRATION, NEEDS_SERVERS)('item 14: MariaDB character set', () => {
    const name = `hr_latin1_${Date.now()}`;
    let server: DataSource;
    beforeAll(async () => {
      server = await new DataSource(dataSourceOptions({ type: 'mysql', url: process.env.DATABASE_URL! })).initialize();
      await server.query(`CREATE DATABASE \`${name}\` CHARACTER SET latin1 COLLATE latin1_swedish_ci`);
    });
    afterAll(async () => {
      await server.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await server.destroy();
    });

    it('an employee named with emoji and CJK round-trips, even in a database whose default is latin1', async () => {
      const url = process.env.DATABASE_URL!.replace(/\/[^/?]+(\?.*)?$/, `/${name}`);
      const t = await createTestApp({ DATABASE_URL: url });
      try {
        const call = apiCaller(t.app);
        const admin = await createUser(t.app, 'Admin');
        const body = employeeBody({ first_name: '山田 🚀', last_name: 'Ünïcödé 李', city: '東京 😀' });
        const created = await call('POST', '/employees', admin.token, body);
        expect(created.statusCode).toBe(200);
        const read = (await call('GET', `/employees/${created.json().data.id}`, admin.token)).json().data;
        expect([read.first_name, read.last_name, read.city]).toEqual(['山田 🚀', 'Ünïcödé 李', '東京 😀']);
      } finally {
        await t.close();
      }
    });

    it('refuses a connection that is not utf8mb4, saying so', async () => {
      const latin1 = await new DataSource({
        ...dataSourceOptions({ type: 'mysql', url: process.env.DATABASE_URL! }),
        charset: 'latin1_swedish_ci',
      } as never).initialize();
      try {
        await expect(assertUtf8mb4(latin1)).rejects.toThrow(/utf8mb4/);
        await expect(assertUtf8mb4(server)).resolves.toBeUndefined();
      } finally {
        await latin1.destroy();
      }
    });
  });
});
