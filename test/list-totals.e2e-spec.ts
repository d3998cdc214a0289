import { DataSource } from 'typeorm';
import { employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, sleep, TestApp } from './helpers/test-app';

/** GET /employees `total`: reused for LIST_TOTALS_CACHE_MS, exact after this process's own writes. */
describe('employee list totals', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const total = async (qs = '') => (await call('GET', `/employees?limit=1${qs}`, admin)).json().total as number;

  beforeAll(async () => {
    t = await createTestApp({ LIST_TOTALS_CACHE_MS: '1500' });
    call = apiCaller(t.app);
    admin = (await createUser(t.app, 'Admin')).token;
    for (let i = 0; i < 3; i++) expect((await call('POST', '/employees', admin, employeeBody())).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it("follows the process's own creates, updates and deletes at once", async () => {
    expect(await total()).toBe(3);
    const created = (await call('POST', '/employees', admin, employeeBody())).json().data;
    expect(await total()).toBe(4);
    const active = encodeURIComponent(JSON.stringify({ status: 'Active' }));
    expect(await total(`&filters=${active}`)).toBe(4);
    await call('PUT', `/employees/${created.id}`, admin, { status: 'Terminated', termination_date: '2026-01-31' });
    expect(await total(`&filters=${active}`)).toBe(3);
    await call('DELETE', `/employees/${created.id}`, admin);
    expect(await total()).toBe(3);
  });

  it('shows rows written around it (another process, SQL) once the time to live has passed', async () => {
    expect(await total()).toBe(3);
    await t.app
      .get(DataSource)
      .query("INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('OUT1', 'A', 'B', '2020-01-01')");
    expect(await total()).toBe(3);
    await sleep(1600);
    expect(await total()).toBe(4);
  });
});
