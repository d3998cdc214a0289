import { TestApp, apiCaller, createTestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';

describe('employee sub-resources and status message', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let c: Company;
  let admin: string;
  const ref: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    c = await buildCompany(t.app);
    admin = c.users.admin.token;
    for (const [path, name] of [
      ['skills', 'Go'],
      ['education-levels', 'MSc'],
      ['certifications', 'CKA'],
      ['languages', 'French'],
    ]) {
      ref[path] = (await call('POST', `/${path}`, admin, { name })).json().data.id;
    }
  });
  afterAll(() => t.close());

  const cases: Array<[string, () => Record<string, unknown>]> = [
    ['skills', () => ({ skill_id: ref.skills, details: '5 years' })],
    [
      'educations',
      () => ({
        education_level: ref['education-levels'],
        institute: 'TU Berlin',
        date_start: '2010-10-01',
        date_end: '2012-09-30',
      }),
    ],
    [
      'certifications',
      () => ({ certification_id: ref.certifications, institute: 'CNCF', date_start: '2021-01-01', date_end: '2024-01-01' }),
    ],
    [
      'languages',
      () => ({
        language_id: ref.languages,
        reading: 'Expert',
        speaking: 'Advanced',
        writing: 'Intermediate',
        understanding: 'Native',
      }),
    ],
  ];

  it.each(cases)('%s: POST answers the item with its id, GET lists it, DELETE removes it', async (path, body) => {
    const url = `/employees/${c.emp.report2}/${path}`;
    const created = await call('POST', url, admin, body());
    expect(created.statusCode).toBe(200);
    const item = created.json().data;
    expect(item).toEqual({ id: expect.any(Number), ...body() });
    const list = await call('GET', url, c.users.manager.token);
    expect(list.json()).toMatchObject({ status: 'SUCCESS', total: 1, data: [item] });
    expect((await call('DELETE', `${url}/${item.id}`, admin)).json()).toEqual({ status: 'SUCCESS', data: { id: item.id } });
    expect((await call('GET', url, admin)).json().total).toBe(0);
    expect((await call('DELETE', `${url}/${item.id}`, admin)).statusCode).toBe(404);
  });

  it('an item of another employee cannot be deleted through this one', async () => {
    const item = (await call('POST', `/employees/${c.emp.report2}/skills`, admin, { skill_id: ref.skills })).json().data;
    expect((await call('DELETE', `/employees/${c.emp.outsider}/skills/${item.id}`, admin)).statusCode).toBe(404);
    expect((await call('GET', `/employees/${c.emp.report2}/skills`, admin)).json().total).toBe(1);
  });

  it('validates items: references exist, levels and dates are valid, end not before start', async () => {
    const url = `/employees/${c.emp.report2}`;
    const bad = async (path: string, body: object, field: string) => {
      const res = await call('POST', `${url}/${path}`, admin, body);
      expect([path, res.statusCode, res.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
        path,
        400,
        expect.arrayContaining([field]),
      ]);
    };
    await bad('skills', { skill_id: 999999 }, 'skill_id');
    await bad('skills', {}, 'skill_id');
    await bad('languages', { language_id: ref.languages, reading: 'Fluent-ish' }, 'reading');
    await bad('educations', { institute: 'X', date_start: '2020-13-01' }, 'date_start');
    await bad('educations', { institute: 'X', date_start: '2020-01-01', date_end: '2019-01-01' }, 'date_end');
    await bad('certifications', { certification_id: ref.certifications, extra: 1 }, 'extra');
  });

  it('the employee maintains its own languages and educations, not its skills', async () => {
    const own = `/employees/${c.emp.report1}`;
    const token = c.users.employee.token;
    expect((await call('POST', `${own}/languages`, token, { language_id: ref.languages, speaking: 'Native' })).statusCode).toBe(
      200,
    );
    expect((await call('POST', `${own}/educations`, token, { institute: 'School' })).statusCode).toBe(200);
    expect((await call('POST', `${own}/skills`, token, { skill_id: ref.skills })).statusCode).toBe(403);
  });

  it('status: null until set, then the newest message; the history keeps every message with its author', async () => {
    const url = `/employees/${c.emp.report1}/status`;
    const empty = await call('GET', url, c.users.employee.token);
    expect(empty.json().data).toEqual({ status: null, updated_at: null });
    await call('POST', url, c.users.employee.token, { status: 'In Lisbon' });
    const second = await call('POST', url, c.users.manager.token, { status: '  Back on Monday  ' });
    expect(second.json().data).toEqual({ status: 'Back on Monday', updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    expect((await call('GET', url, admin)).json().data.status).toBe('Back on Monday');
    const history = await call('GET', `${url}/history`, c.users.employee.token);
    expect(history.json().data.map((h: { status: string; created_by: number }) => [h.status, h.created_by])).toEqual([
      ['Back on Monday', c.users.manager.user.id],
      ['In Lisbon', c.users.employee.user.id],
    ]);
    const long = await call('POST', url, admin, { status: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details[0].field).toBe('status');
  });

  it('a deleted employee takes its sub-records with it', async () => {
    const { employeeBody } = await import('./helpers/company');
    const id = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
    await call('POST', `/employees/${id}/skills`, admin, { skill_id: ref.skills });
    await call('POST', `/employees/${id}/status`, admin, { status: 'bye' });
    const remainingBefore = await call('GET', `/employees/${c.emp.report2}/skills`, admin);
    for (const item of remainingBefore.json().data) await call('DELETE', `/employees/${c.emp.report2}/skills/${item.id}`, admin);
    const inUse = await call('DELETE', `/skills/${ref.skills}`, admin);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.code).toBe('IN_USE');
    expect((await call('DELETE', `/employees/${id}`, admin)).statusCode).toBe(200);
    // The skill was held only by the removed employee's item, which went with it.
    expect((await call('DELETE', `/skills/${ref.skills}`, admin)).statusCode).toBe(200);
  });
});
