import { apiCaller, createTestApp, outboxEvents, createUser, TestApp } from './helpers/test-app';
import { buildCompany, Company, employeeBody } from './helpers/company';

describe('users API (Admin)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it('lists users with paging, filters and search, and never a password hash', async () => {
    const res = await call('GET', `/users?filters=${encodeURIComponent(JSON.stringify({ user_level: 'Manager' }))}`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([
      {
        id: c.users.manager.user.id,
        username: c.users.manager.user.username,
        email: c.users.manager.user.email,
        user_level: 'Manager',
        employee: String(c.emp.manager),
        active: true,
        departments: [],
        user_roles: [],
        lang: null,
        default_module: null,
        welcome_email_status: null,
      },
    ]);
    const restricted = await call('GET', `/users/${c.users.restricted.user.id}`, admin);
    expect(restricted.json().data.departments).toEqual([c.departments.engineering]);
    const search = await call('GET', `/users?search=${c.users.employee.user.username}`, admin);
    expect(search.json().data.map((u: { id: number }) => u.id)).toEqual([c.users.employee.user.id]);
    expect(res.body + restricted.body).not.toContain('scrypt$');
    expect((await call('GET', '/users', c.users.restricted.token)).statusCode).toBe(403);
    expect((await call('GET', '/users/999999', admin)).statusCode).toBe(404);
  });

  it('PUT changes level, scope, roles, language and start module; the change applies to live tokens at once', async () => {
    const ra = c.users.restricted;
    // Give the Restricted Admin Sales instead of Engineering: its list follows immediately.
    const res = await call('PUT', `/users/${ra.user.id}`, admin, {
      departments: [c.departments.sales],
      user_roles: [1],
      lang: 'pt-BR',
      default_module: 'employees',
    });
    expect(res.json().data).toMatchObject({
      departments: [c.departments.sales],
      user_roles: [1],
      lang: 'pt-BR',
      default_module: 'employees',
    });
    const list = await call('GET', '/employees?limit=500', ra.token);
    expect(list.json().data.map((e: { id: number }) => e.id)).toEqual([c.emp.outsider]);

    const bad: Array<[object, string]> = [
      [{ departments: [999999] }, 'departments'],
      [{ user_level: 'Manager' }, 'user_level'], // no linked employee
      [{ lang: 'english' }, 'lang'],
      [{ user_roles: ['x'] }, 'user_roles'],
      [{ password: 'x' }, 'password'],
    ];
    for (const [body, field] of bad) {
      const r = await call('PUT', `/users/${ra.user.id}`, admin, body);
      expect([field, r.statusCode, r.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
        field,
        400,
        expect.arrayContaining([field]),
      ]);
    }
    const mgr = await call('PUT', `/users/${c.users.manager.user.id}`, admin, { departments: [c.departments.sales] });
    expect(mgr.statusCode).toBe(400);
    const taken = await call('PUT', `/users/${c.users.manager.user.id}`, admin, {
      email: c.users.employee.user.email.toUpperCase(),
    });
    expect(taken.json().error.code).toBe('EMAIL_TAKEN');
  });

  it("deactivating ends the user's tokens at once; reactivating lets it sign in again", async () => {
    const u = await createUser(t.app, 'Employee', { employeeId: c.emp.report2 });
    expect((await call('GET', '/employees/me', u.token)).statusCode).toBe(200);
    await call('PUT', `/users/${u.user.id}`, admin, { active: false });
    expect((await call('GET', '/employees/me', u.token)).statusCode).toBe(401);
    const login = () =>
      t.app.inject({
        method: 'POST',
        url: '/app/api/oauth/token',
        payload: { grant_type: 'password', username: u.user.username, password: u.password },
      });
    expect((await login()).statusCode).toBe(401);
    await call('PUT', `/users/${u.user.id}`, admin, { active: true });
    expect((await login()).statusCode).toBe(200);
  });

  it('the last active Admin cannot be demoted, deactivated or deleted: 409 LAST_ADMIN', async () => {
    const users = (
      await call('GET', `/users?filters=${encodeURIComponent('{"user_level":"Admin","active":true}')}&limit=500`, admin)
    ).json().data;
    const me = c.users.admin.user.id;
    for (const u of users.filter((x: { id: number }) => x.id !== me)) await call('DELETE', `/users/${u.id}`, admin);
    for (const body of [{ user_level: 'Restricted Admin' }, { active: false }]) {
      const r = await call('PUT', `/users/${me}`, admin, body);
      expect(r.statusCode).toBe(409);
      expect(r.json().error.code).toBe('LAST_ADMIN');
    }
    expect((await call('DELETE', `/users/${me}`, admin)).json().error.code).toBe('LAST_ADMIN');
    // With a second Admin the first may step down.
    const second = await createUser(t.app, 'Admin');
    expect((await call('PUT', `/users/${me}`, second.token, { user_level: 'Restricted Admin' })).statusCode).toBe(200);
    expect((await call('GET', '/users', admin)).statusCode).toBe(403); // its live token follows the new level
    expect((await call('PUT', `/users/${me}`, second.token, { user_level: 'Admin' })).statusCode).toBe(200);
  });

  it('DELETE removes the user and its tokens stop working at once', async () => {
    const u = await createUser(t.app, 'Employee', { employeeId: c.emp.outsider });
    const res = await call('DELETE', `/users/${u.user.id}`, admin);
    expect(res.json()).toEqual({ status: 'SUCCESS', data: { id: u.user.id } });
    expect((await call('GET', '/employees/me', u.token)).statusCode).toBe(401);
    expect((await call('GET', `/users/${u.user.id}`, admin)).statusCode).toBe(404);
  });

  it("records user.created and, for a user made for an employee, user.must_change_password (the tasks module's cue)", async () => {
    const employee = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
    const res = await call('POST', `/employees/${employee}/create-user`, admin, { username: 'evented', email: 'evented@x.test' });
    const id = res.json().data.user.id as number;
    const events = (await outboxEvents(t.app, 'user.created', 'user.must_change_password')).filter(
      (e) => (e.data as { id?: number; user?: number }).id === id || (e.data as { user?: number }).user === id,
    );
    expect(events).toEqual([
      { event: 'user.created', data: expect.objectContaining({ id, employee }) },
      { event: 'user.must_change_password', data: { user: id } },
    ]);
  });
});
