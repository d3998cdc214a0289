import { DataSource } from 'typeorm';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { buildCompany, Company } from './helpers/company';
import { createTestApp, okCaller, TestApp } from './helpers/test-app';

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
    const all = await ds.query<Array<Record<string, unknown>>>(`SELECT * FROM ${table} ORDER BY day, department_id`);
    return all
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'day' ? String(v).slice(0, 10) : Number(v)])))
      .filter((r) => Object.entries(r).some(([k, v]) => k !== 'day' && k !== 'department_id' && v !== 0));
  };
  /** Asserts the kept rollups equal a rebuild, and returns them. */
  const exact = async () => {
    const kept = { attendance: await rows('attendance_days'), time: await rows('time_entry_days') };
    await rebuildInsightRollups(ds);
    expect({ attendance: await rows('attendance_days'), time: await rows('time_entry_days') }).toEqual(kept);
    return kept;
  };

  it('attendance: punch in and out, create, update (day, employee, home), delete', async () => {
    const employee = c.users.employee.token;
    const today = new Date().toISOString().slice(0, 10);
    await ok('POST', '/attendance/punch-in', employee, { time: new Date(Date.now() - 3_600_000).toISOString() });
    expect((await exact()).attendance).toEqual([
      { day: today.slice(0, 10), department_id: c.departments.platform, records: 1, seconds: 0, completed: 0, wfh: 0 },
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

  it("an employee's history follows it to another department, and leaves with it when it is deleted", async () => {
    await ok('POST', '/attendance', admin, {
      employee: c.emp.report2,
      in_time: '2026-04-01T09:00:00Z',
      out_time: '2026-04-01T10:00:00Z',
    });
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { department: c.departments.sales });
    const moved = await exact();
    expect(moved.attendance).toContainEqual(expect.objectContaining({ day: '2026-04-01', department_id: c.departments.sales }));
    expect(moved.time).toContainEqual(expect.objectContaining({ day: '2026-03-10', department_id: c.departments.sales }));
    expect(moved.time.filter((r) => r.department_id === c.departments.engineering)).toEqual([]);

    await ok('DELETE', `/employees/${c.emp.report2}`, admin);
    const gone = await exact();
    expect(gone.attendance.find((r) => r.day === '2026-04-01')).toBeUndefined();
    expect(gone.time.find((r) => r.day === '2026-03-10')).toBeUndefined();
  });
});
