import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCompany, Company } from './helpers/company';
import { bearer, createUser, createTestApp, INTEGRATION, TestApp } from './helpers/test-app';

/**
 * Issue 49: the validated-token cache (TOKEN_CACHE_MS, here its maximum, 5 s) never outlives a
 * revocation, a password change, a deactivation, a change of level, or a moved employee: the very
 * next request is refused or rescoped, in the process that made the change and in another one
 * (a second application on the same database; with Redis, which carries the invalidations, under
 * `npm run test:integration`; without Redis another process keeps a token up to TOKEN_CACHE_MS).
 */
describe('The token cache and the access check: invalidated on the next request', () => {
  let a: TestApp;
  let b: TestApp;
  let c: Company;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hr-token-cache-'));
    // Two applications on one database: SQLite in a file here, the worker's MariaDB in integration.
    const shared: Record<string, string> = INTEGRATION ? {} : { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` };
    a = await createTestApp({ ...shared, TOKEN_CACHE_MS: '5000' });
    b = await createTestApp({ ...shared, TOKEN_CACHE_MS: '5000', QUEUE_PREFIX: a.config.queuePrefix }, { keepDatabase: true });
    c = await buildCompany(a.app);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (t: TestApp, token: string, url: string) =>
    t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: bearer(token) });
  const send = (t: TestApp, method: 'POST' | 'PUT', url: string, token: string | null, payload: object) =>
    t.app.inject({ method, url: `/app/api${url}`, headers: token ? bearer(token) : {}, payload });
  const signIn = async (username: string, password: string): Promise<string> => {
    const res = await send(a, 'POST', '/oauth/token', null, { grant_type: 'password', username, password });
    expect(res.statusCode).toBe(200);
    return res.json().access_token as string;
  };

  // Each case runs with the change made in `a`, and the next request in `a` (this process) or `b` (another).
  const where = INTEGRATION ? (['this process', 'another process'] as const) : (['this process'] as const);
  const other = (place: (typeof where)[number]) => (place === 'this process' ? a : b);

  describe.each(where)('the next request in %s', (place) => {
    it('a revoked token is refused', async () => {
      const u = await createUser(a.app, 'Employee');
      const token = await signIn(u.user.username, u.password);
      expect((await get(other(place), token, '/tasks')).statusCode).toBe(200); // cached there now
      expect((await send(a, 'POST', '/oauth/revoke', null, { token })).statusCode).toBe(200);
      expect((await get(other(place), token, '/tasks')).statusCode).toBe(401);
    });

    it("a changed password ends the user's other tokens, the caller's own keeps working", async () => {
      const u = await createUser(a.app, 'Employee');
      const elsewhere = await signIn(u.user.username, u.password);
      expect((await get(other(place), elsewhere, '/tasks')).statusCode).toBe(200);
      expect((await get(other(place), u.token, '/tasks')).statusCode).toBe(200);
      const change = await send(a, 'POST', '/users/me/password', u.token, {
        current_password: u.password,
        new_password: 'a-new-Secret-9',
      });
      expect(change.statusCode).toBe(200);
      expect((await get(other(place), elsewhere, '/tasks')).statusCode).toBe(401);
      expect((await get(other(place), u.token, '/tasks')).statusCode).toBe(200);
    });

    it('a deactivated user is refused', async () => {
      const u = await createUser(a.app, 'Admin');
      expect((await get(other(place), u.token, '/tasks')).statusCode).toBe(200);
      expect((await send(a, 'PUT', `/users/${u.user.id}`, c.users.admin.token, { active: false })).statusCode).toBe(200);
      expect((await get(other(place), u.token, '/tasks')).statusCode).toBe(401);
    });

    it('a user whose level and departments changed is rescoped', async () => {
      const u = await createUser(a.app, 'Admin');
      expect((await get(other(place), u.token, `/employees/${c.emp.manager}`)).statusCode).toBe(200);
      const change = await send(a, 'PUT', `/users/${u.user.id}`, c.users.admin.token, {
        user_level: 'Restricted Admin',
        departments: [c.departments.sales],
      });
      expect(change.statusCode).toBe(200);
      expect((await get(other(place), u.token, `/employees/${c.emp.manager}`)).statusCode).toBe(404);
      expect((await get(other(place), u.token, `/employees/${c.emp.outsider}`)).statusCode).toBe(200);
    });

    it("a moved employee leaves its old manager's and department's scope and enters the new ones", async () => {
      const moved = (
        await send(a, 'POST', '/employees', c.users.admin.token, {
          employee_id: `MOVE-${place.length}-${Date.now()}`,
          first_name: 'Moved',
          last_name: 'Person',
          joined_date: '2024-01-15',
          work_email: `moved-${place.length}-${Date.now()}@test.example`,
          department: c.departments.platform,
          supervisor: c.emp.manager,
        })
      ).json().data.id as number;
      const { manager, restricted } = c.users;
      expect((await get(other(place), manager.token, `/employees/${moved}`)).statusCode).toBe(200);
      expect((await get(other(place), restricted.token, `/employees/${moved}`)).statusCode).toBe(200);
      const move = await send(a, 'PUT', `/employees/${moved}`, c.users.admin.token, {
        department: c.departments.sales,
        supervisor: c.emp.outsider,
      });
      expect(move.statusCode).toBe(200);
      expect((await get(other(place), manager.token, `/employees/${moved}`)).statusCode).toBe(404);
      expect((await get(other(place), restricted.token, `/employees/${moved}`)).statusCode).toBe(404);
      // And back: visible again on the next request.
      await send(a, 'PUT', `/employees/${moved}`, c.users.admin.token, {
        department: c.departments.platform,
        supervisor: c.emp.manager,
      });
      expect((await get(other(place), manager.token, `/employees/${moved}`)).statusCode).toBe(200);
      expect((await get(other(place), restricted.token, `/employees/${moved}`)).statusCode).toBe(200);
    });
  });
});
