import { TestApp, apiCaller, createTestApp, createUser } from './helpers/test-app';
import { version } from '../package.json';

describe('meta: reference lists and what the service offers', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let employee: string;

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    admin = (await createUser(t.app, 'Admin')).token;
    employee = (await createUser(t.app, 'Employee')).token;
  });
  afterAll(() => t.close());

  it('lists ISO 3166-1 countries for any user, paged, with alpha-3 and numeric codes', async () => {
    const res = await call('GET', '/meta/countries?limit=500', employee);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'SUCCESS', total: 250, page: 1, limit: 500, nextPage: null });
    expect(body.data).toHaveLength(250);
    expect(body.data).toContainEqual({ code: 'DE', name: 'Germany', iso3: 'DEU', numeric: '276' });
    expect(body.data).toContainEqual({ code: 'JP', name: 'Japan', iso3: 'JPN', numeric: '392' });
    // The 249 ISO 3166-1 entries and Kosovo's user-assigned XK, as the package has it.
    expect(body.data).toContainEqual({ code: 'XK', name: 'Kosovo', iso3: 'XKK', numeric: '983' });
    const codes = body.data.map((c: { code: string }) => c.code);
    expect(codes).toEqual([...codes].sort());
    for (const c of body.data)
      expect(c).toEqual({
        code: expect.stringMatching(/^[A-Z]{2}$/),
        name: expect.any(String),
        iso3: expect.stringMatching(/^[A-Z]{3}$/),
        numeric: expect.stringMatching(/^\d{3}$/),
      });
    const second = (await call('GET', '/meta/countries?page=2&limit=10', employee)).json();
    expect(second.data.map((c: { code: string }) => c.code)).toEqual(codes.slice(10, 20));
  });

  it('lists ISO 4217 currencies with their minor units', async () => {
    const body = (await call('GET', '/meta/currency?limit=500', employee)).json();
    expect(body.total).toBeGreaterThan(170);
    expect(body.data).toContainEqual({ code: 'EUR', name: 'Euro', numeric: '978', minor_unit: 2 });
    expect(body.data).toContainEqual({ code: 'JPY', name: 'Yen', numeric: '392', minor_unit: 0 });
    expect(body.data).toContainEqual({ code: 'KWD', name: 'Kuwaiti Dinar', numeric: '414', minor_unit: 3 });
  });

  it('says which mobile modules are on, from settings an Admin changes', async () => {
    expect((await call('GET', '/meta/mobile-modules', employee)).json().data).toEqual({
      attendance: true,
      leaves: true,
      timesheets: true,
      staffdirectory: true,
      payslips: true,
      insights: true,
      tasks: true,
      expenses: true,
    });
    const set = await call('PUT', '/settings', admin, { name: 'Mobile App: Timesheets', value: 'No' });
    expect(set.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, t.config.settingsCacheMs + 50));
    expect((await call('GET', '/meta/mobile-modules', employee)).json().data).toMatchObject({ timesheets: false, leaves: true });
    expect((await call('PUT', '/settings', admin, { name: 'Mobile App: Leaves', value: 'maybe' })).statusCode).toBe(400);
  });

  it("describes the service's modules as the seed's extension entries: each module declares its own (issue 64)", async () => {
    const body = (await call('GET', '/meta/extensions', employee)).json();
    expect(body.data.map((e: { code: string }) => e.code)).toEqual([
      'approvals',
      'attendance',
      'audit',
      'calendars',
      'checklists',
      'custom-fields',
      'documents',
      'employees',
      'expenses',
      'identity',
      'imports',
      'insights',
      'leave',
      'notifications',
      'payroll',
      'privacy',
      'scim',
      'tasks',
      'timesheets',
      'users',
      'webhooks',
    ]);
    for (const e of body.data) {
      expect(e).toEqual({
        code: expect.any(String),
        installed: true,
        label: expect.any(String),
        features: expect.arrayContaining([expect.any(String)]),
        version,
        isGroup: false,
      });
    }
  });

  it('needs a token and refuses sort and filter parameters', async () => {
    for (const url of ['/meta/countries', '/meta/currency', '/meta/mobile-modules', '/meta/extensions']) {
      expect((await call('GET', url, '')).statusCode).toBe(401);
    }
    const bad = await call('GET', '/meta/countries?sortField=name', employee);
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});
