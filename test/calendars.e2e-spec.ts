import Holidays from 'date-holidays';
import { apiCaller, createTestApp, okCaller, outboxEvents, TestApp } from './helpers/test-app';
import { buildCompany, Company } from './helpers/company';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { CALENDAR_CHANGES_SUBSCRIBER } from '../src/leave/calendar-changes.subscriber';
import { periodRange } from '../src/insights/insights.service';

/** Work calendars (issue 65, docs/api/calendars.md): CRUD, the default, holidays, the import, working days. */
describe('work calendars', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  const refused = async (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, body?: object, token = admin) => {
    const res = await call(method, url, token, body);
    return [res.statusCode, res.json().error?.code, res.json().error?.details?.[0]?.field];
  };
  const defaultCalendar = async () =>
    ((await ok('GET', '/calendars', admin)) as Array<{ id: number; is_default: boolean }>).find((x) => x.is_default)!;

  it('the upgrade made one default calendar from the Work Week setting, which now reads and writes its work week', async () => {
    const calendars = await ok('GET', '/calendars', c.users.employee.token);
    expect(calendars).toEqual([
      { id: expect.any(Number), name: 'Default', country: null, subdivision: null, work_week: [1, 2, 3, 4, 5], is_default: true },
    ]);
    const id = calendars[0].id;
    await ok('PUT', '/settings', admin, { name: 'Work Week', value: 'Mon,Tue,Wed,Thu' });
    expect((await ok('GET', `/calendars/${id}`, admin)).work_week).toEqual([1, 2, 3, 4]);
    await ok('PUT', `/calendars/${id}`, admin, { work_week: [1, 2, 3, 4, 5, 6] });
    expect((await ok('GET', '/settings?limit=100', admin)).find((s: { name: string }) => s.name === 'Work Week').value).toBe(
      'Mon,Tue,Wed,Thu,Fri,Sat',
    );
    // A PUT accepts what its GET returned.
    const got = await ok('GET', `/calendars/${id}`, admin);
    await ok('PUT', `/calendars/${id}`, admin, { ...got, work_week: [1, 2, 3, 4, 5] });
  });

  it('refuses a bad place or work week with 400 naming the field, a taken name with 409; only an Admin writes', async () => {
    expect(await refused('POST', '/calendars', { name: 'X', country: 'XX' })).toEqual([400, 'VALIDATION_FAILED', 'country']);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE', subdivision: 'FR-IDF' })).toEqual([
      400,
      'VALIDATION_FAILED',
      'subdivision',
    ]);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE', subdivision: 'DE-ZZ' })).toEqual([
      400,
      'VALIDATION_FAILED',
      'subdivision',
    ]);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE', work_week: [] })).toEqual([
      400,
      'VALIDATION_FAILED',
      'work_week',
    ]);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE', work_week: [1, 1] })).toEqual([
      400,
      'VALIDATION_FAILED',
      'work_week',
    ]);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE', work_week: [0] })).toEqual([
      400,
      'VALIDATION_FAILED',
      'work_week',
    ]);
    expect(await refused('POST', '/calendars', { name: 'X', country: 'DE' }, c.users.manager.token)).toEqual([
      403,
      'FORBIDDEN',
      undefined,
    ]);
    await ok('POST', '/calendars', admin, { name: 'Berlin', country: 'DE', subdivision: 'DE-BE' });
    expect(await refused('POST', '/calendars', { name: 'Berlin', country: 'DE' })).toEqual([409, 'DUPLICATE', undefined]);
    expect((await ok('GET', '/calendars', admin)).length).toBe(2);
  });

  it('holidays: whole or half days, one per date (409), public by default; the seed-era /holidays are the default calendar’s', async () => {
    const bavaria = await ok('POST', '/calendars', admin, { name: 'Bavaria', country: 'DE', subdivision: 'DE-BY' });
    const eve = await ok('POST', `/calendars/${bavaria.id}/holidays`, admin, {
      date: '2026-12-24',
      name: 'Heiligabend',
      fraction: '0.5',
    });
    expect(eve).toEqual({ id: expect.any(Number), date: '2026-12-24', name: 'Heiligabend', fraction: '0.5', kind: 'public' });
    expect(await refused('POST', `/calendars/${bavaria.id}/holidays`, { date: '2026-12-24', name: 'Again' })).toEqual([
      409,
      'DUPLICATE',
      'date',
    ]);
    expect(
      await refused('POST', `/calendars/${bavaria.id}/holidays`, { date: '2026-12-31', name: 'Quarter', fraction: '0.25' }),
    ).toEqual([400, 'VALIDATION_FAILED', 'fraction']);
    expect(
      await refused('POST', `/calendars/${bavaria.id}/holidays`, { date: '2026-12-31', name: 'X' }, c.users.employee.token),
    ).toEqual([403, 'FORBIDDEN', undefined]);
    // The same date in another calendar is another holiday; /holidays shows the default's only.
    const home = await ok('POST', '/holidays', admin, { date: '2026-12-24', name: 'Christmas Eve' });
    expect(home).toMatchObject({ fraction: '1', kind: 'public' });
    expect((await ok('GET', '/holidays', admin)).map((h: { name: string }) => h.name)).toEqual(['Christmas Eve']);
    expect(
      (await ok('GET', `/calendars/${(await defaultCalendar()).id}/holidays`, admin)).map((h: { id: number }) => h.id),
    ).toEqual([home.id]);
    expect((await call('GET', `/holidays/${eve.id}`, admin)).statusCode).toBe(404);
    // A PUT accepts what its GET returned; moving the date records both days as changed.
    await ok('PUT', `/calendars/${bavaria.id}/holidays/${eve.id}`, admin, { ...eve, date: '2026-12-23' });
    const events = (await outboxEvents(t.app, 'calendar.changed')).map((e) => e.data);
    expect(events).toEqual(
      expect.arrayContaining([
        { calendar: bavaria.id, date: '2026-12-24', change: 'added' },
        { calendar: bavaria.id, date: '2026-12-24', change: 'changed' },
        { calendar: bavaria.id, date: '2026-12-23', change: 'changed' },
      ]),
    );
    await ok('DELETE', `/calendars/${bavaria.id}/holidays/${eve.id}`, admin);
    expect(await ok('GET', `/calendars/${bavaria.id}/holidays`, admin)).toEqual([]);
  });

  it("imports a year's public holidays: a dry run writes nothing, existing dates are reported and kept, the year is bounded", async () => {
    const lyon = await ok('POST', '/calendars', admin, { name: 'Lyon', country: 'FR' });
    await ok('POST', `/calendars/${lyon.id}/holidays`, admin, {
      date: '2027-07-14',
      name: 'Fête nationale (ours)',
      kind: 'company',
    });
    const dry = await ok('POST', `/calendars/${lyon.id}/holidays/import?year=2027&dry_run=true`, admin);
    expect(dry.dry_run).toBe(true);
    expect(dry.existing).toEqual([{ date: '2027-07-14', name: expect.any(String), fraction: '1' }]);
    expect(dry.added.length).toBeGreaterThan(8);
    expect((await ok('GET', `/calendars/${lyon.id}/holidays`, admin)).length).toBe(1);
    const done = await ok('POST', `/calendars/${lyon.id}/holidays/import?year=2027`, admin);
    expect(done).toEqual({ ...dry, dry_run: false });
    const stored = await ok('GET', `/calendars/${lyon.id}/holidays?limit=100&sortField=date`, admin);
    expect(stored.length).toBe(dry.added.length + 1);
    expect(stored.find((h: { date: string }) => h.date === '2027-07-14').name).toBe('Fête nationale (ours)');
    expect((await ok('POST', `/calendars/${lyon.id}/holidays/import?year=2027`, admin)).added).toEqual([]);
    expect(await refused('POST', `/calendars/${lyon.id}/holidays/import?year=1969`)).toEqual([400, 'VALIDATION_FAILED', 'year']);
    expect(await refused('POST', `/calendars/${lyon.id}/holidays/import?year=2101`)).toEqual([400, 'VALIDATION_FAILED', 'year']);
    // The default calendar has no country until an Admin sets one.
    expect(await refused('POST', `/calendars/${(await defaultCalendar()).id}/holidays/import?year=2027`)).toEqual([
      400,
      'VALIDATION_FAILED',
      'country',
    ]);
  });

  it('imports what the dataset gives, date for date, for several countries, regions and years (a half day where it starts after noon)', async () => {
    const places: Array<[string, string | null, number]> = [
      ['DE', 'DE-BY', 2026],
      ['DE', 'DE-BE', 2027],
      ['GB', 'GB-ENG', 2027],
      ['US', 'US-CA', 2026],
      ['ES', 'ES-CT', 2028],
      ['AU', 'AU-SA', 2026],
      ['JP', null, 2026],
    ];
    for (const [country, subdivision, year] of places) {
      const calendar = await ok('POST', '/calendars', admin, {
        name: `Dataset ${country} ${subdivision} ${year}`,
        country,
        subdivision,
      });
      const ours = (await ok('POST', `/calendars/${calendar.id}/holidays/import?year=${year}&dry_run=true`, admin))
        .added as Array<{
        date: string;
        fraction: string;
      }>;
      const region = subdivision ? new Holidays(country, subdivision.split('-')[1]) : new Holidays(country);
      const expected = new Map<string, string>();
      for (const h of region.getHolidays(year).filter((x) => x.type === 'public')) {
        const [date, time] = h.date.split(' ');
        const half = Number(time.slice(0, 2)) >= 12;
        expected.set(date, expected.get(date) === '1' || !half ? '1' : '0.5');
      }
      expect({ place: `${country} ${subdivision} ${year}`, days: ours.map((h) => [h.date, h.fraction]) }).toEqual({
        place: `${country} ${subdivision} ${year}`,
        days: [...expected].sort(([a], [b]) => a.localeCompare(b)),
      });
    }
  });

  it('deletes neither the default calendar nor a missing one; another goes with its holidays', async () => {
    const home = await defaultCalendar();
    expect(await refused('DELETE', `/calendars/${home.id}`)).toEqual([409, 'CONFLICT', undefined]);
    expect(await refused('PUT', `/calendars/${home.id}`, { is_default: false })).toEqual([409, 'CONFLICT', 'is_default']);
    const spare = await ok('POST', '/calendars', admin, { name: 'Spare', country: 'NL' });
    await ok('POST', `/calendars/${spare.id}/holidays`, admin, { date: '2026-04-27', name: 'Koningsdag' });
    await ok('DELETE', `/calendars/${spare.id}`, admin);
    expect(await refused('GET', `/calendars/${spare.id}`)).toEqual([404, 'NOT_FOUND', undefined]);
    // Making another calendar the default moves the flag (and the Work Week setting with it).
    const other = await ok('POST', '/calendars', admin, {
      name: 'Six days',
      country: 'NL',
      work_week: [1, 2, 3, 4, 5, 6],
      is_default: true,
    });
    expect(other.is_default).toBe(true);
    expect((await ok('GET', `/calendars/${home.id}`, admin)).is_default).toBe(false);
    expect((await ok('GET', '/settings?limit=100', admin)).find((s: { name: string }) => s.name === 'Work Week').value).toBe(
      'Mon,Tue,Wed,Thu,Fri,Sat',
    );
    await ok('PUT', `/calendars/${home.id}`, admin, { is_default: true });
  });

  it("an employee's working days: the work week less holidays, half a day on a half-day holiday; bounded; scoped", async () => {
    const home = await defaultCalendar();
    await ok('POST', `/calendars/${home.id}/holidays`, admin, { date: '2026-11-06', name: 'Half Friday', fraction: '0.5' });
    await ok('POST', `/calendars/${home.id}/holidays`, admin, { date: '2026-11-04', name: 'Founders Day' });
    const me = c.users.employee;
    const answer = await ok('GET', `/employees/${c.emp.report1}/working-days?from=2026-11-02&to=2026-11-08`, me.token);
    expect(answer).toEqual({
      from: '2026-11-02',
      to: '2026-11-08',
      working_days: 3.5,
      days: [
        { date: '2026-11-02', fraction: 1, calendar: home.id, holiday: null },
        { date: '2026-11-03', fraction: 1, calendar: home.id, holiday: null },
        { date: '2026-11-04', fraction: 0, calendar: home.id, holiday: 'Founders Day' },
        { date: '2026-11-05', fraction: 1, calendar: home.id, holiday: null },
        { date: '2026-11-06', fraction: 0.5, calendar: home.id, holiday: 'Half Friday' },
        { date: '2026-11-07', fraction: 0, calendar: home.id, holiday: null },
        { date: '2026-11-08', fraction: 0, calendar: home.id, holiday: null },
      ],
    });
    expect(await refused('GET', `/employees/${c.emp.report1}/working-days?from=2026-01-01&to=2027-01-02`)).toEqual([
      400,
      'VALIDATION_FAILED',
      'to',
    ]);
    expect(await refused('GET', `/employees/${c.emp.report1}/working-days?from=2026-01-02&to=2026-01-01`)).toEqual([
      400,
      'VALIDATION_FAILED',
      'to',
    ]);
    expect(await refused('GET', `/employees/${c.emp.report1}/working-days?from=2026-02-30&to=2026-03-01`)).toEqual([
      400,
      'VALIDATION_FAILED',
      'from',
    ]);
    expect(
      await refused('GET', `/employees/${c.emp.outsider}/working-days?from=2026-11-02&to=2026-11-08`, undefined, me.token),
    ).toEqual([404, 'NOT_FOUND', undefined]);

    // Without a range: the company's current month.
    const month = await ok('GET', `/employees/${c.emp.report1}/working-days`, me.token);
    const today = new Date().toISOString().slice(0, 10);
    expect([month.from, month.days.length]).toEqual([
      `${today.slice(0, 7)}-01`,
      new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)), 0)).getUTCDate(),
    ]);

    // A leave request over the same week takes the same days: 3.5.
    await ok('POST', '/leave-periods', admin, { name: 'Calendars 2026', date_start: '2026-01-01', date_end: '2026-12-31' });
    const type = await ok('POST', '/leave-types', admin, { name: 'Calendar test', default_days: 20 });
    const request = await ok('POST', '/leaves', me.token, {
      leave_type: type.id,
      date_start: '2026-11-02',
      date_end: '2026-11-08',
    });
    expect(request.days).toBe(3.5);
    const half = await ok('POST', '/leaves', me.token, {
      leave_type: type.id,
      date_start: '2026-11-13',
      date_end: '2026-11-13',
      half_day: true,
    });
    expect(half.days).toBe(0.5);
  });
});

