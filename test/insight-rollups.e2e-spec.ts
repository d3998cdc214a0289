import { DataSource } from 'typeorm';
import { CompanyClock } from '../src/common/time/company-clock';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

/**
 * attendance_days and time_entry_days (the per-day, per-department sums the company and department
 * insights read) stay exact through every kind of write: after each step the rows the services
 * kept equal a recomputation from attendance and time_entries.
 */
describe('insights rollups: kept exact by every write', () => {
  let t: TestApp;
  let c: Company;
  let ds: DataSource;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ds = t.app.get(DataSource);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  /** The rows that count (a row may fall to all zeros), as plain numbers. */
  const rows = async (table: string) => {
    const all = await ds.query<Array<Record<string, unknown>>>(`SELECT * FROM ${table}`);
    const keys = ['day', 'department_id', 'status', 'leave_type_id'];
    return all
      .map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [k, k === 'day' ? String(v).slice(0, 10) : k === 'status' ? v : Number(v)]),
        ),
      )
      .filter((r) => Object.entries(r).some(([k, v]) => !keys.includes(k) && v !== 0))
      .sort(
        (a, b) =>
          keys.map((k) => `${a[k] as string | number}`.localeCompare(`${b[k] as string | number}`)).find((x) => x !== 0) ?? 0,
      );
  };
  /** Asserts the kept rollups equal a rebuild, and returns them. */
  const exact = async () => {
    const all = async () => ({
      attendance: await rows('attendance_days'),
      time: await rows('time_entry_days'),
      leave: await rows('leave_day_sums'),
    });
    const kept = await all();
    await rebuildInsightRollups(ds);
    expect(await all()).toEqual(kept);
    return kept;
  };

  it('attendance: punch in and out, create, update (day, employee, home), delete', async () => {
    const employee = c.users.employee.token;
    // The UTC day of the punch, an hour ago (yesterday when the suite runs just after midnight).
    const punchedAt = new Date(Date.now() - 3_600_000).toISOString();
    await ok('POST', '/attendance/punch-in', employee, { time: punchedAt });
    expect((await exact()).attendance).toEqual([
      { day: punchedAt.slice(0, 10), department_id: c.departments.platform, records: 1, seconds: 0, completed: 0, wfh: 0 },
    ]);
    await ok('POST', '/attendance/punch-out', employee, {});
    expect((await exact()).attendance).toMatchObject([{ records: 1, completed: 1 }]);

    const { id } = await ok('POST', '/attendance', admin, {
      employee: c.emp.report2,
      in_time: '2026-03-02T09:00:00Z',
      out_time: '2026-03-02T17:00:00Z',
    });
    expect((await exact()).attendance).toContainEqual({
      day: '2026-03-02',
      department_id: c.departments.engineering,
      records: 1,
      seconds: 8 * 3600,
      completed: 1,
      wfh: 0,
    });
    await ok('PUT', `/attendance/${id}`, admin, {
      employee: c.emp.outsider,
      in_time: '2026-03-03T09:00:00Z',
      out_time: '2026-03-03T13:00:00Z',
      work_from_home: true,
    });
    const moved = (await exact()).attendance;
    expect(moved).toContainEqual({
      day: '2026-03-03',
      department_id: c.departments.sales,
      records: 1,
      seconds: 4 * 3600,
      completed: 1,
      wfh: 1,
    });
    expect(moved.find((r) => r.day === '2026-03-02')).toBeUndefined();
    await ok('DELETE', `/attendance/${id}`, admin);
    expect((await exact()).attendance.find((r) => r.day === '2026-03-03')).toBeUndefined();
  });

  it('time entries: create, edit, submit, reject (no longer counted), correct, approve, delete', async () => {
    const entry = { employee: c.emp.report2, date: '2026-03-09', start: '09:00', end: '12:00' };
    const { id } = await ok('POST', '/timesheets', admin, entry);
    const counted = (rows: Array<Record<string, unknown>>) =>
      rows.filter((r) => r.day === '2026-03-09' || r.day === '2026-03-10');
    expect(counted((await exact()).time)).toEqual([
      { day: '2026-03-09', department_id: c.departments.engineering, entries: 1, minutes: 180 },
    ]);
    await ok('PUT', `/timesheets/${id}`, admin, { date: '2026-03-10', end: '13:00' });
    expect(counted((await exact()).time)).toEqual([
      { day: '2026-03-10', department_id: c.departments.engineering, entries: 1, minutes: 240 },
    ]);
    await ok('POST', `/timesheets/${id}/submit`, admin);
    await exact();
    await ok('POST', `/timesheets/${id}/reject`, admin);
    expect(counted((await exact()).time)).toEqual([]);
    await ok('PUT', `/timesheets/${id}`, admin, { end: '12:00' });
    await ok('POST', `/timesheets/${id}/submit`, admin);
    await ok('POST', `/timesheets/${id}/approve`, admin);
    expect(counted((await exact()).time)).toEqual([
      { day: '2026-03-10', department_id: c.departments.engineering, entries: 1, minutes: 180 },
    ]);
    const other = await ok('POST', '/timesheets', admin, { ...entry, date: '2026-03-10', start: '14:00', end: '15:00' });
    await exact();
    await ok('DELETE', `/timesheets/${other.id}`, admin);
    expect(counted((await exact()).time)).toEqual([
      { day: '2026-03-10', department_id: c.departments.engineering, entries: 1, minutes: 180 },
    ]);
  });

  it('leave: requested, approved, cancelled; a request running across a period start counts once per weekday, as for a Manager', async () => {
    t.app.get(CompanyClock).moveTo(new Date('2026-06-15T12:00:00Z')); // 6months starts on 2025-12-16
    for (const y of [2025, 2026])
      await ok('POST', '/leave-periods', admin, { name: `P${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    const type = (await ok('POST', '/leave-types', admin, { name: 'Any', default_days: 0, allow_negative: true })).id;
    const request = async (employee: number, date_start: string, date_end: string) =>
      (await ok('POST', '/leaves', admin, { employee, leave_type: type, date_start, date_end })).id;
    // Four weeks from Monday 1 December: every weekday four times, two of them before the period.
    const across = await request(c.emp.report1, '2025-12-01', '2025-12-26');
    expect((await exact()).leave).toEqual([
      expect.objectContaining({
        day: '2025-12-01',
        department_id: c.departments.platform,
        status: 'Pending',
        days: 1,
        requests: 1,
      }),
      ...Array.from({ length: 19 }, () => expect.objectContaining({ status: 'Pending', requests: 0 })),
    ]);
    await ok('POST', `/leaves/${across}/approve`, admin);
    const cancelled = await request(c.emp.report1, '2026-01-05', '2026-01-06');
    await ok('POST', `/leaves/${cancelled}/cancel`, admin);
    expect((await exact()).leave.map((r) => r.status)).toEqual([...Array(20).fill('Approved'), 'Cancelled', 'Cancelled']);

    const weekly = (token: string) => ok('GET', '/insights/leave-weekly-pattern/6months', token);
    const expected = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'].map((day, i) => ({
      day,
      value: i < 5 ? 1 : 0,
      days: i === 0 ? 1 : i < 5 ? 2 : 0, // from Tuesday 16th: Monday the 22nd only
    }));
    expect(await weekly(admin)).toEqual(expected); // leave_day_sums
    expect(await weekly(c.users.manager.token)).toEqual(expected); // leave_days (report1 reports to the manager)
    expect(await ok('GET', '/insights/leave-summary/6months', admin)).toContainEqual({
      status: 'Approved',
      requests: 1,
      days: 9,
    });
  });

  it('a Scheduled transfer corrected to another department moves its days from where the transfer had put them', async () => {
    const type = (await ok('POST', '/leave-types', admin, { name: 'Later', default_days: 0, allow_negative: true })).id;
    const day = new Date(Date.now() + 60 * 86_400_000);
    while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
    const leaveDay = day.toISOString().slice(0, 10);
    const year = leaveDay.slice(0, 4);
    await ok('POST', '/leave-periods', admin, { name: `Later ${year}`, date_start: `${year}-01-01`, date_end: `${year}-12-31` });
    await ok('POST', '/leaves', admin, {
      employee: c.emp.grandReport,
      leave_type: type,
      date_start: leaveDay,
      date_end: leaveDay,
    });
    const of = async () => (await exact()).leave.filter((r) => r.day === leaveDay).map((r) => r.department_id);
    const scheduled = await ok('POST', `/employees/${c.emp.grandReport}/changes`, admin, {
      effective_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
      reason: 'Transfer',
      fields: { department: c.departments.sales },
    });
    expect([scheduled.status, await of()]).toEqual(['Scheduled', [c.departments.sales]]);
    // Before: the moves were computed without the corrected change, so its day stayed in Sales.
    await ok('POST', `/employees/${c.emp.grandReport}/changes/${scheduled.id}/correct`, admin, {
      reason: 'Engineering after all',
      fields: { department: c.departments.engineering },
    });
    expect(await of()).toEqual([c.departments.engineering]);
  });

  it("a record counts under its employee's department of its day: a transfer moves the days from its effective date, and deletion takes them out", async () => {
    await ok('POST', '/attendance', admin, {
      employee: c.emp.report2,
      in_time: '2026-04-01T09:00:00Z',
      out_time: '2026-04-01T10:00:00Z',
    });
    const under = (rs: Array<Record<string, unknown>>, day: string) =>
      rs.filter((r) => r.day === day).map((r) => r.department_id);
    // A transfer effective today (PUT) leaves the days before it where they were.
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { department: c.departments.sales });
    let kept = await exact();
    expect(under(kept.attendance, '2026-04-01')).toEqual([c.departments.engineering]);
    expect(under(kept.time, '2026-03-10')).toEqual([c.departments.engineering]);
    // Back-dated to 1 April: that day moves, 10 March stays.
    const transfer = await ok('POST', `/employees/${c.emp.report2}/changes`, admin, {
      effective_date: '2026-04-01',
      reason: 'Transfer',
      fields: { department: c.departments.sales },
    });
    kept = await exact();
    expect(under(kept.attendance, '2026-04-01')).toEqual([c.departments.sales]);
    expect(under(kept.time, '2026-03-10')).toEqual([c.departments.engineering]);
    // Corrected to 1 March: 10 March moves too; corrected back into Engineering: both return.
    const march = await ok('POST', `/employees/${c.emp.report2}/changes/${transfer.id}/correct`, admin, {
      effective_date: '2026-03-01',
      reason: 'Transfer, earlier',
    });
    kept = await exact();
    expect(under(kept.time, '2026-03-10')).toEqual([c.departments.sales]);
    expect(kept.time.filter((r) => r.department_id === c.departments.engineering)).toEqual([]);
    await ok('POST', `/employees/${c.emp.report2}/changes/${march.id}/correct`, admin, {
      reason: 'No transfer after all',
      fields: { department: c.departments.engineering },
    });
    kept = await exact();
    expect(under(kept.attendance, '2026-04-01')).toEqual([c.departments.engineering]);
    expect(under(kept.time, '2026-03-10')).toEqual([c.departments.engineering]);
    // A transfer back-dated to the joined date moves every day.
    await ok('POST', `/employees/${c.emp.report1}/changes`, admin, {
      effective_date: '2020-01-15',
      fields: { department: c.departments.sales },
    });
    expect((await exact()).leave.filter((r) => r.department_id === c.departments.platform)).toEqual([]);

    await ok('DELETE', `/employees/${c.emp.report2}`, admin);
    await ok('DELETE', `/employees/${c.emp.grandReport}`, admin); // report1's report: the manager's chain stays
    await ok('DELETE', `/employees/${c.emp.report1}`, admin);
    const gone = await exact();
    expect(gone.leave).toEqual([]);
    expect(gone.attendance.find((r) => r.day === '2026-04-01')).toBeUndefined();
    expect(gone.time.find((r) => r.day === '2026-03-10')).toBeUndefined();
  });
});

describe('insights rollups under concurrent writes', () => {
  let t: TestApp;
  afterAll(() => t.close());

  it("twenty employees of one department punch in at once: each 200, the day's row counts all twenty", async () => {
    t = await createTestApp();
    const c = await buildCompany(t.app);
    const ok = okCaller(t.app);
    const admin = c.users.admin.token;
    const ids: number[] = [];
    for (let i = 0; i < 20; i++) {
      ids.push((await ok('POST', '/employees', admin, employeeBody({ department: c.departments.sales }))).id);
    }
    const at = new Date(Date.now() - 60_000).toISOString();
    const results = await Promise.all(
      ids.map((employee) => apiCaller(t.app)('POST', '/attendance/punch-in', admin, { employee, time: at })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    const [row] = await t.app
      .get(DataSource)
      .query('SELECT records FROM attendance_days WHERE day = ? AND department_id = ?', [at.slice(0, 10), c.departments.sales]);
    expect(Number(row.records)).toBe(20);
  });
});
