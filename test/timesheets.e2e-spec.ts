import { apiCaller, createTestApp, outboxEvents, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';

describe('timesheets', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let project: number;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    project = (await call('POST', '/projects', c.users.admin.token, { name: 'Apollo', client: 'NASA' })).json().data.id;
  });
  afterAll(() => t.close());

  it('an employee records, corrects and submits its time; the supervisor approves; approved entries are final', async () => {
    const me = c.users.employee.token;
    const created = await call('POST', '/timesheets', me, {
      project,
      date: '2026-03-10',
      start: '09:00',
      end: '12:30',
      details: 'design',
    });
    expect(created.json().data).toEqual({
      id: expect.any(Number),
      employee: c.emp.report1,
      project,
      date: '2026-03-10',
      start: '09:00',
      end: '12:30',
      hours: 3.5,
      details: 'design',
      status: 'Draft',
      approval: null, // until submitted (issue 45)
    });
    const id = created.json().data.id;
    expect((await call('PUT', `/timesheets/${id}`, me, { end: '12:45' })).json().data.hours).toBe(3.75);
    expect((await call('POST', `/timesheets/${id}/approve`, c.users.manager.token)).json().error.code).toBe('INVALID_STATE'); // not submitted
    expect((await call('POST', `/timesheets/${id}/submit`, me)).json().data.status).toBe('Submitted');
    // The submission is an event in the outbox (approvers' task and notification, webhooks), once.
    expect((await outboxEvents(t.app, 'timesheet.submitted')).filter((e) => (e.data as { id: number }).id === id)).toEqual([
      { event: 'timesheet.submitted', data: expect.objectContaining({ id, employee: c.emp.report1 }) },
    ]);
    expect((await call('PUT', `/timesheets/${id}`, me, { details: 'x' })).json().error.code).toBe('INVALID_STATE');
    expect((await call('POST', `/timesheets/${id}/approve`, me)).json().error.code).toBe('FORBIDDEN'); // its own
    expect((await call('POST', `/timesheets/${id}/approve`, c.users.manager.token)).json().data.status).toBe('Approved');
    expect((await call('DELETE', `/timesheets/${id}`, me)).json().error.code).toBe('INVALID_STATE');
  });

  it('a rejected entry can be corrected and submitted again', async () => {
    const me = c.users.employee.token;
    const id = (await call('POST', '/timesheets', me, { date: '2026-03-11', start: '13:00', end: '17:00' })).json().data.id;
    await call('POST', `/timesheets/${id}/submit`, me);
    expect((await call('POST', `/timesheets/${id}/reject`, c.users.admin.token)).json().data.status).toBe('Rejected');
    expect((await call('PUT', `/timesheets/${id}`, me, { start: '13:30' })).json().data).toMatchObject({
      status: 'Draft',
      hours: 3.5,
    });
    expect((await call('POST', `/timesheets/${id}/submit`, me)).json().data.status).toBe('Submitted');
  });

  it('validates entries: end after start, known project, no overlap on the same day', async () => {
    const me = c.users.employee.token;
    const bad = async (body: object, status: number, field: string) => {
      const res = await call('POST', '/timesheets', me, { date: '2026-03-12', start: '09:00', end: '10:00', ...body });
      expect([field, res.statusCode, res.json().error.details?.[0]?.field]).toEqual([field, status, field]);
    };
    await bad({ end: '08:00' }, 400, 'end');
    await bad({ start: '25:00' }, 400, 'start');
    await bad({ project: 999999 }, 400, 'project');
    await bad({ date: '2026-02-30' }, 400, 'date');
    expect((await call('POST', '/timesheets', me, { date: '2026-03-12', start: '09:00', end: '10:00' })).statusCode).toBe(200);
    await bad({ start: '09:30', end: '11:00' }, 409, 'start');
    expect((await call('POST', '/timesheets', me, { date: '2026-03-12', start: '10:00', end: '11:00' })).statusCode).toBe(200);
  });

  it('lists by scope: a Manager sees its direct reports, an Employee its own through its employee; others 404', async () => {
    const manager = await call('GET', '/timesheets?limit=500', c.users.manager.token);
    expect(manager.json().data.every((e: { employee: number }) => [c.emp.report1, c.emp.report2].includes(e.employee))).toBe(
      true,
    );
    expect(manager.json().total).toBeGreaterThan(0);
    // An Employee's list holds its own entries only (docs/api/decisions.md §9).
    const mine = (await call('GET', '/timesheets?limit=500', c.users.employee.token)).json();
    expect(mine.total).toBeGreaterThan(0);
    expect(mine.data.every((r: { employee: number }) => r.employee === c.emp.report1)).toBe(true);
    const own = await call('GET', `/employees/${c.emp.report1}/timesheets?from=2026-03-12&to=2026-03-12`, c.users.employee.token);
    expect(
      own
        .json()
        .data.map((e: { start: string }) => e.start)
        .sort(),
    ).toEqual(['09:00', '10:00']);
    expect((await call('GET', `/employees/${c.emp.outsider}/timesheets`, c.users.manager.token)).statusCode).toBe(404);
    const filtered = await call(
      'GET',
      `/timesheets?filters=${encodeURIComponent(JSON.stringify({ status: 'Approved', project }))}`,
      c.users.admin.token,
    );
    expect(filtered.json().data.map((e: { status: string }) => e.status)).toEqual(['Approved']);
    // An outsider's entry is invisible to the manager: 404, not 403.
    const theirs = (
      await call('POST', '/timesheets', c.users.admin.token, {
        employee: c.emp.outsider,
        date: '2026-03-10',
        start: '09:00',
        end: '10:00',
      })
    ).json().data.id;
    expect((await call('GET', `/timesheets/${theirs}`, c.users.manager.token)).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/timesheets', c.users.manager.token, {
          employee: c.emp.report1,
          date: '2026-03-20',
          start: '09:00',
          end: '10:00',
        })
      ).statusCode,
    ).toBe(403);
  });
});
