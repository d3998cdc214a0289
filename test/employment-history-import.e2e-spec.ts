import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, bearer, createTestApp, okCaller, Method, TestApp, until } from './helpers/test-app';

interface ImportBody {
  id: number;
  status: string;
  rows_total: number;
  rows_failed: number;
}

/** Issue 43, moving in: the employment-history import kind, and an effective date on the employees and salaries kinds. */
describe('employment history imports', () => {
  let t: TestApp;
  let c: Company;
  let admin: string;
  let ok: (method: Method, url: string, token?: string, payload?: object) => Promise<any>;
  let call: ReturnType<typeof apiCaller>;
  let names: { sales: string; engineering: string; jobTitle: string };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    admin = c.users.admin.token;
    call = apiCaller(t.app);
    const okAs = okCaller(t.app);
    ok = (method, url, token = admin, payload) => okAs(method, url, token, payload);
    names = {
      sales: (await ok('GET', `/departments/${c.departments.sales}`)).name,
      engineering: (await ok('GET', `/departments/${c.departments.engineering}`)).name,
      jobTitle: (await ok('GET', `/job-titles/${c.jobTitle}`)).name,
    };
    await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic pay', component_type: 'Earning' });
  });
  afterAll(() => t.close());

  async function imported(csv: string, query: string): Promise<ImportBody> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/api/imports?${query}`,
      headers: { ...bearer(admin), 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode).toBe(202);
    const id = res.json<{ data: { id: number } }>().data.id;
    let record: ImportBody | null = null;
    await until(async () => {
      record = (await call('GET', `/imports/${id}`, admin)).json().data as ImportBody;
      return ['Validated', 'Completed', 'Failed'].includes(record.status);
    }, 20_000);
    return record!;
  }

  const errorsOf = async (id: number) =>
    ((await ok('GET', `/imports/${id}/errors?limit=500`)) as Array<{ row: number; field: string; message: string }>).map((e) => [
      e.row,
      e.field,
      e.message,
    ]);

  const newEmployee = async (o: object = {}) => {
    const body = employeeBody({ joined_date: '2024-01-10', department: c.departments.sales, ...o });
    return { id: (await ok('POST', '/employees', admin, body)).id as number, employeeId: body.employee_id };
  };

  it('employment-history: past promotions and transfers become dated changes; a dry run checks them and writes nothing', async () => {
    const e = await newEmployee();
    const boss = await newEmployee({ joined_date: '2020-01-01' });
    const csv = [
      'employee,effective_date,reason,job_title,department,supervisor',
      `${e.employeeId},2024-06-01,Promotion,${names.jobTitle},,`,
      `${e.employeeId},2025-01-01,Transfer,,${names.engineering},${boss.employeeId}`,
      `${e.employeeId},2023-12-31,Too early,,${names.sales},`,
      `${e.employeeId},2025-02-01,,,No such department,`,
      `${e.employeeId},2025-03-01,,,,NOBODY`,
      `NOBODY,2025-03-01,,,${names.sales},`,
      `${e.employeeId},2025-03-01,Nothing,,,`,
    ].join('\n');

    const dry = await imported(csv, 'kind=employment-history');
    expect(dry).toMatchObject({ status: 'Validated', rows_total: 7, rows_failed: 5 });
    expect(await errorsOf(dry.id)).toEqual([
      [3, 'effective_date', 'must not be before joined_date (2024-01-10)'],
      [4, 'department', 'nothing is named "No such department"'],
      [5, 'supervisor', 'no employee has employee_id "NOBODY"'],
      [6, 'employee', 'Employee not found'],
      [7, 'fields', 'a change sets at least one dated field or the salary'],
    ]);
    expect(await ok('GET', `/employees/${e.id}/history`)).toHaveLength(1);

    const done = await imported(csv, 'kind=employment-history&dry_run=false&mode=valid-rows');
    expect(done).toMatchObject({ status: 'Completed', rows_failed: 5 });
    const history = (await ok('GET', `/employees/${e.id}/history`)) as Array<Record<string, unknown>>;
    expect(history.map((s) => [s.effective_from, s.effective_to, s.job_title, s.department, s.supervisor])).toEqual([
      ['2024-01-10', '2024-05-31', null, c.departments.sales, null],
      ['2024-06-01', '2024-12-31', c.jobTitle, c.departments.sales, null],
      ['2025-01-01', null, c.jobTitle, c.departments.engineering, boss.id],
    ]);
    const changes = (await ok('GET', `/employees/${e.id}/changes`)) as Array<Record<string, unknown>>;
    expect(changes.map((x) => [x.reason, x.status])).toEqual([
      ['Joined', 'Effective'],
      ['Promotion', 'Effective'],
      ['Transfer', 'Effective'],
    ]);
    // Today's row follows the last segment.
    expect(await ok('GET', `/employees/${e.id}`)).toMatchObject({ department: c.departments.engineering, supervisor: boss.id });
  });

  it('employees: an effective_date puts the dated fields of an existing employee on that day, the others now; refused where it cannot apply', async () => {
    const [e, other, third] = [await newEmployee(), await newEmployee(), await newEmployee()];
    const fresh = employeeBody({ joined_date: '2025-05-05' });
    const csv = [
      'employee_id,department,mobile_phone,effective_date,first_name,last_name,joined_date,work_email',
      `${e.employeeId},${names.engineering},+44 20 7946 0000,2024-09-01,,,,`,
      `${other.employeeId},${names.engineering},,2024-01-09,,,,`,
      `${fresh.employee_id},${names.sales},,2025-06-01,${fresh.first_name},${fresh.last_name},2025-05-05,${fresh.work_email}`,
      `${third.employeeId},${names.engineering},,31/12/2024,,,,`,
    ].join('\n');
    const dry = await imported(csv, 'kind=employees');
    expect(dry).toMatchObject({ status: 'Validated', rows_failed: 3 });
    expect(await errorsOf(dry.id)).toEqual([
      [2, 'effective_date', 'must not be before joined_date (2024-01-10)'],
      [3, 'effective_date', 'must be empty or the joined_date for a new employee (its history starts on the day it joined)'],
      [4, 'effective_date', 'must be a date (YYYY-MM-DD)'],
    ]);

    const done = await imported(csv, 'kind=employees&dry_run=false&mode=valid-rows');
    expect(done).toMatchObject({ status: 'Completed', rows_failed: 3 });
    const history = (await ok('GET', `/employees/${e.id}/history`)) as Array<Record<string, unknown>>;
    expect(history.map((s) => [s.effective_from, s.department])).toEqual([
      ['2024-01-10', c.departments.sales],
      ['2024-09-01', c.departments.engineering],
    ]);
    expect(await ok('GET', `/employees/${e.id}`)).toMatchObject({
      department: c.departments.engineering,
      mobile_phone: '+44 20 7946 0000',
    });
    expect(await ok('GET', `/employees/${e.id}?as_of=2024-08-31`)).toMatchObject({ department: c.departments.sales });
    // The refused rows changed nothing.
    expect(await ok('GET', `/employees/${other.id}`)).toMatchObject({ department: c.departments.sales });
    expect(await ok('GET', `/employees/${third.id}/history`)).toHaveLength(1);
  });

  it('salaries: an effective_date sets the amount from that day on the salary then in force', async () => {
    const e = await newEmployee();
    const csv = [
      'employee,component,amount,effective_date',
      `${e.employeeId},Basic pay,5000.00,2024-06-01`,
      `${e.employeeId},Basic pay,5500.00,2025-01-01`,
      `${e.employeeId},Basic pay,4000.00,2023-01-01`,
    ].join('\n');
    const done = await imported(csv, 'kind=salaries&dry_run=false&mode=valid-rows');
    expect(done).toMatchObject({ status: 'Completed', rows_failed: 1 });
    expect((await errorsOf(done.id)).map(([row]) => row)).toEqual([3]);
    const amounts = async (day: string) =>
      ((await ok('GET', `/employees/${e.id}/salary?as_of=${day}`)) as Array<{ amount: string }>).map((i) => i.amount);
    expect(await amounts('2024-05-31')).toEqual([]);
    expect(await amounts('2024-06-01')).toEqual(['5000.00']);
    expect(await amounts('2024-12-31')).toEqual(['5000.00']);
    expect(await amounts('2025-01-01')).toEqual(['5500.00']);
    expect(((await ok('GET', `/employees/${e.id}/salary`)) as Array<{ amount: string }>).map((i) => i.amount)).toEqual([
      '5500.00',
    ]);
  });

  it('lists the new kind and its template', async () => {
    const res = await call('GET', '/imports/templates/employment-history?format=csv', admin);
    expect(res.statusCode).toBe(200);
    expect(res.body.split('\n')[0]).toMatch(/^employee,effective_date,reason,job_title,department,/);
  });
});
