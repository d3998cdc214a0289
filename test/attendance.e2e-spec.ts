import { apiCaller, createTestApp, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';

type FakeableApi = NonNullable<Extract<Parameters<typeof jest.useFakeTimers>[0], { doNotFake?: unknown }>['doNotFake']>[number];
const REAL_TIMERS: FakeableApi[] = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
];

describe('attendance', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  describe('punch in and out', () => {
    // Punches may lie at most 24 h in the past ("Punch Back-dating Hours"): these tests set the clock
    // (Date alone; timers stay real) to just after the times they punch.
    beforeAll(() => jest.useFakeTimers({ doNotFake: REAL_TIMERS }));
    afterAll(() => jest.useRealTimers());
    const clock = (iso: string) => jest.setSystemTime(new Date(iso));

    it('records the right hours and work_from_home, with times in UTC', async () => {
      const token = c.users.employee.token;
      clock('2026-03-10T18:00:00Z');
      const punchIn = await call('POST', '/attendance/punch-in', token, {
        time: '2026-03-10T09:00:00+01:00',
        work_from_home: true,
        note: 'home office',
      });
      expect(punchIn.statusCode).toBe(200);
      expect(punchIn.json().data).toEqual({
        id: expect.any(Number),
        employee: c.emp.report1,
        in_time: '2026-03-10T08:00:00.000Z',
        out_time: null,
        note: 'home office',
        work_from_home: true,
        hours: null,
      });
      const out = await call('POST', '/attendance/punch-out', token, { time: '2026-03-10T17:30:00+01:00' });
      expect(out.json().data).toMatchObject({
        out_time: '2026-03-10T16:30:00.000Z',
        hours: 8.5,
        work_from_home: true,
        note: 'home office',
      });
      const list = await call('GET', `/employees/${c.emp.report1}/attendance`, token);
      expect(list.json().data[0]).toEqual(out.json().data);
    });

    it('refuses a second punch-in, a punch-out without punch-in, out before in, and overlaps with clear 409 codes', async () => {
      const token = c.users.manager.token; // the manager punches for itself
      clock('2026-03-11T19:00:00Z');
      expect((await call('POST', '/attendance/punch-out', token, {})).json().error.code).toBe('NOT_PUNCHED_IN');
      await call('POST', '/attendance/punch-in', token, { time: '2026-03-11T09:00:00Z' });
      const again = await call('POST', '/attendance/punch-in', token, { time: '2026-03-11T10:00:00Z' });
      expect([again.statusCode, again.json().error.code]).toEqual([409, 'ALREADY_PUNCHED_IN']);
      const early = await call('POST', '/attendance/punch-out', token, { time: '2026-03-11T08:59:00Z' });
      expect([early.statusCode, early.json().error.code]).toEqual([409, 'OUT_BEFORE_IN']);
      expect((await call('POST', '/attendance/punch-out', token, { time: '2026-03-11T17:00:00Z' })).statusCode).toBe(200);
      const inside = await call('POST', '/attendance/punch-in', token, { time: '2026-03-11T12:00:00Z' });
      expect([inside.statusCode, inside.json().error.code]).toEqual([409, 'OVERLAPPING_ATTENDANCE']);
      const before = await call('POST', '/attendance/punch-in', token, { time: '2026-03-11T07:00:00Z' });
      expect(before.json().error.code).toBe('OVERLAPPING_ATTENDANCE');
      expect((await call('POST', '/attendance/punch-in', token, { time: '2026-03-11T17:00:00Z' })).statusCode).toBe(200);
      await call('POST', '/attendance/punch-out', token, { time: '2026-03-11T18:00:00Z' });
    });

    it('two simultaneous punch-ins of one employee: one record, the other 409', async () => {
      const token = c.users.admin.token;
      const employee = c.emp.outsider;
      clock('2026-05-04T11:00:00Z');
      const results = await Promise.all(
        [1, 2, 3].map(() => call('POST', '/attendance/punch-in', token, { employee, time: '2026-05-04T09:00:00Z' })),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
      const open = await call('GET', `/employees/${employee}/attendance?from=2026-05-04&to=2026-05-04`, token);
      expect(open.json().total).toBe(1);
      await call('POST', '/attendance/punch-out', token, { employee, time: '2026-05-04T10:00:00Z' });
    });

    it('validates times: an offset is required, the future is refused', async () => {
      const token = c.users.employee.token;
      const naive = await call('POST', '/attendance/punch-in', token, { time: '2026-03-12T09:00:00' });
      expect([naive.statusCode, naive.json().error.details[0].field]).toEqual([400, 'time']);
      const future = await call('POST', '/attendance/punch-in', token, { time: '2999-01-01T00:00:00Z' });
      expect(future.json().error.details[0]).toEqual({ field: 'time', message: 'must not be in the future' });
    });

    it('handles time zones: a shift across midnight UTC, and a punch at 23:30 local time', async () => {
      const token = c.users.restricted.token; // punching for grandReport, in its scope
      const employee = c.emp.grandReport;
      clock('2026-03-15T03:00:00Z');
      await call('POST', '/attendance/punch-in', token, { employee, time: '2026-03-14T22:00:00Z' });
      const out = await call('POST', '/attendance/punch-out', token, { employee, time: '2026-03-15T02:00:00Z' });
      expect(out.json().data.hours).toBe(4);
      // 23:30 in New York (UTC−4 in March after DST) is 03:30 UTC the next day: it belongs to that UTC day.
      clock('2026-03-16T06:00:00Z');
      const late = await call('POST', '/attendance/punch-in', token, { employee, time: '2026-03-15T23:30:00-04:00' });
      expect(late.json().data.in_time).toBe('2026-03-16T03:30:00.000Z');
      await call('POST', '/attendance/punch-out', token, { employee, time: '2026-03-16T01:00:00-04:00' });
      const day15 = await call('GET', `/employees/${employee}/attendance?from=2026-03-15&to=2026-03-15`, token);
      expect(day15.json().data).toEqual([]);
      const day16 = await call('GET', `/employees/${employee}/attendance?from=2026-03-16&to=2026-03-16`, token);
      expect(day16.json().data.map((r: { hours: number }) => r.hours)).toEqual([1.5]);
      const day14 = await call('GET', `/employees/${employee}/attendance?from=2026-03-14&to=2026-03-14`, token);
      expect(day14.json().data.map((r: { in_time: string }) => r.in_time)).toEqual(['2026-03-14T22:00:00.000Z']);
    });
  });

  describe('summary', () => {
    it('matches a hand computation over 20 records', async () => {
      const admin = c.users.admin.token;
      const employee = c.emp.report2;
      const now = new Date();
      const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
      const post = (in_time: string, out_time: string | null, wfh = false) =>
        call('POST', '/attendance', admin, { employee, in_time, out_time, work_from_home: wfh }).then((r) => {
          expect(r.statusCode).toBe(200);
        });
      // 15 days in January 2025, 09:00–17:00 (8 h): 120 h; working from home on the 2nd, 3rd and 4th.
      for (let day = 2; day <= 16; day++) {
        const d = `2025-01-${String(day).padStart(2, '0')}`;
        await post(`${d}T09:00:00Z`, `${d}T17:00:00Z`, day <= 4);
      }
      // 4 days of this month, 10:00–12:30 (2.5 h): 10 h; from home on the first of them.
      for (let day = 1; day <= 4; day++) {
        const d = `${month}-0${day}`;
        await post(`${d}T10:00:00Z`, `${d}T12:30:00Z`, day === 1);
      }
      // One open record this month.
      await post(`${month}-05T08:00:00Z`, null);

      const summary = await call('GET', `/employees/${employee}/attendance/summary`, c.users.manager.token);
      expect(summary.json().data).toEqual({
        total_records: 20,
        total_hours: 130, // 120 + 10
        this_month_records: 5, // 4 closed + 1 open
        average_hours: 6.84, // 130 h / 19 closed records = 6.8421
        work_from_home_records: 4,
      });
    });
  });

  describe('who can read and punch for whom', () => {
    it('a Manager reads its direct reports and itself, nobody else (404); an Employee only itself', async () => {
      const m = c.users.manager.token;
      expect((await call('GET', `/employees/${c.emp.report1}/attendance`, m)).statusCode).toBe(200);
      expect((await call('GET', `/employees/${c.emp.manager}/attendance/summary`, m)).statusCode).toBe(200);
      for (const id of [c.emp.grandReport, c.emp.outsider]) {
        expect((await call('GET', `/employees/${id}/attendance`, m)).statusCode).toBe(404);
        expect((await call('GET', `/employees/${id}/attendance/summary`, m)).statusCode).toBe(404);
      }
      const e = c.users.employee.token;
      expect((await call('GET', `/employees/${c.emp.report1}/attendance/summary`, e)).statusCode).toBe(200);
      expect((await call('GET', `/employees/${c.emp.manager}/attendance`, e)).statusCode).toBe(404);
      // The attendance list: an Employee's own records only.
      const own = await call('GET', '/attendance?limit=500', e);
      expect(own.statusCode).toBe(200);
      expect(own.json().data.every((r: { employee: number }) => r.employee === c.emp.report1)).toBe(true);
    });

    it('punches for another employee only where the caller may', async () => {
      const body = { employee: c.emp.outsider, time: new Date(Date.now() - 3_600_000).toISOString() };
      expect(
        (await call('POST', '/attendance/punch-in', c.users.employee.token, { ...body, employee: c.emp.manager })).statusCode,
      ).toBe(404);
      expect((await call('POST', '/attendance/punch-in', c.users.manager.token, body)).statusCode).toBe(404);
      expect(
        (await call('POST', '/attendance/punch-in', c.users.manager.token, { ...body, employee: c.emp.report1 })).statusCode,
      ).toBe(200);
      expect((await call('POST', '/attendance/punch-in', c.users.orphan.token, {})).statusCode).toBe(404);
    });
  });

  describe('Admin maintenance', () => {
    it('creates, corrects, lists with filters and deletes; refuses out before in and overlaps', async () => {
      const admin = c.users.admin.token;
      const employee = c.emp.outsider;
      const created = await call('POST', '/attendance', admin, {
        employee,
        in_time: '2026-04-01T09:00:00Z',
        out_time: '2026-04-01T12:00:00Z',
      });
      const id = created.json().data.id;
      expect(created.json().data.hours).toBe(3);
      const fixed = await call('PUT', `/attendance/${id}`, admin, { out_time: '2026-04-01T13:15:00Z', work_from_home: true });
      expect(fixed.json().data).toMatchObject({ hours: 4.25, work_from_home: true });

      const backwards = await call('POST', '/attendance', admin, {
        employee,
        in_time: '2026-04-02T09:00:00Z',
        out_time: '2026-04-02T08:00:00Z',
      });
      expect([backwards.statusCode, backwards.json().error.details[0].field]).toEqual([400, 'out_time']);
      const overlap = await call('POST', '/attendance', admin, {
        employee,
        in_time: '2026-04-01T13:00:00Z',
        out_time: '2026-04-01T14:00:00Z',
      });
      expect(overlap.json().error.code).toBe('OVERLAPPING_ATTENDANCE');

      const q = `filters=${encodeURIComponent(JSON.stringify({ employee, work_from_home: true }))}&from=2026-04-01&to=2026-04-01`;
      expect((await call('GET', `/attendance?${q}`, admin)).json().data.map((r: { id: number }) => r.id)).toEqual([id]);
      // A Restricted Admin of Engineering does not see Sales' records.
      expect((await call('GET', `/attendance/${id}`, c.users.restricted.token)).statusCode).toBe(404);
      const scoped = await call('GET', '/attendance?limit=500', c.users.restricted.token);
      expect(scoped.json().data.every((r: { employee: number }) => r.employee !== employee)).toBe(true);
      expect(scoped.json().total).toBeGreaterThan(0);

      expect((await call('DELETE', `/attendance/${id}`, admin)).json()).toEqual({ status: 'SUCCESS', data: { id } });
      expect((await call('GET', `/attendance/${id}`, admin)).statusCode).toBe(404);
    });

    it('lists newest first unless sorted otherwise', async () => {
      const res = await call('GET', `/employees/${c.emp.report2}/attendance?limit=3`, c.users.admin.token);
      const times = res.json().data.map((r: { in_time: string }) => r.in_time);
      expect(times).toEqual([...times].sort().reverse());
      const asc = await call('GET', `/employees/${c.emp.report2}/attendance?limit=3&sortField=in_time`, c.users.admin.token);
      expect(asc.json().data[0].in_time).toBe('2025-01-02T09:00:00.000Z');
    });
  });
});
