import { bearer, createTestApp, TestApp } from './helpers/test-app';
import { buildCompany, Company, employeeBody } from './helpers/company';

/**
 * Every employee route, called by every user level on its own record, a subordinate's and an
 * unrelated one. The expected status codes are docs/api/decisions.md §5 written out as a table.
 */
type Actor = 'anonymous' | 'employee' | 'manager' | 'restricted' | 'admin';
type Target = 'manager' | 'report1' | 'grandReport' | 'outsider';
const ROUTES = [
  'GET',
  'PUT city',
  'PUT job_title',
  'GET skills',
  'POST skills',
  'POST languages',
  'GET status',
  'POST status',
  'GET history',
  'DELETE',
] as const;
type Route = (typeof ROUTES)[number];

const ALL = (code: number) => ROUTES.map(() => code);
const HIDDEN = [404, 404, 404, 404, 404, 404, 404, 404, 404, 403]; // out of scope: 404; DELETE is refused by level first

const EXPECTED: Record<Actor, Partial<Record<Target, number[]>>> = {
  anonymous: { report1: ALL(401), outsider: ALL(401) },
  // The Employee is report1; grandReport reports to it, but an Employee sees only itself.
  employee: {
    report1: [200, 200, 403, 200, 403, 200, 200, 200, 200, 403],
    grandReport: HIDDEN,
    outsider: HIDDEN,
  },
  // The Manager is manager; report1 is its direct report, grandReport is not.
  manager: {
    manager: [200, 200, 403, 200, 403, 200, 200, 200, 200, 403],
    report1: [200, 403, 403, 200, 403, 403, 200, 200, 200, 403],
    grandReport: HIDDEN,
    outsider: HIDDEN,
  },
  // The Restricted Admin holds Engineering, with Platform below it; outsider is in Sales.
  restricted: {
    manager: [200, 200, 200, 200, 200, 200, 200, 200, 200, 403],
    grandReport: [200, 200, 200, 200, 200, 200, 200, 200, 200, 403],
    outsider: HIDDEN,
  },
  admin: { outsider: ALL(200), report1: ALL(200) },
};

describe('employee routes: access matrix', () => {
  let t: TestApp;
  let c: Company;
  let otherTitle: number;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    otherTitle = (
      await t.app.inject({
        method: 'POST',
        url: '/app/api/job-titles',
        headers: bearer(c.users.admin.token),
        payload: { name: 'Other title' },
      })
    ).json().data.id;
  });
  afterAll(() => t.close());

  const token = (actor: Actor) => (actor === 'anonymous' ? {} : bearer(c.users[actor].token));
  let n = 0;

  async function call(actor: Actor, route: Route, id: number): Promise<number> {
    const headers = token(actor);
    const base = `/app/api/employees/${id}`;
    const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url, headers, payload }).then((r) => r.statusCode);
    switch (route) {
      case 'GET':
        return inject('GET', base);
      case 'PUT city':
        return inject('PUT', base, { city: `City ${++n}` });
      case 'PUT job_title': {
        const current = (await t.app.inject({ method: 'GET', url: base, headers: bearer(c.users.admin.token) })).json().data
          .job_title;
        return inject('PUT', base, { job_title: current === otherTitle ? c.jobTitle : otherTitle });
      }
      case 'GET skills':
        return inject('GET', `${base}/skills`);
      case 'POST skills': {
        const skill = (
          await t.app.inject({
            method: 'POST',
            url: '/app/api/skills',
            headers: bearer(c.users.admin.token),
            payload: { name: `Skill ${++n}` },
          })
        ).json().data.id;
        return inject('POST', `${base}/skills`, { skill_id: skill, details: 'x' });
      }
      case 'POST languages': {
        const language = (
          await t.app.inject({
            method: 'POST',
            url: '/app/api/languages',
            headers: bearer(c.users.admin.token),
            payload: { name: `Lang ${++n}` },
          })
        ).json().data.id;
        return inject('POST', `${base}/languages`, { language_id: language, reading: 'Expert' });
      }
      case 'GET status':
        return inject('GET', `${base}/status`);
      case 'POST status':
        return inject('POST', `${base}/status`, { status: `msg ${++n}` });
      case 'GET history':
        return inject('GET', `${base}/status/history`);
      case 'DELETE':
        // Only non-admins run it on the fixture's records; the Admin deletes a throwaway below.
        return inject('DELETE', base);
    }
  }

  for (const [actor, targets] of Object.entries(EXPECTED) as Array<[Actor, Partial<Record<Target, number[]>>]>) {
    for (const [target, codes] of Object.entries(targets) as Array<[Target, number[]]>) {
      it(`${actor} on ${target}`, async () => {
        const routes = actor === 'admin' ? ROUTES.filter((r) => r !== 'DELETE') : ROUTES;
        const got: Record<string, number> = {};
        const want: Record<string, number> = {};
        for (const route of routes) {
          got[route] = await call(actor, route, c.emp[target]);
          want[route] = codes[ROUTES.indexOf(route)];
        }
        expect(got).toEqual(want);
      });
    }
  }

  it('admin deletes; the list and create routes answer per level', async () => {
    const victim = (
      await t.app.inject({
        method: 'POST',
        url: '/app/api/employees',
        headers: bearer(c.users.admin.token),
        payload: employeeBody(),
      })
    ).json().data.id;
    expect(await call('admin', 'DELETE', victim)).toBe(200);
    const list: Record<Actor, number> = { anonymous: 401, employee: 200, manager: 200, restricted: 200, admin: 200 };
    const create: Record<Actor, number> = { anonymous: 401, employee: 403, manager: 403, restricted: 403, admin: 200 };
    for (const actor of Object.keys(list) as Actor[]) {
      expect([
        actor,
        (await t.app.inject({ method: 'GET', url: '/app/api/employees', headers: token(actor) })).statusCode,
      ]).toEqual([actor, list[actor]]);
      const created = await t.app.inject({
        method: 'POST',
        url: '/app/api/employees',
        headers: token(actor),
        payload: employeeBody(),
      });
      expect([actor, created.statusCode]).toEqual([actor, create[actor]]);
    }
  });

  it("a Manager changing a report's personal field gets FIELD_NOT_ALLOWED, an Employee adding a skill FORBIDDEN", async () => {
    const put = await t.app.inject({
      method: 'PUT',
      url: `/app/api/employees/${c.emp.report1}`,
      headers: token('manager'),
      payload: { city: 'Rome' },
    });
    expect(put.json().error).toMatchObject({ code: 'FIELD_NOT_ALLOWED', details: [{ field: 'city' }] });
    const skill = await t.app.inject({
      method: 'POST',
      url: `/app/api/employees/${c.emp.report1}/skills`,
      headers: token('employee'),
      payload: { skill_id: 1 },
    });
    expect(skill.json().error.code).toBe('FORBIDDEN');
  });
});