describe('work calendars: a dated field of the employment history', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let leaveId: number;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it('an employee shows the default calendar until one is set; a move on 1 July counts each day by the calendar of that day', async () => {
    const home = (await ok('GET', '/calendars', admin))[0];
    const bavaria = await ok('POST', '/calendars', admin, { name: 'Bavaria', country: 'DE', subdivision: 'DE-BY' });
    const berlin = await ok('POST', '/calendars', admin, {
      name: 'Berlin',
      country: 'DE',
      subdivision: 'DE-BE',
      work_week: [1, 2, 3, 4],
    });
    await ok('POST', `/calendars/${bavaria.id}/holidays`, admin, { date: '2026-06-29', name: 'Bavarian Monday' });
    await ok('POST', `/calendars/${berlin.id}/holidays`, admin, {
      date: '2026-07-01',
      name: 'Berlin Wednesday',
      fraction: '0.5',
    });
    const id = c.emp.report1;
    expect((await ok('GET', `/employees/${id}`, admin)).calendar).toBe(home.id);
    expect(
      await call('PUT', `/employees/${id}`, admin, { calendar: 987654 }).then((r) => [
        r.statusCode,
        r.json().error.details[0].field,
      ]),
    ).toEqual([400, 'calendar']);
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2026-06-01',
      reason: 'Munich office',
      fields: { calendar: bavaria.id },
    });
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2026-07-01',
      reason: 'Moved to Berlin',
      fields: { calendar: berlin.id },
    });
    const week = await ok('GET', `/employees/${id}/working-days?from=2026-06-29&to=2026-07-05`, admin);
    expect(week.days.map((d: { fraction: number; calendar: number }) => [d.fraction, d.calendar])).toEqual([
      [0, bavaria.id], // the Bavarian holiday
      [1, bavaria.id],
      [0.5, berlin.id], // half a day in Berlin
      [1, berlin.id],
      [0, berlin.id], // Berlin works Monday to Thursday
      [0, berlin.id],
      [0, berlin.id],
    ]);
    expect(week.working_days).toBe(2.5);
    // As of a day, and in the history.
    expect((await ok('GET', `/employees/${id}?as_of=2026-06-15`, admin)).calendar).toBe(bavaria.id);
    const history = await ok('GET', `/employees/${id}/history`, admin);
    expect((history as Array<{ calendar: number | null }>).map((s) => s.calendar)).toEqual(
      expect.arrayContaining([bavaria.id, berlin.id]),
    );

    // A calendar someone uses, now or in the history, is not deleted: 409 naming the count.
    const refused = await call('DELETE', `/calendars/${bavaria.id}`, admin);
    expect([refused.statusCode, refused.json().error.code, refused.json().error.message]).toEqual([
      409,
      'IN_USE',
      expect.stringContaining('1 employee'),
    ]);

    // Leave across the move counts each day by its calendar.
    await ok('POST', '/leave-periods', admin, { name: '2026', date_start: '2026-01-01', date_end: '2026-12-31' });
    const type = await ok('POST', '/leave-types', admin, { name: 'Annual', default_days: 25 });
    const leave = await ok('POST', '/leaves', c.users.employee.token, {
      leave_type: type.id,
      date_start: '2026-06-29',
      date_end: '2026-07-05',
    });
    expect(leave.days).toBe(2.5);
    leaveId = leave.id;
  });

  it('a holiday added or removed, or a back-dated calendar change, recomputes the requests it touches, with ledger entries that say why, once', async () => {
    const id = c.emp.report1;
    const [home, , berlin] = (await ok('GET', '/calendars', admin)) as Array<{ id: number; name: string }>;
    expect(berlin.name).toBe('Berlin');
    await ok('POST', `/leaves/${leaveId}/approve`, admin, {});
    const relay = () => t.app.get(OutboxRelay).catchUp(CALENDAR_CHANGES_SUBSCRIBER);
    const recomputed = async () => {
      await relay();
      const ledger = (await ok('GET', `/employees/${id}/leave-ledger?limit=100`, admin)) as Array<{
        date: string;
        kind: string;
        days: number;
        note: string | null;
      }>;
      return {
        days: (await ok('GET', `/leaves/${leaveId}`, admin)).days,
        entries: ledger.filter((e) => e.note !== null).map((e) => [e.date, e.kind, e.days, e.note]),
      };
    };
    // The moves of the test before are recounted first (they change nothing: the request came after them).
    expect(await recomputed()).toEqual({ days: 2.5, entries: [] });
    // Thursday 2 July becomes a holiday in Berlin: a day given back.
    const holiday = await ok('POST', `/calendars/${berlin.id}/holidays`, admin, { date: '2026-07-02', name: 'Berlin Thursday' });
    const added = ['2026-07-02', 'reversal', 1, `calendar ${berlin.id}: holiday added on 2026-07-02`];
    expect(await recomputed()).toEqual({ days: 1.5, entries: [added] });
    // Handed over again, nothing is counted twice.
    await ok('PUT', `/calendars/${berlin.id}/holidays/${holiday.id}`, admin, { name: 'Renamed, same day' });
    expect(await recomputed()).toEqual({ days: 1.5, entries: [added] });
    // Removed: the day is taken again.
    await ok('DELETE', `/calendars/${berlin.id}/holidays/${holiday.id}`, admin);
    const removed = ['2026-07-02', 'taken', -1, `calendar ${berlin.id}: holiday removed on 2026-07-02`];
    expect(await recomputed()).toEqual({ days: 2.5, entries: expect.arrayContaining([added, removed]) });
    // A back-dated move back home from 1 July: Monday to Friday, no half day.
    const change = await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2026-07-01',
      reason: 'Back home',
      fields: { calendar: home.id },
    });
    const why = `employment change ${change.id}: calendar from 2026-07-01`;
    const after = await recomputed();
    expect(after.days).toBe(4);
    expect(after.entries).toEqual(
      expect.arrayContaining([
        ['2026-07-01', 'taken', -0.5, why],
        ['2026-07-03', 'taken', -1, why],
      ]),
    );
    expect(after.entries).toHaveLength(4);
    // The request's days are its leave_days: what the balance and the insights read.
    const balance = (await ok('GET', `/employees/${id}/leaves/balance?as_of=2026-07-31`, admin)) as Array<{ taken: number }>;
    expect(balance.map((b) => b.taken)).toEqual([4]);
  });

  it('a back-dated move back to the default calendar (calendar: null) recounts too', async () => {
    const id = c.emp.report1;
    const berlin = ((await ok('GET', '/calendars', admin)) as Array<{ id: number; name: string }>).find(
      (x) => x.name === 'Berlin',
    )!;
    const relay = () => t.app.get(OutboxRelay).catchUp(CALENDAR_CHANGES_SUBSCRIBER);
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2026-07-02',
      reason: 'Berlin again',
      fields: { calendar: berlin.id },
    });
    await relay();
    expect((await ok('GET', `/leaves/${leaveId}`, admin)).days).toBe(3); // Wednesday at home; Thursday in Berlin, Friday off
    // Back to the default, which the change says with null: its event names no calendar value.
    await ok('POST', `/employees/${id}/changes`, admin, {
      effective_date: '2026-07-02',
      reason: 'Default',
      fields: { calendar: null },
    });
    await relay();
    expect((await ok('GET', `/leaves/${leaveId}`, admin)).days).toBe(4);
  });

  it('the attendance insights owe each employee its working days, by the calendar of each day, while employed', async () => {
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { status: 'Terminated', termination_date: '2026-09-30' });
    const today = new Date().toISOString().slice(0, 10);
    const range = periodRange('1year', today);
    type Day = { date: string; fraction: number };
    /** The model: each employee's answer of the working-days route over its employed part of the period. */
    const owed = async (ids: number[]) => {
      const days: Day[] = [];
      for (const id of ids) {
        const e = await ok('GET', `/employees/${id}`, admin);
        const from = [range.from!, e.joined_date].sort()[1];
        const to = [today, e.termination_date ?? today].sort()[0];
        if (from <= to) days.push(...(await ok('GET', `/employees/${id}/working-days?from=${from}&to=${to}`, admin)).days);
      }
      const weekdays = Array.from({ length: 7 }, (_, i) =>
        days.filter((d) => (new Date(d.date).getUTCDay() + 6) % 7 === i).reduce((s, d) => s + d.fraction, 0),
      );
      return { total: days.reduce((s, d) => s + d.fraction, 0), weekdays };
    };
    const everyone = await owed(Object.values(c.emp));
    expect(everyone.total).toBeGreaterThan(700);
    expect((await ok('GET', '/insights/attendance-summary/1year', admin)).expected_days).toBe(everyone.total);
    const weekly = (await ok('GET', '/insights/attendance-weekly-pattern/1year', admin)) as Array<{ expected_days: number }>;
    expect(weekly.map((w) => w.expected_days)).toEqual(everyone.weekdays);
    const monthly = (await ok('GET', '/insights/attendance-monthly-pattern/1year', admin)) as Array<{ expected_days: number }>;
    expect(monthly.reduce((s, m) => s + m.expected_days, 0)).toBeCloseTo(everyone.total, 5);
    // A Manager's figure is its direct reports' (one of them left on 30 September).
    const team = await owed([c.emp.report1, c.emp.report2]);
    expect((await ok('GET', '/insights/attendance-summary/1year', c.users.manager.token)).expected_days).toBe(team.total);
  });
});
