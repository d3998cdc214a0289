import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { EmployeesService } from '../src/employees/employees.service';
import { localDay } from '../src/common/time/days';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { LeaveLiabilityService, LIABILITY_DAYS_KEPT } from '../src/leave/ledger/leave-liability.service';
import { LiabilityRepository } from '../src/leave/ledger/liability.repository';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { liabilityByBalances, LiabilityRow, liabilityRows } from './helpers/liability';
import { createTestApp, INTEGRATION, okCaller, TestApp, until } from './helpers/test-app';

/**
 * Issue 49: the leave liability kept as a table per day, refreshed from the tracked changes. After
 * every kind of change it equals the sum of the per-employee balance route, and the refresh
 * recomputes only whom the change reaches (everyone for a change every balance reads). Under
 * test:integration two applications share the worker's MariaDB: the table is the database's, so a
 * change made through one is in the other's next answer.
 */
describe('The leave liability table (issue 49)', () => {
  let a: TestApp;
  let b: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let holiday: number;
  let sick: number;
  const days = ['2025-12-31', '2026-04-30'];

  const liabilityIn = async (t: TestApp, day: string): Promise<LiabilityRow[]> =>
    liabilityRows(
      (await t.app.get(LeaveLiabilityService).liability({ kind: 'all' }, day)).map((r) => ({
        leave_type: r.leaveType,
        department: r.department,
        employees: r.employees,
        days: r.days / 100,
      })),
    );
  const model = (day: string) => liabilityByBalances(ok, a.app.get(DataSource), admin, day);
  /**
   * The work the requests left to the relay's subscribers is done (a calendar's recount of the leave
   * a move touches, say): the counts below are of the requests' changes, whenever the relay runs.
   */
  const settled = () => a.app.get(OutboxRelay).drain();
  /** Each day's refresh in `t` recomputed `expected`, and the liability then equals the model's. */
  const expectRefreshed = async (expected: 'everyone' | number, t = a) => {
    await settled();
    for (const day of days) {
      const refreshed = await t.app.get(LeaveLiabilityService).refresh(day);
      expect({ day, refreshed }).toEqual({
        day,
        refreshed: expected === 'everyone' ? { everyone: true } : { everyone: false, employees: expected },
      });
      const rows = await liabilityIn(t, day);
      expect(rows.length).toBeGreaterThan(0);
      expect({ day, rows }).toEqual({ day, rows: await model(day) });
    }
  };
  /**
   * Refreshes `day` until a refresh finds nothing left: what earlier requests left to be written
   * after they answered (under test:integration, another process's work, late under load) is in it.
   */
  const settle = (day: string) =>
    until(async () => {
      const refreshed = await a.app.get(LeaveLiabilityService).refresh(day);
      return !refreshed.everyone && refreshed.employees === 0;
    }, 3_000);
  /** A fixed grant of Sick days each leave period, assigned to a department. */
  const sickGrant = async (name: string, amount: number, department: number, from: string) => {
    const policy = await ok('POST', '/leave-policies', admin, { name, leave_type: sick, accrual: 'fixed_per_period', amount });
    await ok('POST', '/leave-policy-assignments', admin, { policy: policy.id, department, valid_from: from });
  };
  const newEmployee = async (joined: string, department: number) =>
    (await a.app.get(EmployeesService).create(employeeBody({ joined_date: joined, department }))).id;

  beforeAll(async () => {
    a = await createTestApp({ INSIGHTS_CACHE_MS: '0' });
    // Another process: a second application on the worker's MariaDB under test:integration. On
    // SQLite the same one: two applications in one process on one SQLite file block each other's
    // writes for busy_timeout (better-sqlite3 waits synchronously), which slowed this suite past
    // its timeouts on a loaded machine.
    b = INTEGRATION
      ? await createTestApp({ INSIGHTS_CACHE_MS: '0', QUEUE_PREFIX: a.config.queuePrefix }, { keepDatabase: true })
      : a;
    c = await buildCompany(a.app);
    ok = okCaller(a.app);
    admin = c.users.admin.token;
    for (const y of [2024, 2025, 2026])
      await ok('POST', '/leave-periods', admin, { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    holiday = (await ok('POST', '/leave-types', admin, { name: 'Holiday', default_days: 0 })).id;
    sick = (await ok('POST', '/leave-types', admin, { name: 'Sick', default_days: 0 })).id;
    const monthly = await ok('POST', '/leave-policies', admin, {
      name: 'Monthly',
      leave_type: holiday,
      accrual: 'monthly',
      amount: 2,
      prorate_joiners: true,
      carry_over_max: 5,
      carry_over_expiry_months: 3,
    });
    await ok('POST', '/leave-policy-assignments', admin, { policy: monthly.id, valid_from: '2024-01-01' });
    await sickGrant('Sick grant', 10, c.departments.engineering, '2024-01-01');
    await newEmployee('2025-06-15', c.departments.platform);
  });
  afterAll(async () => {
    if (b !== a) await b?.close();
    await a?.close();
  });

  it('is computed for everyone on a first request, then recomputes nobody while nothing changed', async () => {
    await expectRefreshed('everyone');
    await expectRefreshed(0);
    // Through the route too, for a period's end.
    const period2025 = (await ok('GET', '/leave-periods?limit=500', admin)).find((p: { name: string }) => p.name === '2025').id;
    expect(liabilityRows(await ok('GET', `/insights/leave-liability/${period2025}`, admin))).toEqual(await model('2025-12-31'));
  });

  it("the job's carry-overs, which a balance takes as written, recompute their employees; its accruals recompute nobody", async () => {
    // Nothing was written by the job yet: the carry-over into 2025 (the first window of a 2026
    // balance) counts as written, so writing it changes the 2026 balances.
    await a.app.get(LeaveAccrualsService).accrue('2026-01-02', true);
    const carried: Array<{ n: number | string }> = await a.app
      .get(DataSource)
      .query("SELECT COUNT(DISTINCT employee_id) AS n FROM leave_ledger WHERE kind = 'carry_over'");
    expect(Number(carried[0].n)).toBeGreaterThan(0);
    await expectRefreshed(Number(carried[0].n));
    await a.app.get(LeaveAccrualsService).accrue('2026-03-31');
    await expectRefreshed(0);
  });

  it("an employee's leave, adjustment, transfer and leaving recompute that employee only, in this process and another", async () => {
    const request = await ok('POST', '/leaves', admin, {
      employee: c.emp.report1,
      leave_type: holiday,
      date_start: '2026-02-02',
      date_end: '2026-02-04',
    });
    await ok('POST', `/leaves/${request.id}/approve`, admin);
    await expectRefreshed(1);
    await ok('POST', '/leave-adjustments', admin, {
      employee: c.emp.outsider,
      leave_type: holiday,
      days: 3,
      date: '2025-11-03',
      note: 'overtime',
    });
    await expectRefreshed(1, b);
    // Moved to Sales from March 2026: the 2026 liability counts it there, 2025's where it was.
    await ok('POST', `/employees/${c.emp.report2}/changes`, admin, {
      effective_date: '2026-03-01',
      reason: 'Transfer',
      fields: { department: c.departments.sales },
    });
    await expectRefreshed(1, b);
    await expectRefreshed(0);
    // Gone before the end of April: out of the 2026 liability.
    await ok('PUT', `/employees/${c.emp.grandReport}`, admin, { termination_date: '2026-02-15' });
    await expectRefreshed(1);
    const april = await liabilityIn(a, '2026-04-30');
    expect(april.reduce((n, r) => n + r.employees, 0)).toBeLessThan(
      (await liabilityIn(a, '2025-12-31')).reduce((n, r) => n + r.employees, 0),
    );
  });

  it('a change every balance reads (an assignment) recomputes everyone', async () => {
    await sickGrant('Sales grant', 4, c.departments.sales, '2025-01-01');
    await expectRefreshed('everyone', b);
    await expectRefreshed(0);
  });

  it('a day never asked for is made from the nearest computed day of its period: only whom something is dated for between them is computed', async () => {
    const liability = a.app.get(LeaveLiabilityService);
    const joiner = await newEmployee('2026-05-05', c.departments.platform);
    const leave = async (employee: number, day: string) => {
      const request = await ok('POST', '/leaves', admin, { employee, leave_type: holiday, date_start: day, date_end: day });
      await ok('POST', `/leaves/${request.id}/approve`, admin);
    };
    await leave(c.emp.manager, '2026-05-06');
    await ok('POST', `/employees/${c.emp.outsider}/changes`, admin, {
      effective_date: '2026-05-07',
      reason: 'Transfer',
      fields: { department: c.departments.engineering },
    });
    await leave(c.emp.report1, '2026-05-08');
    await ok('PUT', `/employees/${c.emp.report2}`, admin, { termination_date: '2026-05-07' });
    await settled();
    expect(await liability.refresh('2026-04-30')).toEqual({ everyone: false, employees: 5 });
    // What the requests left to be written after they answered, read into the base day before a
    // roll, so that the roll counts only its own.
    await settle('2026-04-30');
    // 30 April to 10 May: the joiner, the two leaves, the transfer, the leaver; no month's end between.
    expect(await liability.refresh('2026-05-10')).toEqual({ everyone: false, employees: 5, rolledFrom: '2026-04-30' });
    await settle('2026-05-10');
    // Back from 10 May to the 7th: the leave of the 8th and whoever leaves on the 7th.
    expect(await liability.refresh('2026-05-07')).toEqual({ everyone: false, employees: 2, rolledFrom: '2026-05-10' });
    for (const day of ['2026-05-10', '2026-05-07'])
      expect({ day, rows: await liabilityIn(a, day) }).toEqual({ day, rows: await model(day) });
    expect((await liabilityIn(a, '2026-05-10')).some((r) => r.department === c.departments.platform)).toBe(true);
    expect(joiner).toBeGreaterThan(0);
    // Across a month's end (an accrual of everyone's) it is computed in full.
    expect(await liability.refresh('2026-06-02')).toEqual({ everyone: true });
  });

  it('an entry committed after a refresh below the mark it read up to (a hole) is read by the next one', async () => {
    const ds = a.app.get(DataSource);
    const maxId = async () => Number((await ds.query('SELECT MAX(id) AS id FROM leave_ledger'))[0].id);
    const adjust = (employee: number) =>
      ok('POST', '/leave-adjustments', admin, { employee, leave_type: holiday, days: 1, date: '2026-01-12', note: 'hole' });
    // One refresh of each day was not enough once (CI, 2026-12-06: 3 employees where the hole's 1
    // was expected): the earlier tests' changes still reached it after that refresh.
    await settled();
    for (const day of days) await settle(day);
    // This entry takes id k + 2 while k and k + 1 belong to a transaction still open.
    await adjust(c.emp.report1);
    const k = await maxId();
    await ds.query('UPDATE leave_ledger SET id = ? WHERE id = ?', [k + 2, k]);
    await expectRefreshed(1);
    // That transaction commits another employee's entry as k + 1, below the marks.
    await adjust(c.emp.outsider);
    await ds.query('UPDATE leave_ledger SET id = ? WHERE id = ?', [k + 1, await maxId()]);
    await expectRefreshed(1, b);
    await expectRefreshed(0);
  });

  it('a refresh from marks another process has moved writes nothing', async () => {
    const tables = a.app.get(LiabilityRepository);
    const before = await liabilityIn(a, days[0]);
    const marks = await tables.marks(days[0]);
    const stale = { ledgerMark: marks.ledgerMark - 1, changeMark: marks.changeMark };
    expect(await tables.replace(days[0], stale, marks, 'all', [])).toBe(false);
    expect(await tables.marks(days[0])).toEqual(marks);
    expect(await liabilityIn(a, days[0])).toEqual(before);
  });

  it(`keeps the tables of the ${LIABILITY_DAYS_KEPT} days last asked for`, async () => {
    const liability = a.app.get(LeaveLiabilityService);
    for (let m = 1; m <= LIABILITY_DAYS_KEPT + 2; m++)
      await liability.liability({ kind: 'all' }, `2026-${String(m).padStart(2, '0')}-10`);
    const ds = a.app.get(DataSource);
    const kept: Array<{ day: string }> = await ds.query('SELECT day FROM leave_liability_days');
    expect(kept).toHaveLength(LIABILITY_DAYS_KEPT);
    const orphans: Array<{ n: number | string }> = await ds.query(
      'SELECT COUNT(*) AS n FROM leave_liability_balances b WHERE NOT EXISTS (SELECT 1 FROM leave_liability_days d WHERE d.day = b.day)',
    );
    expect(Number(orphans[0].n)).toBe(0);
    // A forgotten day is computed again, for everyone.
    expect(await liability.refresh(days[0])).toEqual({ everyone: true });
  });

  it("the daily job keeps today's table made while the liability is asked for, without counting as a request", async () => {
    const ds = a.app.get(DataSource);
    const job = a.app.get(LeaveAccrualsService);
    const liability = a.app.get(LeaveLiabilityService);
    const dayRow = async (day: string) =>
      (
        await ds.query<Array<{ ledger_mark: number | string; used_ms: number | string }>>(
          'SELECT ledger_mark, used_ms FROM leave_liability_days WHERE day = ?',
          [day],
        )
      )[0];
    const askedLongAgo = () => ds.query('UPDATE leave_liability_days SET used_ms = 1');
    // Nobody asked for a week: the job leaves the liability alone.
    await askedLongAgo();
    expect((await job.scheduled('2026-07-20')).liability).toBeNull();
    expect(await dayRow('2026-07-20')).toBeUndefined();
    // Asked for: the next run makes its day's table, which the day's first request finds up to date.
    await liability.liability({ kind: 'all' }, days[1]);
    expect((await job.scheduled('2026-07-21')).liability).not.toBeNull();
    const warmed = await dayRow('2026-07-21');
    expect(Number(warmed.ledger_mark)).toBeGreaterThan(0);
    expect(Number(warmed.used_ms)).toBe(0);
    expect(await liability.refresh('2026-07-21')).toEqual({ everyone: false, employees: 0 });
    expect(await liabilityIn(a, '2026-07-21')).toEqual(await model('2026-07-21'));
    // The job's own refreshes do not keep it going.
    await askedLongAgo();
    expect((await job.scheduled('2026-07-22')).liability).toBeNull();
    // The schedule's run (no day given) makes the insights' today, the process's local day. (Under
    // jest, TZ cannot be changed for the process from a test: with TZ=UTC that is UTC's day too.)
    await liability.liability({ kind: 'all' }, days[1]);
    expect((await job.scheduled()).liability).not.toBeNull();
    expect(await dayRow(localDay(new Date()))).toBeDefined();
  });
});
