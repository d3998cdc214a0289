import { DataSource } from 'typeorm';
import { CompanyClock } from '../src/common/time/company-clock';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { insertRows } from '../src/database/seeds/seed-tools';
import { INSIGHT_NAMES } from '../src/insights/insights.dto';
import { expandLeaveDays } from '../src/leave/leave-days';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

const PERIODS = ['6months', '1year', '2years', '3years', 'all'] as const;
const WEEK = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

/** 31 items, zeros except `values` ({day: [value, days?]}). */
const month = (values: Record<number, number | [number, number]>) =>
  Array.from({ length: 31 }, (_, i) => {
    const v = values[i + 1];
    return Array.isArray(v) ? { day: i + 1, value: v[0], days: v[1] } : { day: i + 1, value: v ?? 0 };
  });
const leaveMonth = (values: Record<number, [number, number]>) =>
  Array.from({ length: 31 }, (_, i) => ({ day: i + 1, value: values[i + 1]?.[0] ?? 0, days: values[i + 1]?.[1] ?? 0 }));
const week = (values: Record<string, number>) => WEEK.map((day) => ({ day, value: values[day] ?? 0 }));
const leaveWeek = (values: Record<string, [number, number]>) =>
  WEEK.map((day) => ({ day, value: values[day]?.[0] ?? 0, days: values[day]?.[1] ?? 0 }));

/**
 * A hand-computed fixture, "today" being Monday 15 June 2026 (TZ=UTC): 6months starts on
 * 2025-12-16, 1year on 2025-06-16, 2years on 2024-06-16, 3years on 2023-06-16.
 *
 * Leave (Mon-Fri work week, no holidays):
 *   L1 report1  Annual 2026-06-10..12 (Wed-Fri)   Approved  3 days
 *   L2 report2  Sick   2025-12-15..19 (Mon-Fri)   Approved  5 days (4 inside 6months)
 *   L3 outsider Annual 2024-03-04..05 (Mon-Tue)   Approved  2 days (3years and all only; written raw, then expanded)
 *   L4 manager  Annual 2026-06-15..16 (Mon-Tue)   Approved  2 days (1 up to today)
 *   L5 report1  Annual 2026-05-04 half day        Pending   0.5
 *   L6 report2  Annual 2026-04-06..07             Rejected  2 days
 * Attendance (UTC): A1 report1 2026-06-12 Fri 8 h; A2 report1 2026-06-15 Mon 4.5 h (home);
 *   A3 report2 2025-12-31 Wed 22:00 → 06:00 8 h (counts on the 31st); A4 manager 2026-06-15 open;
 *   A5 outsider 2024-01-10 Wed 4 h; A6 report1 2026-06-16 (tomorrow: never counted).
 * Time entries: T1 report1 2026-06-12 180 min Approved; T2 report1 2026-06-12 90 min Submitted;
 *   T3 report2 2026-06-01 120 min Rejected (never counted); T4 report2 2025-11-03 Mon 510 min Approved;
 *   T5 grandReport 2026-06-15 Mon 60 min Draft.
 */
