import { DataSource } from 'typeorm';
import { UserDepartment } from '../src/users/entities/user-department.entity';
import { ReferenceRepository } from '../src/reference/reference.repository';
import { employeeBody } from './helpers/company';
import { TestApp, apiCaller, bearer, createTestApp, createUser } from './helpers/test-app';

describe('reference data', () => {
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

  it.each(['job-titles', 'employment-statuses', 'nationalities', 'languages', 'skills', 'certifications', 'education-levels'])(
    '/%s: Admin creates, renames and deletes; anyone authenticated reads',
    async (path) => {
      const created = await call('POST', `/${path}`, admin, { name: `  First ${path}  ` });
      expect(created.statusCode).toBe(200);
      const { id } = created.json().data;
      expect(created.json().data).toEqual({ id, name: `First ${path}` });
      expect((await call('PUT', `/${path}/${id}`, admin, { name: 'Renamed' })).json().data).toEqual({ id, name: 'Renamed' });
      const list = await call('GET', `/${path}?search=renam`, employee);
      expect(list.json()).toMatchObject({ status: 'SUCCESS', total: 1, data: [{ id, name: 'Renamed' }] });
      expect((await call('GET', `/${path}/${id}`, employee)).json().data.name).toBe('Renamed');
      expect((await call('POST', `/${path}`, employee, { name: 'x' })).statusCode).toBe(403);
      expect((await call('DELETE', `/${path}/${id}`, admin)).json()).toEqual({ status: 'SUCCESS', data: { id } });
      expect((await call('GET', `/${path}/${id}`, admin)).statusCode).toBe(404);
    },
  );

  it("an employee's nationality by name: read once a while per process, a rename here seen at once, another process's within SETTINGS_CACHE_MS", async () => {
    // The process's clock stands still while the name is kept (SETTINGS_CACHE_MS is 200 ms in the
    // tests: on MariaDB beside another worker, three reads took longer), then moves past it.
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now').mockReturnValue(now);
    const lookups = jest.spyOn(ReferenceRepository.prototype, 'nameOf');
    try {
      const nationality = (await call('POST', '/nationalities', admin, { name: 'Frisian' })).json().data.id;
      const created = await call('POST', '/employees', admin, employeeBody({ nationality: 'Frisian' }));
      expect(created.statusCode).toBe(200);
      const read = async () => (await call('GET', `/employees/${created.json().data.id}`, admin)).json().data.nationality;
      lookups.mockClear();
      for (let i = 0; i < 3; i++) expect(await read()).toBe('Frisian');
      expect(lookups).toHaveBeenCalledTimes(0);
      // Renamed through this process: the next read has the new name.
      expect((await call('PUT', `/nationalities/${nationality}`, admin, { name: 'West Frisian' })).statusCode).toBe(200);
      expect(await read()).toBe('West Frisian');
      // Renamed by another process (here: the table itself): seen once the process's copy has expired.
      await t.app.get(DataSource).query('UPDATE nationalities SET name = ? WHERE id = ?', ['Westlauwers', nationality]);
      expect(await read()).toBe('West Frisian');
      clock.mockReturnValue(now + Number(t.config.settingsCacheMs));
      expect(await read()).toBe('Westlauwers');
      expect(lookups).toHaveBeenCalledTimes(2);
    } finally {
      clock.mockRestore();
      lookups.mockRestore();
    }
  });

  it('refuses duplicate names with 409 DUPLICATE and empty or unknown fields with 400', async () => {
    await call('POST', '/skills', admin, { name: 'Welding' });
    const dup = await call('POST', '/skills', admin, { name: 'Welding' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'DUPLICATE', details: [{ field: 'name' }] });
    expect((await call('POST', '/skills', admin, { name: '   ' })).json().error.details[0].field).toBe('name');
    expect((await call('POST', '/skills', admin, { name: 'A', color: 'red' })).json().error.details[0]).toEqual({
      field: 'color',
      message: 'is not allowed',
    });
    expect((await call('GET', '/skills/abc', admin)).json().error.details[0].field).toBe('id');
  });

  it('departments form a tree: parents must exist, no cycles, in-use parents cannot be deleted', async () => {
    const root = (await call('POST', '/departments', admin, { name: 'Company' })).json().data;
    expect(root.parent).toBeNull();
    const child = (await call('POST', '/departments', admin, { name: 'Engineering', parent: root.id })).json().data;
    const grandchild = (await call('POST', '/departments', admin, { name: 'Platform', parent: child.id })).json().data;
    expect(grandchild).toEqual({ id: grandchild.id, name: 'Platform', parent: child.id, head: null });
    // A head must be an employee (issue 45: the approver role department_head).
    expect((await call('PUT', `/departments/${grandchild.id}`, admin, { head: 999999 })).json().error.details).toEqual([
      { field: 'head', message: 'employee does not exist' },
    ]);

    const missing = await call('POST', '/departments', admin, { name: 'Ghost', parent: 999999 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.details[0].field).toBe('parent');
    const cycle = await call('PUT', `/departments/${root.id}`, admin, { parent: grandchild.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().error.message).toContain('ancestor');
    expect((await call('PUT', `/departments/${root.id}`, admin, { parent: root.id })).statusCode).toBe(400);

    const inUse = await call('DELETE', `/departments/${child.id}`, admin);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.code).toBe('IN_USE');
    // A department assigned to a Restricted Admin can go; the assignment goes with it.
    const scoped = await createUser(t.app, 'Restricted Admin');
    const ud = t.app.get(DataSource).getRepository(UserDepartment);
    await ud.insert({ userId: scoped.user.id, departmentId: grandchild.id });
    expect((await call('DELETE', `/departments/${grandchild.id}`, admin)).statusCode).toBe(200);
    expect(await ud.find({ where: { userId: scoped.user.id } })).toEqual([]);
    const children = await call('GET', `/departments?filters=${encodeURIComponent(JSON.stringify({ parent: root.id }))}`, admin);
    expect(children.json().data.map((d: { name: string }) => d.name)).toEqual(['Engineering']);
  });

  it('pay grades take an ISO currency and exact salary bounds', async () => {
    const res = await call('POST', '/pay-grades', admin, { name: 'G1', currency: 'EUR', min_salary: 3000.5, max_salary: '5000' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: expect.any(Number),
      name: 'G1',
      currency: 'EUR',
      min_salary: '3000.50',
      max_salary: '5000.00',
    });
    const got = await call('GET', `/pay-grades/${res.json().data.id}`, employee);
    expect(got.json().data.min_salary).toBe('3000.50');
    expect((await call('POST', '/pay-grades', admin, { name: 'G2', currency: 'EURO' })).json().error.details[0].field).toBe(
      'currency',
    );
    expect((await call('POST', '/pay-grades', admin, { name: 'G3', min_salary: '1.234' })).json().error.details[0].field).toBe(
      'min_salary',
    );
    const inverted = await call('POST', '/pay-grades', admin, { name: 'G4', min_salary: '9000', max_salary: '100' });
    expect(inverted.json().error.details[0].field).toBe('max_salary');
  });
});

describe('pay grades without salary bounds', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('are created with null bounds', async () => {
    const admin = (await createUser(t.app, 'Admin')).token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/pay-grades',
      headers: bearer(admin),
      payload: { name: 'Bare' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ id: expect.any(Number), name: 'Bare', currency: null, min_salary: null, max_salary: null });
  });
});
