import { TestApp, apiCaller, createTestApp } from './helpers/test-app';
import { buildCompany, Company, employeeBody } from './helpers/company';

describe('employees', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let c: Company;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    c = await buildCompany(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  describe('POST and GET round-trip every seed field', () => {
    it('returns what was sent, with integer references and the nationality by name', async () => {
      await call('POST', '/nationalities', admin, { name: 'German' });
      const status = (await call('POST', '/employment-statuses', admin, { name: 'Full Time' })).json().data;
      const grade = (await call('POST', '/pay-grades', admin, { name: 'P1' })).json().data;
      const body = employeeBody({
        middle_name: 'Q',
        gender: 'Female',
        marital_status: 'Married',
        birthday: '1990-02-28',
        confirmation_date: '2020-07-15',
        nationality: 'german',
        ssn_num: '123-45-6789',
        nic_num: 'N1',
        other_id: 'O1',
        driving_license: 'D1',
        address1: '1 Main St',
        address2: 'Apt 2',
        city: 'Berlin',
        country: 'DE',
        province: 'BE',
        postal_code: '10115',
        home_phone: '+49 30 1',
        mobile_phone: '+49 170 1',
        work_phone: '+49 30 2',
        private_email: 'me@home.test',
        employment_status: status.id,
        job_title: c.jobTitle,
        pay_grade: grade.id,
        department: c.departments.sales,
        supervisor: c.emp.outsider,
        approver1: c.emp.manager,
        approver2: c.emp.report1,
        approver3: c.emp.report2,
        calendar: (await call('GET', '/calendars', admin)).json().data[0].id as number,
        status: 'Active',
      });
      const created = await call('POST', '/employees', admin, body);
      expect(created.statusCode).toBe(200);
      const expected = {
        ...body,
        nationality: 'German',
        termination_date: null,
        custom_fields: {},
        privacy: { legal_hold: false, anonymised_at: null },
      };
      expect(created.json().data).toEqual({ id: expect.any(Number), ...expected });
      const got = await call('GET', `/employees/${created.json().data.id}`, admin);
      expect(got.json().data).toEqual(created.json().data);
      for (const k of ['job_title', 'department', 'supervisor', 'pay_grade', 'employment_status']) {
        expect(Number.isInteger(got.json().data[k])).toBe(true);
      }
    });

    it('defaults status to Active and leaves unsent fields null', async () => {
      const res = await call('POST', '/employees', admin, employeeBody());
      expect(res.json().data).toMatchObject({ status: 'Active', gender: null, department: null, supervisor: null });
    });
  });

  describe('validation: 400 or 409 naming the field, and nothing written', () => {
    const cases: Array<[string, Record<string, unknown>, number, string]> = [
      ['gender Robot', { gender: 'Robot' }, 400, 'gender'],
      ['birthday 2023-02-30', { birthday: '2023-02-30' }, 400, 'birthday'],
      ['work_email nope', { work_email: 'nope' }, 400, 'work_email'],
      ['job_title 999999', { job_title: 999999 }, 400, 'job_title'],
      ['supervisor 999999', { supervisor: 999999 }, 400, 'supervisor'],
      ['country XX', { country: 'XX' }, 400, 'country'],
      ['nationality unknown', { nationality: 'Martian' }, 400, 'nationality'],
      ['unknown field', { favourite_colour: 'blue' }, 400, 'favourite_colour'],
      ['status Retired', { status: 'Retired' }, 400, 'status'],
      ['joined_date missing', { joined_date: undefined }, 400, 'joined_date'],
      ['first_name empty', { first_name: '  ' }, 400, 'first_name'],
    ];
    it.each(cases)('%s', async (_name, override, status, field) => {
      const before = (await call('GET', '/employees?limit=1', admin)).json().total;
      const res = await call('POST', '/employees', admin, { ...employeeBody(), ...override });
      expect(res.statusCode).toBe(status);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await call('GET', '/employees?limit=1', admin)).json().total).toBe(before);
    });

    it('a duplicate employee_id or work_email is 409 DUPLICATE', async () => {
      const first = employeeBody();
      await call('POST', '/employees', admin, first);
      const dupId = await call('POST', '/employees', admin, employeeBody({ employee_id: first.employee_id }));
      expect(dupId.statusCode).toBe(409);
      expect(dupId.json().error).toMatchObject({ code: 'DUPLICATE', details: [{ field: 'employee_id' }] });
      const dupMail = await call('POST', '/employees', admin, employeeBody({ work_email: first.work_email!.toUpperCase() }));
      expect(dupMail.json().error.details[0].field).toBe('work_email');
    });
  });

  describe('PUT', () => {
    it('changes a subset, ignores id in the body, and validates like POST', async () => {
      const id = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
      const res = await call('PUT', `/employees/${id}`, admin, { id: 12345, city: 'Paris', middle_name: null });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id, city: 'Paris', middle_name: null });
      expect((await call('PUT', `/employees/${id}`, admin, { birthday: '2023-02-30' })).statusCode).toBe(400);
    });

    it('Terminated without a date takes today; a date before joining is refused', async () => {
      const id = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
      const res = await call('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
      expect(res.json().data).toMatchObject({ status: 'Terminated', termination_date: new Date().toISOString().slice(0, 10) });
      const early = await call('PUT', `/employees/${id}`, admin, { termination_date: '2019-01-01' });
      expect(early.statusCode).toBe(400);
      expect(early.json().error.details[0].field).toBe('termination_date');
    });

    it('refuses a supervisor cycle and self-supervision', async () => {
      const cycle = await call('PUT', `/employees/${c.emp.manager}`, admin, { supervisor: c.emp.grandReport });
      expect(cycle.statusCode).toBe(400);
      expect(cycle.json().error.message).toContain('cycle');
      const self = await call('PUT', `/employees/${c.emp.manager}`, admin, { supervisor: c.emp.manager });
      expect(self.json().error.details[0]).toEqual({ field: 'supervisor', message: 'cannot be the employee itself' });
    });

    it('an Employee changes personal fields of its own record only: others are 403 FIELD_NOT_ALLOWED', async () => {
      const token = c.users.employee.token;
      expect((await call('PUT', `/employees/${c.emp.report1}`, token, { mobile_phone: '+1 555' })).statusCode).toBe(200);
      const res = await call('PUT', `/employees/${c.emp.report1}`, token, {
        mobile_phone: '+1 556',
        department: c.departments.sales,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'FIELD_NOT_ALLOWED', details: [{ field: 'department' }] });
      const got = await call('GET', `/employees/${c.emp.report1}`, admin);
      expect(got.json().data).toMatchObject({ mobile_phone: '+1 555', department: c.departments.platform });
      // Sending an unchanged value back is not a change.
      const same = await call('PUT', `/employees/${c.emp.report1}`, token, { department: c.departments.platform, city: 'Oslo' });
      expect(same.statusCode).toBe(200);
    });

    it('a Restricted Admin changes employees of its scope, but cannot move them out of it', async () => {
      const token = c.users.restricted.token;
      expect((await call('PUT', `/employees/${c.emp.report2}`, token, { job_title: c.jobTitle })).statusCode).toBe(200);
      const out = await call('PUT', `/employees/${c.emp.report2}`, token, { department: c.departments.sales });
      expect(out.statusCode).toBe(403);
      expect(out.json().error.details[0].field).toBe('department');
      expect((await call('PUT', `/employees/${c.emp.report2}`, token, { department: c.departments.platform })).statusCode).toBe(
        200,
      );
      expect((await call('PUT', `/employees/${c.emp.outsider}`, token, { city: 'x' })).statusCode).toBe(404);
    });
  });

  describe('lists and scope', () => {
    const ids = (res: { json(): { data: Array<{ id: number }> } }) =>
      res
        .json()
        .data.map((e) => e.id)
        .sort((a, b) => a - b);

    it('list items carry exactly the seed list fields and the custom fields', async () => {
      const res = await call(
        'GET',
        `/employees?filters=${encodeURIComponent(JSON.stringify({ supervisor: c.emp.manager }))}`,
        admin,
      );
      expect(Object.keys(res.json().data[0]).sort()).toEqual(
        // and the custom fields marked for lists (docs/api/custom-fields.md)
        [
          'id',
          'employee_id',
          'first_name',
          'last_name',
          'work_email',
          'job_title',
          'department',
          'status',
          'custom_fields',
        ].sort(),
      );
      expect(typeof res.json().data[0].department).toBe('number');
    });

    it('a Manager lists exactly its direct reports; an Employee nobody; a Restricted Admin its department subtree', async () => {
      expect(ids(await call('GET', '/employees', c.users.manager.token))).toEqual(
        [c.emp.report1, c.emp.report2].sort((a, b) => a - b),
      );
      const employee = await call('GET', '/employees', c.users.employee.token);
      expect(employee.json()).toMatchObject({ data: [], total: 0 });
      const restricted = await call('GET', '/employees?limit=500', c.users.restricted.token);
      const inTree = [c.departments.engineering, c.departments.platform];
      expect(restricted.json().data.every((e: { department: number }) => inTree.includes(e.department))).toBe(true);
      expect(ids(restricted)).toEqual(expect.arrayContaining([c.emp.manager, c.emp.report1, c.emp.report2, c.emp.grandReport]));
      expect(ids(restricted)).not.toContain(c.emp.outsider);
    });

    it('sorts, filters and searches', async () => {
      const q = encodeURIComponent(
        JSON.stringify({ department: [c.departments.engineering, c.departments.platform], status: 'Active' }),
      );
      const res = await call('GET', `/employees?filters=${q}&sortField=last_name&sortOrder=descend&limit=2`, admin);
      const names = res.json().data.map((e: { last_name: string }) => e.last_name);
      expect(names).toEqual([...names].sort().reverse());
      expect(res.json().limit).toBe(2);
      const one = (await call('GET', `/employees/${c.emp.outsider}`, admin)).json().data;
      const search = await call('GET', `/employees?search=${encodeURIComponent(one.employee_id.toLowerCase())}`, admin);
      expect(ids(search)).toEqual([c.emp.outsider]);
      expect((await call('GET', '/employees?sortField=salary', admin)).statusCode).toBe(400);
      expect((await call('GET', `/employees?filters=${encodeURIComponent('{"city":"x"}')}`, admin)).statusCode).toBe(400);
    });

    it('GET /employees/me returns the seed current-employee fields, 404 without a linked employee', async () => {
      const me = await call('GET', '/employees/me', c.users.employee.token);
      expect(me.json().data).toEqual({
        id: c.emp.report1,
        employee_id: expect.any(String),
        first_name: expect.any(String),
        last_name: expect.any(String),
        work_email: expect.any(String),
        department: c.departments.platform,
        supervisor: c.emp.manager,
      });
      expect((await call('GET', '/employees/me', c.users.orphan.token)).statusCode).toBe(404);
    });
  });

  describe('DELETE', () => {
    it('removes the employee, clears references to it, deactivates its user; Admin only', async () => {
      const boss = (await call('POST', '/employees', admin, employeeBody())).json().data.id;
      const worker = (await call('POST', '/employees', admin, employeeBody({ supervisor: boss }))).json().data.id;
      const { createUser } = await import('./helpers/test-app');
      const user = await createUser(t.app, 'Employee', { employeeId: boss });
      expect((await call('DELETE', `/employees/${boss}`, c.users.restricted.token)).statusCode).toBe(403);
      const res = await call('DELETE', `/employees/${boss}`, admin);
      expect(res.json()).toEqual({ status: 'SUCCESS', data: { id: boss } });
      expect((await call('GET', `/employees/${boss}`, admin)).statusCode).toBe(404);
      expect((await call('GET', `/employees/${worker}`, admin)).json().data.supervisor).toBeNull();
      expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
      expect((await call('DELETE', `/employees/${boss}`, admin)).statusCode).toBe(404);
    });
  });
});