describe('insights: eleven endpoints over five periods, against a hand-computed fixture', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const types: Record<string, number> = {};

  const get = (url: string, token = admin) => okCaller(t.app)('GET', url, token);

  beforeAll(async () => {
    t = await createTestApp({ INSIGHTS_CACHE_MS: '500' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    t.app.get(CompanyClock).moveTo(new Date('2026-06-15T12:00:00Z'));
    for (const y of [2023, 2024, 2025, 2026]) {
      expect(
        (await call('POST', '/leave-periods', admin, { name: String(y), date_start: `${y}-01-01`, date_end: `${y}-12-31` }))
          .statusCode,
      ).toBe(200);
    }
    types.annual = (await call('POST', '/leave-types', admin, { name: 'Annual', default_days: 20 })).json().data.id;
    types.sick = (
      await call('POST', '/leave-types', admin, { name: 'Sick', default_days: 0, allow_negative: true })
    ).json().data.id;
    const leave = async (
      employee: number,
      type: number,
      date_start: string,
      date_end: string,
      decide?: 'approve' | 'reject',
      half_day = false,
    ) => {
      const res = await call('POST', '/leaves', admin, { employee, leave_type: type, date_start, date_end, half_day });
      expect(res.statusCode).toBe(200);
      if (decide) expect((await call('POST', `/leaves/${res.json().data.id}/${decide}`, admin)).statusCode).toBe(200);
    };
    await leave(c.emp.report1, types.annual, '2026-06-10', '2026-06-12', 'approve');
    await leave(c.emp.report2, types.sick, '2025-12-15', '2025-12-19', 'approve');
    await leave(c.emp.manager, types.annual, '2026-06-15', '2026-06-16', 'approve');
    await leave(c.emp.report1, types.annual, '2026-05-04', '2026-05-04', undefined, true);
    await leave(c.emp.report2, types.annual, '2026-04-06', '2026-04-07', 'reject');
    // L3 arrives as rows of an older installation would: the request alone, its days expanded afterwards.
    const ds = t.app.get(DataSource);
    await insertRows(
      ds,
      'leave_requests',
      ['employee_id', 'leave_type_id', 'date_start', 'date_end', 'half_day', 'days', 'status'],
      [[c.emp.outsider, types.annual, '2024-03-04', '2024-03-05', false, 2, 'Approved']],
    );
    expect(await expandLeaveDays((sql, params) => ds.query(sql, params))).toBe(2);
    expect(await expandLeaveDays((sql, params) => ds.query(sql, params))).toBe(0); // only requests without days
    await rebuildInsightRollups(ds); // as the migration and the seeds do after expanding

    // Attendance and time entries through the API, so the rollups the company figures read are kept by the services.
    const attendance: Array<[number, string, string | null, boolean]> = [
      [c.emp.report1, '2026-06-12T09:00:00Z', '2026-06-12T17:00:00Z', false],
      [c.emp.report1, '2026-06-15T08:00:00Z', '2026-06-15T12:30:00Z', true],
      [c.emp.report2, '2025-12-31T22:00:00Z', '2026-01-01T06:00:00Z', false],
      [c.emp.manager, '2026-06-15T10:00:00Z', null, false],
      [c.emp.outsider, '2024-01-10T09:00:00Z', '2024-01-10T13:00:00Z', false],
      [c.emp.report1, '2026-06-16T09:00:00Z', '2026-06-16T10:00:00Z', false],
    ];
    for (const [employee, in_time, out_time, work_from_home] of attendance) {
      await okCaller(t.app)('POST', '/attendance', admin, {
        employee,
        in_time,
        ...(out_time ? { out_time } : {}),
        work_from_home,
      });
    }
    const entries: Array<[number, string, string, string, 'Approved' | 'Submitted' | 'Rejected' | 'Draft']> = [
      [c.emp.report1, '2026-06-12', '09:00', '12:00', 'Approved'],
      [c.emp.report1, '2026-06-12', '13:00', '14:30', 'Submitted'],
      [c.emp.report2, '2026-06-01', '09:00', '11:00', 'Rejected'],
      [c.emp.report2, '2025-11-03', '08:30', '17:00', 'Approved'],
      [c.emp.grandReport, '2026-06-15', '09:00', '10:00', 'Draft'],
    ];
    for (const [employee, date, start, end, status] of entries) {
      const { id } = await okCaller(t.app)('POST', '/timesheets', admin, { employee, date, start, end });
      if (status !== 'Draft') await okCaller(t.app)('POST', `/timesheets/${id}/submit`, admin);
      if (status === 'Approved') await okCaller(t.app)('POST', `/timesheets/${id}/approve`, admin);
      if (status === 'Rejected') await okCaller(t.app)('POST', `/timesheets/${id}/reject`, admin);
    }
  });
  afterAll(() => t.close());

  it('leave-summary: requests with days in the period and only those days, by status', async () => {
    const summary = (approved: [number, number]) => [
      { status: 'Pending', requests: 1, days: 0.5 },
      { status: 'Approved', requests: approved[0], days: approved[1] },
      { status: 'Rejected', requests: 1, days: 2 },
      { status: 'Cancelled', requests: 0, days: 0 },
    ];
    expect(await get('/insights/leave-summary/6months')).toEqual(summary([3, 8]));
    expect(await get('/insights/leave-summary/1year')).toEqual(summary([3, 9]));
    expect(await get('/insights/leave-summary/2years')).toEqual(summary([3, 9]));
    expect(await get('/insights/leave-summary/3years')).toEqual(summary([4, 11]));
    expect(await get('/insights/leave-summary/all')).toEqual(summary([4, 11]));
  });

  it('leave patterns, type distribution and departments count the same approved days', async () => {
    expect(await get('/insights/leave-monthly-pattern/1year')).toEqual(
      leaveMonth({ 10: [1, 1], 11: [1, 1], 12: [1, 1], 15: [2, 2], 16: [1, 1], 17: [1, 1], 18: [1, 1], 19: [1, 1] }),
    );
    expect(await get('/insights/leave-monthly-pattern/6months')).toEqual(
      leaveMonth({ 10: [1, 1], 11: [1, 1], 12: [1, 1], 15: [1, 1], 16: [1, 1], 17: [1, 1], 18: [1, 1], 19: [1, 1] }),
    );
    expect(await get('/insights/leave-monthly-pattern/all')).toEqual(
      leaveMonth({
        4: [1, 1],
        5: [1, 1],
        10: [1, 1],
        11: [1, 1],
        12: [1, 1],
        15: [2, 2],
        16: [1, 1],
        17: [1, 1],
        18: [1, 1],
        19: [1, 1],
      }),
    );
    expect(await get('/insights/leave-weekly-pattern/1year')).toEqual(
      leaveWeek({ Monday: [2, 2], Tuesday: [1, 1], Wednesday: [2, 2], Thursday: [2, 2], Friday: [2, 2] }),
    );
    expect(await get('/insights/leave-weekly-pattern/3years')).toEqual(
      leaveWeek({ Monday: [3, 3], Tuesday: [2, 2], Wednesday: [2, 2], Thursday: [2, 2], Friday: [2, 2] }),
    );
    expect(await get('/insights/leave-type-distribution/1year')).toEqual([
      { leave_type: types.annual, name: 'Annual', requests: 2, days: 4 },
      { leave_type: types.sick, name: 'Sick', requests: 1, days: 5 },
    ]);
    expect(await get('/insights/leave-type-distribution/6months')).toEqual([
      { leave_type: types.annual, name: 'Annual', requests: 2, days: 4 },
      { leave_type: types.sick, name: 'Sick', requests: 1, days: 4 },
    ]);
    expect(await get('/insights/leave-by-department/1year')).toEqual([
      { department: c.departments.engineering, name: expect.stringMatching(/^Engineering/), requests: 2, days: 6 },
      { department: c.departments.platform, name: expect.stringMatching(/^Platform/), requests: 1, days: 3 },
    ]);
    expect(await get('/insights/leave-by-department/all')).toEqual([
      { department: c.departments.engineering, name: expect.stringMatching(/^Engineering/), requests: 2, days: 6 },
      { department: c.departments.platform, name: expect.stringMatching(/^Platform/), requests: 1, days: 3 },
      { department: c.departments.sales, name: expect.stringMatching(/^Sales/), requests: 1, days: 2 },
    ]);
    // The same approved days everywhere (1year: 9).
    const sum = (xs: Array<{ days: number }>) => xs.reduce((a, x) => a + x.days, 0);
    for (const p of PERIODS) {
      const approved = (await get(`/insights/leave-summary/${p}`)).find((s: { status: string }) => s.status === 'Approved').days;
      expect([p, sum(await get(`/insights/leave-monthly-pattern/${p}`))]).toEqual([p, approved]);
      expect([p, sum(await get(`/insights/leave-weekly-pattern/${p}`))]).toEqual([p, approved]);
      expect([p, sum(await get(`/insights/leave-type-distribution/${p}`))]).toEqual([p, approved]);
      expect([p, sum(await get(`/insights/leave-by-department/${p}`))]).toEqual([p, approved]);
    }
  });

  it('attendance: records started in the period, hours on the day they start', async () => {
    expect(await get('/insights/attendance-summary/6months')).toEqual({
      records: 4,
      employees: 3,
      total_hours: 20.5,
      average_hours: 6.83,
      work_from_home_records: 1,
      expected_days: 650, // 26 weeks from Tuesday 16 December to Monday 15 June: 130 working days × 5 employees
    });
    for (const p of ['1year', '2years'])
      expect(await get(`/insights/attendance-summary/${p}`)).toMatchObject({ records: 4, total_hours: 20.5 });
    for (const p of ['3years', 'all']) {
      expect(await get(`/insights/attendance-summary/${p}`)).toEqual({
        records: 5,
        employees: 4,
        total_hours: 24.5,
        average_hours: 6.13,
        work_from_home_records: 1,
        expected_days: expect.any(Number),
      });
    }
    const hours = (rows: Array<{ expected_days?: number }>) =>
      rows.map(({ expected_days, ...r }) => (expect(expected_days).toEqual(expect.any(Number)), r));
    expect(hours(await get('/insights/attendance-monthly-pattern/6months'))).toEqual(month({ 12: 8, 15: 4.5, 31: 8 }));
    expect(hours(await get('/insights/attendance-monthly-pattern/all'))).toEqual(month({ 10: 4, 12: 8, 15: 4.5, 31: 8 }));
    expect(hours(await get('/insights/attendance-weekly-pattern/1year'))).toEqual(week({ Monday: 4.5, Wednesday: 8, Friday: 8 }));
    expect(hours(await get('/insights/attendance-weekly-pattern/all'))).toEqual(week({ Monday: 4.5, Wednesday: 12, Friday: 8 }));
    // What was owed: the same 26 weeks, each weekday 26 times for each of the 5 employees; since
    // they joined (Wednesday 15 January 2020) for `all`, the summary being the patterns' sum.
    const owed = (rows: Array<{ expected_days: number }>) => rows.map((r) => r.expected_days);
    expect(owed(await get('/insights/attendance-weekly-pattern/6months'))).toEqual([130, 130, 130, 130, 130, 0, 0]);
    expect(owed(await get('/insights/attendance-monthly-pattern/6months')).reduce((a, b) => a + b)).toBe(650);
    const all = (await get('/insights/attendance-summary/all')).expected_days;
    expect(owed(await get('/insights/attendance-weekly-pattern/all')).reduce((a, b) => a + b)).toBe(all);
    expect(all).toBe(5 * 1674); // 15 January 2020 to 15 June 2026: 2 344 days, 1 674 of them Monday to Friday
  });

  it('timesheets: entries of the period except rejected ones', async () => {
    expect(await get('/insights/timesheet-summary/6months')).toEqual({
      entries: 3,
      employees: 2,
      total_hours: 5.5,
      average_hours: 1.83,
    });
    for (const p of ['1year', '2years', '3years', 'all'])
      expect(await get(`/insights/timesheet-summary/${p}`)).toEqual({
        entries: 4,
        employees: 3,
        total_hours: 14,
        average_hours: 3.5,
      });
    expect(await get('/insights/timesheet-monthly-pattern/1year')).toEqual(month({ 3: 8.5, 12: 4.5, 15: 1 }));
    expect(await get('/insights/timesheet-monthly-pattern/6months')).toEqual(month({ 12: 4.5, 15: 1 }));
    expect(await get('/insights/timesheet-weekly-pattern/1year')).toEqual(week({ Monday: 9.5, Friday: 4.5 }));
  });

  it('scope: Restricted Admin its departments, Manager its direct reports, Employee itself, no employee nothing', async () => {
    const approved = async (token: string, p = 'all') =>
      (await get(`/insights/leave-summary/${p}`, token)).find((s: { status: string }) => s.status === 'Approved');
    expect(await approved(c.users.restricted.token)).toEqual({ status: 'Approved', requests: 3, days: 9 }); // not Sales
    expect(await approved(c.users.manager.token)).toEqual({ status: 'Approved', requests: 2, days: 8 }); // report1 + report2, not itself
    expect(await approved(c.users.employee.token)).toEqual({ status: 'Approved', requests: 1, days: 3 }); // report1
    expect(await approved(c.users.orphan.token)).toEqual({ status: 'Approved', requests: 0, days: 0 });
    expect(await get('/insights/leave-by-department/all', c.users.restricted.token)).toHaveLength(2);
    expect(await get('/insights/attendance-summary/6months', c.users.employee.token)).toEqual({
      records: 2,
      employees: 1,
      total_hours: 12.5,
      average_hours: 6.25,
      work_from_home_records: 1,
      expected_days: 130,
    });
    expect((await get('/insights/attendance-summary/6months', c.users.manager.token)).expected_days).toBe(260); // its two reports
    expect((await get('/insights/attendance-summary/6months', c.users.restricted.token)).expected_days).toBe(520); // not Sales
    expect((await get('/insights/attendance-summary/6months', c.users.orphan.token)).expected_days).toBe(0);
    expect(await get('/insights/attendance-summary/all', c.users.manager.token)).toMatchObject({
      records: 3,
      employees: 2,
      total_hours: 20.5,
    });
    expect(await get('/insights/timesheet-summary/1year', c.users.manager.token)).toEqual({
      entries: 3,
      employees: 2,
      total_hours: 13,
      average_hours: 4.33,
    });
    expect(await get('/insights/timesheet-summary/1year', c.users.restricted.token)).toMatchObject({ entries: 4, employees: 3 });
    expect(await get('/insights/timesheet-summary/all', c.users.orphan.token)).toEqual({
      entries: 0,
      employees: 0,
      total_hours: 0,
      average_hours: 0,
    });
  });

  it('a figure is reused for INSIGHTS_CACHE_MS within its scope, then computed again', async () => {
    const approved = async (token: string) =>
      (await get('/insights/leave-summary/1year', token)).find((s: { status: string }) => s.status === 'Approved');
    // The cache's clock is held still while the leave is approved, so a slow database (the CI's
    // MariaDB took longer than the 500 ms TTL) cannot expire the entry in between; then it moves on.
    const realNow = Date.now.bind(Date);
    const start = realNow() + 1000; // past every entry the earlier tests left
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => start);
    try {
      expect(await approved(c.users.employee.token)).toEqual({ status: 'Approved', requests: 1, days: 3 });
      const res = await call('POST', '/leaves', admin, {
        employee: c.emp.report1,
        leave_type: types.sick,
        date_start: '2026-06-08',
        date_end: '2026-06-08',
      });
      expect((await call('POST', `/leaves/${res.json().data.id}/approve`, admin)).statusCode).toBe(200);
      expect(await approved(c.users.employee.token)).toEqual({ status: 'Approved', requests: 1, days: 3 }); // within 500 ms
      clock.mockImplementation(() => start + 600);
      expect(await approved(c.users.employee.token)).toEqual({ status: 'Approved', requests: 2, days: 4 });
      expect(await approved(c.users.manager.token)).toEqual({ status: 'Approved', requests: 3, days: 9 });
    } finally {
      clock.mockRestore();
    }
  });

  it('every endpoint answers each period in its shape; any other period is 400 INVALID_PERIOD; a token is needed', async () => {
    for (const e of INSIGHT_NAMES) {
      for (const p of PERIODS) {
        const data = await get(`/insights/${e}/${p}`, c.users.employee.token);
        if (e.endsWith('monthly-pattern')) expect(data).toHaveLength(31);
        else if (e.endsWith('weekly-pattern')) expect(data.map((d: { day: string }) => d.day)).toEqual(WEEK);
        else if (e.endsWith('summary') && !e.startsWith('leave')) expect(typeof data).toBe('object');
        else expect(Array.isArray(data)).toBe(true);
      }
      for (const bad of ['5years', '1Year', '', '6months%20', '__proto__', 'constructor']) {
        const res = await call('GET', `/insights/${e}/${bad}`, admin);
        if (bad === '') {
          expect(res.statusCode).toBe(404);
          continue;
        }
        expect([e, bad, res.statusCode, res.json().error.code]).toEqual([e, bad, 400, 'INVALID_PERIOD']);
        expect(res.json().error.message).toBe('period must be one of 6months, 1year, 2years, 3years, all');
      }
      expect((await call('GET', `/insights/${e}/all`, '')).statusCode).toBe(401);
    }
  });
});
