import { EmployeeFactsService } from '../src/employees/employee-facts.service';
import { CompanyClock } from '../src/common/time/company-clock';
import { EmploymentHistoryJobs } from '../src/employees/history/employment-history.jobs';
import { addDays } from '../src/common/time/days';
import { DataSource } from 'typeorm';
import { OutboxEvent } from '../src/common/outbox/outbox.entities';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { transaction } from '../src/common/database/transaction';
import { EmploymentHistoryRepository } from '../src/employees/history/employment-history.repository';
import { MAX_SCHEDULED } from '../src/employees/history/employment-history.writer';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, Method, okCaller, outboxEvents, TestApp } from './helpers/test-app';

/** Issue 43: dated changes, history, as-of reads, the daily job (docs/api/decisions.md §19). */
describe('employment history', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let ok: (method: Method, url: string, token?: string, payload?: object) => Promise<any>;
  let c: Company;
  let admin: string;
  let basic: number;
  const today = new Date().toISOString().slice(0, 10);
  const nextMonth = addDays(today, 35);

  beforeAll(async () => {
    t = await createTestApp();
    call = apiCaller(t.app);
    const okAs = okCaller(t.app);
    c = await buildCompany(t.app);
    admin = c.users.admin.token;
    ok = (method, url, token = admin, payload) => okAs(method, url, token, payload);
    basic = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic', component_type: 'Earning' })).id;
  });
  afterAll(() => t.close());

  const newEmployee = async (o: object = {}) =>
    (await ok('POST', '/employees', admin, employeeBody({ joined_date: '2024-01-10', department: c.departments.sales, ...o })))
      .id as number;

  it('a new employee starts its history on its joined date', async () => {
    const id = await newEmployee({ job_title: c.jobTitle });
    const history = await ok('GET', `/employees/${id}/history`);
    expect(history).toEqual([
      expect.objectContaining({
        effective_from: '2024-01-10',
        effective_to: null,
        department: c.departments.sales,
        job_title: c.jobTitle,
        salary: [],
      }),
    ]);
    const [joined] = await ok('GET', `/employees/${id}/changes`);
    expect(joined).toMatchObject({ employee: id, effective_date: '2024-01-10', reason: 'Joined', status: 'Effective' });
  });

  it('a back-dated transfer splits the history, moves the employee today, and answers as_of for both sides', async () => {
    const id = await newEmployee();
    const change = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2025-06-15',
      reason: 'Transfer',
      fields: { department: c.departments.engineering },
    });
    expect(change).toMatchObject({
      status: 'Effective',
      effective_date: '2025-06-15',
      corrects: null,
      recorded_by: expect.any(Number),
    });
    expect((await ok('GET', `/employees/${id}`)).department).toBe(c.departments.engineering);
    expect((await ok('GET', `/employees/${id}?as_of=2025-06-14`)).department).toBe(c.departments.sales);
    expect((await ok('GET', `/employees/${id}?as_of=2025-06-15`)).department).toBe(c.departments.engineering);
    expect((await call('GET', `/employees/${id}?as_of=2023-12-31`, admin)).statusCode).toBe(404);
    // Payroll's employee fields are those in force on the payroll's last day.
    const facts = t.app.get(EmployeeFactsService);
    expect((await facts.formulaFields([id], '2025-06-14')).get(id)!.department).toBe(c.departments.sales);
    expect((await facts.formulaFields([id], '2025-06-30')).get(id)!.department).toBe(c.departments.engineering);
    const history = await ok('GET', `/employees/${id}/history`);
    expect(
      history.map((s: { effective_from: string; effective_to: string | null }) => [s.effective_from, s.effective_to]),
    ).toEqual([
      ['2024-01-10', '2025-06-14'],
      ['2025-06-15', null],
    ]);
    const events = (await outboxEvents(t.app, 'employee.change_effective')).filter(
      (e) => (e.data as { id: number }).id === change.id,
    );
    expect(events).toEqual([
      {
        event: 'employee.change_effective',
        data: { id: change.id, employee: id, changes: { department: [c.departments.sales, c.departments.engineering] } },
      },
    ]);
  });

  it('a raise for next month is Scheduled, read as_of, and takes effect once on its day when the job runs (also late or twice)', async () => {
    const id = await newEmployee();
    await ok('PUT', `/employees/${id}/salary`, admin, { items: [{ component: basic, amount: '4000' }] });
    const raise = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: nextMonth,
      reason: 'Raise',
      salary: [{ component: basic, amount: 4400 }],
    });
    expect(raise.status).toBe('Scheduled');
    expect(await ok('GET', `/employees/${id}/salary`)).toEqual([{ component: basic, amount: '4000.00' }]);
    expect(await ok('GET', `/employees/${id}/salary?as_of=${nextMonth}`)).toEqual([{ component: basic, amount: '4400.00' }]);

    const jobs = t.app.get(EmploymentHistoryJobs);
    // The day before: nothing due.
    await jobs.run(new Date(`${addDays(nextMonth, -1)}T12:00:00Z`));
    expect((await ok('GET', `/employees/${id}/changes`)).find((x: { id: number }) => x.id === raise.id).status).toBe('Scheduled');
    // Three days late, twice.
    const late = new Date(`${addDays(nextMonth, 3)}T00:30:00Z`);
    expect((await jobs.run(late)).changes).toBeGreaterThanOrEqual(1);
    await jobs.run(late);
    expect((await ok('GET', `/employees/${id}/changes`)).find((x: { id: number }) => x.id === raise.id).status).toBe('Effective');
    expect(await ok('GET', `/employees/${id}/salary`)).toEqual([{ component: basic, amount: '4400.00' }]);
    const events = (await outboxEvents(t.app, 'employee.change_effective')).filter(
      (e) => (e.data as { id: number }).id === raise.id,
    );
    expect(events).toHaveLength(1);
  });

  it('cancels a Scheduled change only, and the history forgets it (but not as known before)', async () => {
    const id = await newEmployee();
    const planned = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: nextMonth,
      fields: { department: c.departments.engineering },
    });
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    expect((await ok('DELETE', `/employees/${id}/changes/${planned.id}`)).status).toBe('Cancelled');
    expect(await ok('GET', `/employees/${id}/history`)).toHaveLength(1);
    expect(await ok('GET', `/employees/${id}/history?known_at=${encodeURIComponent(before)}`)).toHaveLength(2);
    const again = await call('DELETE', `/employees/${id}/changes/${planned.id}`, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('INVALID_STATE');
    const [joined] = await ok('GET', `/employees/${id}/changes`);
    expect((await call('DELETE', `/employees/${id}/changes/${joined.id}`, admin)).json().error.code).toBe('INVALID_STATE');
  });

  it('corrects an effective change: the correction counts from its recording, the old one stays readable', async () => {
    const id = await newEmployee();
    const wrong = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2025-03-01',
      reason: 'Transfer',
      fields: { department: c.departments.platform, job_title: c.jobTitle },
    });
    const believed = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const fixed = await ok('POST', `/employees/${id}/changes/${wrong.id}/correct`, admin, {
      reason: 'Wrong department',
      fields: { department: c.departments.engineering },
    });
    expect(fixed).toMatchObject({
      corrects: wrong.id,
      effective_date: '2025-03-01',
      fields: { department: c.departments.engineering, job_title: c.jobTitle },
    });
    expect((await ok('GET', `/employees/${id}`)).department).toBe(c.departments.engineering);
    const thenKnown = await ok('GET', `/employees/${id}/history?known_at=${encodeURIComponent(believed)}`);
    expect(thenKnown[1]).toMatchObject({ department: c.departments.platform, change: wrong.id });
    const changes = await ok('GET', `/employees/${id}/changes`);
    expect(changes.map((x: { id: number }) => x.id)).toEqual(expect.arrayContaining([wrong.id, fixed.id]));
    const twice = await call('POST', `/employees/${id}/changes/${wrong.id}/correct`, admin, { reason: 'again' });
    expect(twice.statusCode).toBe(409);
  });

  it('PUT /employees and PUT salary are changes effective today (the first salary from the joined date)', async () => {
    const id = await newEmployee();
    const joined = (await ok('GET', `/employees/${id}`)).joined_date as string;
    await ok('PUT', `/employees/${id}`, admin, { department: c.departments.engineering, city: 'Berlin' });
    await ok('PUT', `/employees/${id}/salary`, admin, { items: [{ component: basic, amount: '4000.00' }] });
    await ok('PUT', `/employees/${id}/salary`, admin, { items: [{ component: basic, amount: '5000.00' }] });
    const changes = await ok('GET', `/employees/${id}/changes`);
    expect(changes.slice(1)).toEqual([
      expect.objectContaining({ effective_date: today, fields: { department: c.departments.engineering }, salary: null }),
      // Setting up a salary is not a raise: past payrolls pay it (issue 44).
      expect.objectContaining({ effective_date: joined, fields: {}, salary: [{ component: basic, amount: '4000.00' }] }),
      expect.objectContaining({ effective_date: today, fields: {}, salary: [{ component: basic, amount: '5000.00' }] }),
    ]);
    const history = await ok('GET', `/employees/${id}/history`);
    expect(history[history.length - 1]).toMatchObject({
      effective_from: today,
      department: c.departments.engineering,
      salary: [{ component: basic, amount: '5000.00' }],
    });
  });

  it('refuses bad input with 400 naming the field and changes nothing', async () => {
    const id = await newEmployee({ termination_date: '2030-01-31' });
    const bad = async (body: object, field: string) => {
      const res = await call('POST', `/employees/${id}/changes`, admin, body);
      expect({ status: res.statusCode, fields: res.json().error?.details?.map((d: { field: string }) => d.field) }).toEqual({
        status: 400,
        fields: expect.arrayContaining([field]),
      });
    };
    await bad({ effective_date: '2023-01-01', fields: { department: c.departments.engineering } }, 'effective_date');
    await bad({ effective_date: '2030-02-01', fields: { department: c.departments.engineering } }, 'effective_date');
    await bad({ effective_date: '1899-12-31', fields: { department: c.departments.engineering } }, 'effective_date');
    await bad({ effective_date: '2025-02-30', fields: { department: c.departments.engineering } }, 'effective_date');
    await bad({ effective_date: '2025-01-01', fields: { department: 999999 } }, 'fields.department');
    await bad({ effective_date: '2025-01-01', fields: { supervisor: id } }, 'fields.supervisor');
    await bad({ effective_date: '2025-01-01', fields: { salary_grade: 1 } }, 'fields.salary_grade');
    await bad({ effective_date: '2025-01-01', salary: [{ component: 999999, amount: '1.00' }] }, 'salary');
    await bad({ effective_date: '2025-01-01' }, 'fields');
    expect(await ok('GET', `/employees/${id}/changes`)).toHaveLength(1);
  });

  it('checks level and scope: Employee 403, Manager 404 outside its reports and 403 on them, Restricted Admin within its departments', async () => {
    const body = { effective_date: '2025-01-01', fields: { job_title: c.jobTitle } };
    expect((await call('POST', `/employees/${c.emp.report1}/changes`, c.users.employee.token, body)).statusCode).toBe(403);
    expect((await call('POST', `/employees/${c.emp.outsider}/changes`, c.users.manager.token, body)).statusCode).toBe(404);
    const own = await call('POST', `/employees/${c.emp.report1}/changes`, c.users.manager.token, body);
    expect({ status: own.statusCode, code: own.json().error.code }).toEqual({ status: 403, code: 'FIELD_NOT_ALLOWED' });
    expect((await call('POST', `/employees/${c.emp.outsider}/changes`, c.users.restricted.token, body)).statusCode).toBe(404);
    const out = await call('POST', `/employees/${c.emp.report2}/changes`, c.users.restricted.token, {
      effective_date: '2025-01-01',
      fields: { department: c.departments.sales },
    });
    expect(out.json().error).toMatchObject({ code: 'FIELD_NOT_ALLOWED', details: [{ field: 'department' }] });
    await ok('POST', `/employees/${c.emp.grandReport}/changes`, c.users.restricted.token, {
      effective_date: '2025-01-01',
      fields: { department: c.departments.engineering },
    });
    // A Manager reads its report's history without salaries.
    const seen = await ok('GET', `/employees/${c.emp.report1}/history`, c.users.manager.token);
    expect(seen[0].salary).toBeNull();
    expect((await call('GET', `/employees/${c.emp.outsider}/history`, c.users.manager.token)).statusCode).toBe(404);
  });

  it('a Restricted Admin changes and reads only the days its transferee was in its departments (Hardening IV item 23)', async () => {
    const ra = c.users.restricted.token;
    const id = await newEmployee({ job_title: c.jobTitle });
    const today = new Date().toISOString().slice(0, 10);
    const movedIn = addDays(today, -10);
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: movedIn,
      fields: { department: c.departments.engineering },
    });
    // Back-dated into the months in Sales: refused, nothing recorded.
    const before = (await ok('GET', `/employees/${id}/changes`, admin)).length;
    const back = await call('POST', `/employees/${id}/changes`, ra, {
      effective_date: '2025-01-01',
      fields: { pay_grade: null },
    });
    expect([back.statusCode, back.json().error.code, back.json().error.details]).toEqual([
      403,
      'FORBIDDEN',
      [{ field: 'effective_date', message: 'the employee was in another department on 2025-01-01' }],
    ]);
    expect(await ok('GET', `/employees/${id}/changes`, admin)).toHaveLength(before);
    // From the day it moved in on: its to change.
    await ok('POST', `/employees/${id}/changes`, ra, {
      effective_date: movedIn,
      fields: { pay_grade: null, job_title: c.jobTitle },
    });
    // Its reads: the segments and changes of its days only; the as-of read of a day in Sales is 404.
    const history = await ok('GET', `/employees/${id}/history`, ra);
    expect(history.map((h: { department: number }) => h.department)).toEqual([c.departments.engineering]);
    expect((await ok('GET', `/employees/${id}/history`, admin)).length).toBeGreaterThan(1);
    const changes = await ok('GET', `/employees/${id}/changes`, ra);
    expect(changes.map((x: { effective_date: string }) => x.effective_date)).toEqual([movedIn, movedIn]);
    expect((await call('GET', `/employees/${id}?as_of=2025-06-01`, ra)).statusCode).toBe(404);
    expect((await call('GET', `/employees/${id}?as_of=${today}`, ra)).statusCode).toBe(200);
    expect((await call('GET', `/employees/${id}?as_of=2025-06-01`, admin)).statusCode).toBe(200);
    // The change feed likewise: its creation, dated back to its time in Sales, is not the RA's to
    // read; the changes of its days in Engineering are.
    await t.app
      .get(DataSource)
      .getRepository(OutboxEvent)
      .update({ employeeId: id, event: 'employee.created' }, { createdAt: new Date(Date.now() - 20 * 86_400_000) });
    await t.app.get(OutboxRelay).drain();
    const feed = async (token: string) =>
      (
        (await ok('GET', '/events?types=employee.created,employee.change_effective&limit=500', token)) as Array<{
          type: string;
          data: { employee?: number; id?: number };
        }>
      )
        .filter((e) => (e.data.employee ?? e.data.id) === id)
        .map((e) => e.type);
    expect(await feed(admin)).toEqual(expect.arrayContaining(['employee.created', 'employee.change_effective']));
    const seen = await feed(ra);
    expect(seen).not.toContain('employee.created');
    expect(seen).toContain('employee.change_effective');
  });

  it('bounds the changes one employee has scheduled: the 101st is 409, a change effective today still goes (Hardening IV item 24)', async () => {
    const id = await newEmployee({ job_title: c.jobTitle });
    const repo = t.app.get(EmploymentHistoryRepository);
    const future = addDays(new Date().toISOString().slice(0, 10), 30);
    await transaction(t.app.get(DataSource), (em) =>
      repo.insertChanges(
        em,
        Array.from({ length: MAX_SCHEDULED }, (_, i) => ({
          employeeId: id,
          effectiveDate: addDays(future, i),
          reason: null,
          fields: JSON.stringify({ pay_grade: null }),
          salary: null,
          status: 'Scheduled' as const,
          recordedAt: new Date(Date.now() + i),
          recordedBy: null,
          cancelledAt: null,
          corrects: null,
        })),
      ),
    );
    const over = await call('POST', `/employees/${id}/changes`, admin, {
      effective_date: future,
      fields: { job_title: c.jobTitle },
    });
    expect([over.statusCode, over.json().error.code]).toEqual([409, 'CONFLICT']);
    const now = await call('POST', `/employees/${id}/changes`, admin, {
      effective_date: new Date().toISOString().slice(0, 10),
      fields: { job_title: c.jobTitle },
    });
    expect(now.statusCode).toBe(200);
  });

  it('lists who was in a department on a day: filters, sort and the dated columns of that day, scope of today', async () => {
    const dept = (await ok('POST', '/departments', admin, { name: 'History Lab', parent: c.departments.company })).id;
    const movedIn = await newEmployee();
    await ok('POST', `/employees/${movedIn}/changes`, admin, { effective_date: '2025-06-15', fields: { department: dept } });
    const movedOut = await newEmployee({ department: dept, supervisor: c.emp.manager });
    await ok('POST', `/employees/${movedOut}/changes`, admin, {
      effective_date: '2025-07-01',
      fields: { department: c.departments.sales },
    });
    const later = await newEmployee({ department: dept, joined_date: '2025-08-01' });
    const left = await newEmployee({ department: dept, termination_date: '2025-06-20' });
    const list = async (query: string, token = admin) =>
      (await ok('GET', `/employees?limit=100&${query}`, token)) as Array<{ id: number; department: number; status: string }>;
    const filter = (f: object) => `filters=${encodeURIComponent(JSON.stringify(f))}`;
    const june = await list(`as_of=2025-06-30&${filter({ department: dept })}`);
    expect(june.map((e) => e.id).sort((a, b) => a - b)).toEqual([movedIn, movedOut, left].sort((a, b) => a - b));
    expect(june.find((e) => e.id === left)!.status).toBe('Terminated');
    expect(june.every((e) => e.department === dept)).toBe(true);
    const active = await list(`as_of=2025-06-30&${filter({ department: dept, status: 'Active' })}`);
    expect(active.map((e) => e.id).sort((a, b) => a - b)).toEqual([movedIn, movedOut].sort((a, b) => a - b));
    const today = await list(filter({ department: dept }));
    expect(today.map((e) => e.id).sort((a, b) => a - b)).toEqual([movedIn, later, left].sort((a, b) => a - b));
    // A Manager's as-of list holds its reports of today only.
    const managed = await list(`as_of=2025-06-30&${filter({ department: dept })}`, c.users.manager.token);
    expect(managed.map((e) => e.id)).toEqual([movedOut]);
    const bad = await call('GET', '/employees?as_of=2025-13-01', admin);
    expect(bad.statusCode).toBe(400);
  });

  it('16 writers of one employee and day at once (changes, PUT /employees, PUT salary): all 200, ordered, the later recorded wins', async () => {
    const id = await newEmployee();
    const departments = [c.departments.engineering, c.departments.platform, c.departments.company, c.departments.sales];
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => {
        const department = departments[i % 4];
        if (i % 8 === 3) return call('PUT', `/employees/${id}`, admin, { department });
        if (i % 8 === 5)
          return call('PUT', `/employees/${id}/salary`, admin, { items: [{ component: basic, amount: 1000 + i }] });
        return call('POST', `/employees/${id}/changes`, admin, { effective_date: today, fields: { department } });
      }),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    const changes = (await ok('GET', `/employees/${id}/changes`)).slice(1) as Array<{
      recorded_at: string;
      fields: { department?: number };
      salary: Array<{ amount: string }> | null;
    }>;
    // 12 changes and 2 salaries always; a PUT that finds the department already set records nothing.
    expect(changes.length).toBeGreaterThanOrEqual(14);
    expect(changes.length).toBeLessThanOrEqual(16);
    expect(new Set(changes.map((x) => x.recorded_at)).size).toBe(changes.length);
    const byRecording = [...changes].sort((a, b) => a.recorded_at.localeCompare(b.recorded_at));
    const lastDepartment = byRecording.filter((x) => x.fields.department !== undefined).pop()!.fields.department;
    const lastSalary = byRecording.filter((x) => x.salary !== null).pop()!.salary;
    expect((await ok('GET', `/employees/${id}`)).department).toBe(lastDepartment);
    expect((await ok('GET', `/employees/${id}?as_of=${today}`)).department).toBe(lastDepartment);
    expect((await ok('GET', `/employees/${id}/salary`)).map((l: { amount: string }) => l.amount)).toEqual(
      lastSalary!.map((l) => l.amount),
    );
  });

  it('a termination takes effect on its day: Terminated, user deactivated and its tokens revoked, employee.terminated once', async () => {
    const id = await newEmployee();
    const user = await createUser(t.app, 'Employee', { employeeId: id });
    const leaving = addDays(today, 20);
    await ok('PUT', `/employees/${id}`, admin, { termination_date: leaving });
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(200);
    const jobs = t.app.get(EmploymentHistoryJobs);
    await jobs.run(new Date(`${addDays(leaving, -1)}T12:00:00Z`));
    expect((await ok('GET', `/employees/${id}`)).status).toBe('Active');
    await jobs.run(new Date(`${leaving}T00:10:00Z`));
    await jobs.run(new Date(`${leaving}T00:20:00Z`));
    expect((await ok('GET', `/employees/${id}`)).status).toBe('Terminated');
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
    expect((await ok('GET', `/users/${user.user.id}`)).active).toBe(false);
    const events = (await outboxEvents(t.app, 'employee.terminated')).filter((e) => (e.data as { id: number }).id === id);
    expect(events).toHaveLength(1);
  });

  it('headcount at each month end and turnover by the department of the day (insights)', async () => {
    t.app.get(CompanyClock).moveTo(new Date('2025-12-15T12:00:00Z'));
    const lab = (await ok('POST', '/departments', admin, { name: 'Workforce Lab', parent: c.departments.company })).id;
    const stays = await newEmployee({ joined_date: '2020-01-01', department: lab });
    const movesOut = await newEmployee({ joined_date: '2020-01-01', department: lab });
    await ok('POST', `/employees/${movesOut}/changes`, admin, {
      effective_date: '2025-09-01',
      fields: { department: c.departments.sales },
    });
    const joins = await newEmployee({ joined_date: '2025-10-10', department: lab });
    const leaves = await newEmployee({ joined_date: '2020-01-01', department: lab, termination_date: '2025-08-15' });
    expect([stays, joins, leaves].length).toBe(3);
    const rows = (await ok('GET', '/insights/headcount/6months')) as Array<{
      day: string;
      department: number;
      headcount: number;
    }>;
    expect(rows.filter((r) => r.department === lab).map((r) => [r.day, r.headcount])).toEqual([
      ['2025-06-30', 3],
      ['2025-07-31', 3],
      ['2025-08-31', 2],
      ['2025-09-30', 1],
      ['2025-10-31', 2],
      ['2025-11-30', 2],
      ['2025-12-15', 2],
    ]);
    const turnover = (await ok('GET', '/insights/turnover/6months')) as Array<{ department: number }>;
    expect(turnover.find((r) => r.department === lab)).toEqual({
      department: lab,
      department_name: 'Workforce Lab',
      leavers: 1,
      average_headcount: 2.14,
      turnover: 0.4673,
    });
    // An Employee's insight holds itself only.
    const own = (await ok('GET', '/insights/headcount/6months', c.users.employee.token)) as Array<{ headcount: number }>;
    expect(own.every((r) => r.headcount === 1)).toBe(true);
    expect((await call('GET', '/insights/turnover/5years', admin)).statusCode).toBe(400);
  });
});
