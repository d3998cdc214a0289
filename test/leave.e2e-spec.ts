import { apiCaller, createTestApp, outboxEvents, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';

describe('leave', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let annual: number;
  let sick: number;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    expect(
      (await call('POST', '/leave-periods', admin, { name: '2026', date_start: '2026-01-01', date_end: '2026-12-31' }))
        .statusCode,
    ).toBe(200);
    annual = (await call('POST', '/leave-types', admin, { name: 'Annual', default_days: 20, color: '#4caf50' })).json().data.id;
    sick = (await call('POST', '/leave-types', admin, { name: 'Sick', default_days: 0, allow_negative: true })).json().data.id;
    // Monday 9 March 2026 is a holiday.
    expect((await call('POST', '/holidays', admin, { name: 'Founders Day', date: '2026-03-09' })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  const balance = async (employee: number, token = admin) => {
    const res = await call('GET', `/employees/${employee}/leaves/summary`, token);
    return res.json().data.types.find((x: { leave_type: number }) => x.leave_type === annual);
  };

  it('Thursday to the following Tuesday over a weekend and a holiday counts 3 days; approval moves them from available to taken', async () => {
    const employee = c.users.employee; // report1, supervised by the manager
    const res = await call('POST', '/leaves', employee.token, {
      leave_type: annual,
      date_start: '2026-03-05',
      date_end: '2026-03-10',
      reason: 'trip',
    });
    expect(res.statusCode).toBe(200);
    const request = res.json().data;
    expect(request).toMatchObject({ employee: c.emp.report1, days: 3, status: 'Pending', half_day: false, approver: null });
    expect(await balance(c.emp.report1)).toEqual({
      leave_type: annual,
      name: 'Annual',
      entitled: 20,
      taken: 0,
      pending: 3,
      available: 20,
    });

    // The requester cannot decide its own request.
    const own = await call('POST', `/leaves/${request.id}/approve`, employee.token);
    expect([own.statusCode, own.json().error.code]).toEqual([403, 'FORBIDDEN']);

    const approved = await call('POST', `/leaves/${request.id}/approve`, c.users.manager.token);
    expect(approved.json().data).toMatchObject({ status: 'Approved', approver: c.emp.manager, decided_at: expect.any(String) });
    expect(await balance(c.emp.report1)).toEqual({
      leave_type: annual,
      name: 'Annual',
      entitled: 20,
      taken: 3,
      pending: 0,
      available: 17,
    });

    const overlap = await call('POST', '/leaves', employee.token, {
      leave_type: annual,
      date_start: '2026-03-10',
      date_end: '2026-03-12',
    });
    expect([overlap.statusCode, overlap.json().error.code]).toEqual([409, 'LEAVE_OVERLAP']);
    // It names the request it overlaps and its days (Hardening IV item 9).
    expect(overlap.json().error.message).toMatch(
      new RegExp(`^The request overlaps your approved leave request ${request.id} \\(2026-03-\\d\\d to 2026-03-\\d\\d\\)`),
    );

    expect(
      (await outboxEvents(t.app, 'leave.requested', 'leave.decided')).filter((e) => (e.data as { id: number }).id === request.id),
    ).toEqual([
      { event: 'leave.requested', data: expect.objectContaining({ id: request.id, employee: c.emp.report1 }) },
      {
        event: 'leave.decided',
        data: expect.objectContaining({
          id: request.id,
          employee: c.emp.report1,
          changes: expect.objectContaining({ status: ['Pending', 'Approved'] }),
        }),
      },
    ]);
  });

  it('moves only along the named transitions; cancelling approved leave gives the days back', async () => {
    const token = c.users.employee.token;
    const id = (
      await call('POST', '/leaves', token, { leave_type: annual, date_start: '2026-04-06', date_end: '2026-04-07' })
    ).json().data.id;
    expect((await call('POST', `/leaves/${id}/cancel`, c.users.manager.token)).statusCode).toBe(403); // not the requester, not an Admin
    expect((await call('POST', `/leaves/${id}/approve`, c.users.manager.token)).statusCode).toBe(200);
    const again = await call('POST', `/leaves/${id}/approve`, c.users.manager.token);
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'INVALID_STATE']);
    const before = await balance(c.emp.report1);
    expect((await call('POST', `/leaves/${id}/cancel`, token)).json().data.status).toBe('Cancelled');
    const after = await balance(c.emp.report1);
    expect(after.taken).toBe(before.taken - 2);
    expect((await call('POST', `/leaves/${id}/reject`, admin)).json().error.code).toBe('INVALID_STATE');
    expect((await call('POST', `/leaves/${id}/cancel`, token)).json().error.code).toBe('INVALID_STATE');

    const rejected = (
      await call('POST', '/leaves', token, { leave_type: annual, date_start: '2026-04-20', date_end: '2026-04-20' })
    ).json().data.id;
    expect((await call('POST', `/leaves/${rejected}/reject`, admin)).json().data).toMatchObject({
      status: 'Rejected',
      approver: null,
    });
  });

  it('refuses a request beyond the free balance unless the type allows negative; half days count 0.5', async () => {
    const token = c.users.manager.token; // the manager applies for itself
    const big = await call('POST', '/leaves', token, { leave_type: annual, date_start: '2026-06-01', date_end: '2026-07-03' });
    expect([big.statusCode, big.json().error.code, big.json().error.details[0].field]).toEqual([
      400,
      'INSUFFICIENT_BALANCE',
      'days',
    ]);
    const sickLeave = await call('POST', '/leaves', token, {
      leave_type: sick,
      date_start: '2026-06-01',
      date_end: '2026-06-05',
    });
    expect(sickLeave.json().data.days).toBe(5);
    const half = await call('POST', '/leaves', token, {
      leave_type: annual,
      date_start: '2026-06-10',
      date_end: '2026-06-10',
      half_day: true,
    });
    expect(half.json().data).toMatchObject({ days: 0.5, half_day: true });
    // Entitlements replace the type's default for an employee and period.
    const period = (await call('GET', '/leave-periods', admin)).json().data[0].id;
    await call('POST', '/leave-entitlements', admin, {
      employee: c.emp.manager,
      leave_type: annual,
      leave_period: period,
      days: 40,
    });
    expect((await balance(c.emp.manager)).entitled).toBe(40);
    expect(
      (await call('POST', '/leaves', token, { leave_type: annual, date_start: '2026-06-15', date_end: '2026-07-03' })).statusCode,
    ).toBe(200);
  });

  it('GET /leave-entitlements lists the entitlements of the employees the caller may list, with no filter needed (issue 25)', async () => {
    const period = (await call('GET', '/leave-periods', admin)).json().data[0].id;
    for (const employee of Object.values(c.emp))
      expect(
        (await call('POST', '/leave-entitlements', admin, { employee, leave_type: sick, leave_period: period, days: 5 }))
          .statusCode,
      ).toBe(200);
    const employeesOf = async (token: string, filters?: object) => {
      const res = await call(
        'GET',
        `/leave-entitlements?limit=500${filters ? `&filters=${JSON.stringify(filters)}` : ''}`,
        token,
      );
      expect(res.statusCode).toBe(200);
      return [...new Set(res.json().data.map((e: { employee: number }) => e.employee))].sort();
    };
    const sorted = (...ids: number[]) => ids.sort();
    const { manager, report1, report2, grandReport, outsider } = c.emp;
    expect(await employeesOf(c.users.employee.token)).toEqual([report1]);
    expect(await employeesOf(c.users.manager.token)).toEqual(sorted(manager, report1, report2));
    expect(await employeesOf(c.users.restricted.token)).toEqual(sorted(manager, report1, report2, grandReport));
    expect(await employeesOf(admin)).toEqual(sorted(manager, report1, report2, grandReport, outsider));
    // A filter narrows within what the caller may list: another's entitlements are not there.
    expect(await employeesOf(c.users.employee.token, { employee: outsider })).toEqual([]);
    expect(await employeesOf(c.users.manager.token, { employee: [report2, outsider] })).toEqual([report2]);
  });

  it('validates requests: dates in order, half days on one day, a covering period, a working day', async () => {
    const token = c.users.employee.token;
    const bad = async (body: object, field: string) => {
      const res = await call('POST', '/leaves', token, { leave_type: annual, ...body });
      expect([field, res.statusCode, res.json().error.details?.[0]?.field]).toEqual([field, 400, field]);
    };
    await bad({ date_start: '2026-05-05', date_end: '2026-05-04' }, 'date_end');
    await bad({ date_start: '2026-05-04', date_end: '2026-05-05', half_day: true }, 'half_day');
    await bad({ date_start: '2025-12-29', date_end: '2025-12-30' }, 'date_start'); // no period
    await bad({ date_start: '2026-12-30', date_end: '2027-01-04' }, 'date_end'); // crosses the period end
    await bad({ date_start: '2026-05-09', date_end: '2026-05-10' }, 'date_start'); // a weekend
    await bad({ date_start: '2026-05-04', date_end: '2026-02-30' }, 'date_end');
    const unknownType = await call('POST', '/leaves', token, {
      leave_type: 999999,
      date_start: '2026-05-04',
      date_end: '2026-05-04',
    });
    expect(unknownType.json().error.details[0].field).toBe('leave_type');
  });

  it('follows the Work Week setting', async () => {
    await call('PUT', '/settings', admin, { name: 'Work Week', value: 'Mon,Tue,Wed,Thu' });
    const res = await call('POST', '/leaves', c.users.employee.token, {
      leave_type: annual,
      date_start: '2026-05-11',
      date_end: '2026-05-15',
    });
    expect(res.json().data.days).toBe(4);
    await call('PUT', '/settings', admin, { name: 'Work Week', value: 'Mon,Tue,Wed,Thu,Fri' });
    expect((await call('PUT', '/settings', admin, { name: 'Work Week', value: 'Monday' })).statusCode).toBe(400);
  });

  it("a Manager reads its direct reports' leaves and nobody else's (404); an Employee only its own", async () => {
    const m = c.users.manager.token;
    expect((await call('GET', `/employees/${c.emp.report1}/leaves`, m)).json().total).toBeGreaterThan(0);
    expect((await call('GET', `/employees/${c.emp.report1}/leaves/summary`, m)).statusCode).toBe(200);
    for (const id of [c.emp.grandReport, c.emp.outsider]) {
      expect((await call('GET', `/employees/${id}/leaves`, m)).statusCode).toBe(404);
      expect((await call('GET', `/employees/${id}/leaves/summary`, m)).statusCode).toBe(404);
    }
    const e = c.users.employee.token;
    const own = await call('GET', `/employees/${c.emp.report1}/leaves`, e);
    const dates = own.json().data.map((l: { date_start: string }) => l.date_start);
    expect(dates).toEqual([...dates].sort().reverse()); // newest first
    expect((await call('GET', `/employees/${c.emp.manager}/leaves`, e)).statusCode).toBe(404);
    // The leave list: an Employee's own requests only (docs/api/decisions.md §9).
    const ownList = await call('GET', '/leaves?limit=500', e);
    expect(ownList.statusCode).toBe(200);
    expect(ownList.json().data.every((r: { employee: number }) => r.employee === c.emp.report1)).toBe(true);
    // An Employee applies for itself only.
    const forOther = await call('POST', '/leaves', c.users.manager.token, {
      employee: c.emp.report1,
      leave_type: sick,
      date_start: '2026-08-03',
      date_end: '2026-08-03',
    });
    expect(forOther.statusCode).toBe(403);
    const summary = (await call('GET', `/employees/${c.emp.report1}/leaves/summary`, e)).json().data;
    expect(summary.period).toMatchObject({ name: '2026' });
    expect(Object.keys(summary.by_status)).toEqual(['Pending', 'Approved', 'Rejected', 'Cancelled']);
  });

  it('leave periods never overlap; one holiday per date', async () => {
    const overlap = await call('POST', '/leave-periods', admin, {
      name: 'Overlap',
      date_start: '2026-12-01',
      date_end: '2027-11-30',
    });
    expect(overlap.statusCode).toBe(409);
    const dup = await call('POST', '/holidays', admin, { name: 'Again', date: '2026-03-09' });
    expect([dup.statusCode, dup.json().error.details[0].field]).toEqual([409, 'date']);
    expect(
      (await call('POST', '/leave-periods', admin, { name: '2027', date_start: '2027-01-01', date_end: '2027-12-31' }))
        .statusCode,
    ).toBe(200);
    expect((await call('DELETE', `/leave-types/${annual}`, admin)).json().error.code).toBe('IN_USE');
  });
});
