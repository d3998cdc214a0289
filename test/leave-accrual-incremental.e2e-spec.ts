import { ReferenceService } from '../src/reference/reference.service';
import { AccrualChangesSubscriber } from '../src/leave/ledger/accrual-changes.subscriber';
import { DataSource } from 'typeorm';
import { AuthUser } from '../src/common/auth/auth-user';
import { EmployeesService } from '../src/employees/employees.service';
import { baseOf } from '../src/leave/engine/accrual-engine';
import { HOLE_TTL_MS, holesOf, keptHoles, HOLES_KEPT } from '../src/leave/ledger/change-marks';
import { plusDays } from '../src/leave/engine/calendar';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { LeaveBalancesService } from '../src/leave/ledger/leave-balances.service';
import { LeaveLedgerRepository } from '../src/leave/ledger/leave-ledger.repository';
import { LeavePoliciesService } from '../src/leave/ledger/leave-policies.service';
import { employeeBody } from './helpers/company';
import { rng } from './helpers/random';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * Issue 49: the daily accrual job reads only the employees with something due or a change since its
 * last run. Property: over random companies, policies and changes made day by day through the
 * services (leave taken and adjusted, back-dated; a leaving day; a moved joined date; a policy
 * assigned later), running the incremental job every day leaves the same ledger (per key base and
 * kind, summed) and the same balances as running the full job once, on the last day and on random
 * days between (in a second world that replays the same changes and runs the full job only then).
 * ACCRUAL_SEQUENCES sets the number of seeds besides two that once caught a defect (none in npm test, the two seeds only;
 * `npm run test:ledger`, a .ci/run step, runs 200).
 */
const SEQUENCES = Number(process.env.ACCRUAL_SEQUENCES ?? 0);
const FIRST = '2025-11-20';
const LAST = '2026-04-05';
const ADMIN: AuthUser = {
  id: 0,
  username: 'model',
  email: 'model@test.example',
  level: 'Admin',
  employeeId: null,
  departmentIds: [],
  mustChangePassword: false,
  grantId: 'model',
};

interface World {
  t: TestApp;
  accruals: LeaveAccrualsService;
  ledger: LeaveLedgerRepository;
  policies: LeavePoliciesService;
  employees: EmployeesService;
  balances: LeaveBalancesService;
  ds: DataSource;
}

async function world(overrides: Record<string, string> = {}): Promise<World> {
  const t = await createTestApp(overrides);
  const ds = t.app.get(DataSource);
  for (const y of [2025, 2026])
    await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
      `${y}`,
      `${y}-01-01`,
      `${y}-12-31`,
    ]);
  await ds.query("INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Annual', 0, 1), ('Sick', 5, 1)");
  return {
    t,
    ds,
    accruals: t.app.get(LeaveAccrualsService),
    ledger: t.app.get(LeaveLedgerRepository),
    policies: t.app.get(LeavePoliciesService),
    employees: t.app.get(EmployeesService),
    balances: t.app.get(LeaveBalancesService),
  };
}

/** The scenario of a seed: what happens on which day, applied to a world. */
function scenario(seed: number): Array<{ day: string; act: (w: World, ids: number[]) => Promise<void> }> {
  const r = rng(seed);
  const days: string[] = [];
  for (let d = FIRST; d <= LAST; d = plusDays(d, 1)) days.push(d);
  const someDay = () => r.pick(days);
  const events: Array<{ day: string; act: (w: World, ids: number[]) => Promise<void> }> = [];
  const policy = () => ({
    accrual: r.pick(['monthly', 'monthly', 'per_pay_period', 'anniversary', 'fixed_per_period', 'yearly'] as const),
    amount: r.pick([1, 1.25, 2.5, 10]),
    prorate_joiners: r.chance(0.5),
    waiting_days: r.pick([0, 0, 10, 45]),
    max_balance: r.chance(0.3) ? r.pick([5, 12]) : null,
    carry_over_max: r.pick([null, 0, 3, 5]),
    carry_over_expiry_months: r.chance(0.5) ? r.pick([1, 2, 3]) : null,
  });
  // Day one: the company, its policies and assignments (the first run reads everyone anyway).
  const first = policy();
  const second = policy();
  // Drawn here, not in the act: each world replays the same values.
  const joinedDays = Array.from({ length: 5 }, () =>
    r.pick(['2019-02-28', '2020-02-29', '2024-12-03', '2025-06-15', '2025-12-01', '2026-01-20', '2026-03-02']),
  );
  events.push({
    day: FIRST,
    act: async (w, ids) => {
      for (const joined of joinedDays) ids.push((await w.employees.create(employeeBody({ joined_date: joined }))).id);
      const a = (await w.policies.policies.create({ name: 'First', leave_type: 1, ...first })) as { id: number };
      await w.policies.assignments.create({ policy: a.id, valid_from: '2020-01-01' });
      const b = (await w.policies.policies.create({ name: 'Second', leave_type: 2, ...second })) as { id: number };
      await w.policies.assignments.create({ policy: b.id, employee: ids[0], valid_from: '2020-01-01' });
    },
  });
  for (let n = r.int(3, 12); n > 0; n--) {
    const day = someDay();
    const who = r.int(0, 4);
    const kind = r.pick(['taken', 'taken', 'adjustment', 'leaves', 'joined', 'assign'] as const);
    // Entries dated up to a month back: some before accruals, carry-overs or expiries already written.
    const date = r.chance(0.5) ? day : plusDays(day, -r.int(1, 30));
    const type = r.pick([1, 2]);
    const days = kind === 'taken' ? -r.pick([0.5, 1, 2, 4]) : r.pick([-2, 1, 3]);
    const later = plusDays(day, r.int(-20, 40));
    const joined = plusDays(day, -r.int(0, 400));
    const extra = policy();
    events.push({
      day,
      act: async (w, ids) => {
        const employee = ids[who];
        if (kind === 'taken' || kind === 'adjustment')
          await w.ledger.append(null, [
            {
              employeeId: employee,
              leaveTypeId: type,
              date,
              kind,
              days,
              source: 'admin',
              sourceId: null,
              createdBy: null,
              note: null,
              entryKey: null,
            },
          ]);
        // A refused change (a leaving day before the joining day) is refused in both worlds alike.
        else if (kind === 'leaves')
          await w.employees
            .update(ADMIN, employee, { termination_date: later < '2025-11-01' ? '2025-11-01' : later })
            .catch(() => undefined);
        else if (kind === 'joined') await w.employees.update(ADMIN, employee, { joined_date: joined }).catch(() => undefined);
        else {
          const p = (await w.policies.policies.create({ name: `Later ${day} ${who}`, leave_type: type, ...extra })) as {
            id: number;
          };
          await w.policies.assignments.create({ policy: p.id, employee, valid_from: date });
        }
      },
    });
  }
  return events.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
}

/** The ledger by employee, leave type, kind and key base (the job's entries summed per base), and the balances on the last day. */
async function state(w: World, ids: number[], day: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const entries = await w.ledger.entries(null, ids, '2000-01-01', null);
  for (const [key, list] of entries)
    for (const x of list) {
      const k = `${ids.indexOf(Number(key.split(':')[0]))}:${key.split(':')[1]}:${x.kind}:${x.key ? baseOf(x.key) : `${x.date}`}`;
      out[k] = (out[k] ?? 0) + x.days;
    }
  for (const [k, v] of Object.entries(out)) if (v === 0) delete out[k];
  for (const [i, id] of ids.entries())
    for (const b of await w.balances.balances(null, id, { kind: 'as_of', day })) out[`balance ${i}:${b.leaveType}`] = b.available;
  return out;
}

describe(`the daily accrual job, incremental (${SEQUENCES} sequences)`, () => {
  let daily: World;
  let once: World;

  // Two databases side by side: SQLite in memory each, under test:integration too (its MariaDB is
  // one database per jest worker; the SQL of the job's reads is checked there by sql-snapshots).
  beforeEach(async () => {
    daily = await world({ DATABASE_URL: 'sqlite::memory:' });
    once = await world({ DATABASE_URL: 'sqlite::memory:' });
  });
  afterEach(async () => {
    await daily.t.close();
    await once.t.close();
  });

  // 7041 and 7099 catch a daily run that misses the ledger's own changes (a back-dated entry between two full runs).
  it.each([...new Set([7041, 7099, ...Array.from({ length: SEQUENCES }, (_, i) => 7000 + i)])])(
    'seed %i: run every day, it leaves what one full run on the last day leaves',
    async (seed) => {
      const events = scenario(seed);
      const r = rng(seed + 1);
      // Compared on a few days between (the next full run would hide what a daily run missed) and on the last.
      const checkpoints = new Set([LAST, ...Array.from({ length: 4 }, () => plusDays(FIRST, r.int(0, 136)))]);
      const dailyIds: number[] = [];
      const onceIds: number[] = [];
      const reads: Array<{ day: string; full: boolean; employees: number }> = [];
      let e = 0;
      let o = 0;
      for (let d = FIRST; d <= LAST; d = plusDays(d, 1)) {
        for (; e < events.length && events[e].day === d; e++) await events[e].act(daily, dailyIds);
        const run = await daily.accruals.daily(d);
        reads.push({ day: d, full: run.full, employees: run.employees });
        if (!checkpoints.has(d)) continue;
        for (; o < events.length && events[o].day <= d; o++) await events[o].act(once, onceIds);
        await once.accruals.accrue(d);
        expect({ day: d, ...(await state(daily, dailyIds, d)) }).toEqual({ day: d, ...(await state(once, onceIds, d)) });
      }
      // And it read little: no one on most days, everyone on a month's end or a period's first day.
      const quiet = reads.filter((x) => !x.full && x.employees === 0).length;
      expect(quiet).toBeGreaterThan(reads.length / 3);
      expect(reads.find((x) => x.day === '2026-01-01')?.full).toBe(true);
    },
    60_000,
  );
});

describe('the daily accrual job: whom it reads', () => {
  let w: World;
  beforeAll(async () => (w = await world()));
  afterAll(() => w.t.close());

  it('everyone at first, no one the same day again, the changed employee after a change, everyone when the ids went back', async () => {
    const a = (await w.employees.create(employeeBody({ joined_date: '2024-03-10' }))).id;
    await w.employees.create(employeeBody({ joined_date: '2024-05-10' }));
    const p = (await w.policies.policies.create({ name: 'Monthly', leave_type: 1, accrual: 'monthly', amount: 2 })) as {
      id: number;
    };
    await w.policies.assignments.create({ policy: p.id, valid_from: '2020-01-01' });
    expect(await w.accruals.daily('2026-02-10')).toMatchObject({ full: true, employees: 2 });
    expect(await w.accruals.daily('2026-02-10')).toEqual({ full: false, employees: 0, written: 0 });
    expect(await w.accruals.daily('2026-02-11')).toEqual({ full: false, employees: 0, written: 0 });
    await w.employees.update(ADMIN, a, { city: 'Graz' });
    expect(await w.accruals.daily('2026-02-12')).toEqual({ full: false, employees: 1, written: 0 });
    // A new policy reaches everyone; so does a month's end.
    await w.policies.policies.create({ name: 'Unused', leave_type: 2, accrual: 'yearly', amount: 1 });
    expect(await w.accruals.daily('2026-02-13')).toMatchObject({ full: true });
    expect(await w.accruals.daily('2026-02-28')).toMatchObject({ full: true, written: 2 });
    await w.ds.query('DELETE FROM leave_accrual_changes');
    expect(await w.accruals.daily('2026-03-02')).toMatchObject({ full: true });
  });

  it('reads a change committed after a run below the mark that run read up to (a hole), once', async () => {
    const [a, b] = [
      (await w.employees.create(employeeBody({ joined_date: '2024-03-10' }))).id,
      (await w.employees.create(employeeBody({ joined_date: '2024-05-10' }))).id,
    ];
    expect(await w.accruals.daily('2026-03-03')).toMatchObject({ full: false, employees: 2 });
    const maxId = async () => Number((await w.ds.query('SELECT MAX(id) AS id FROM leave_accrual_changes'))[0].id);
    // The change noted now (the run would note it first), so that its row's id can be moved.
    const noted = () => w.t.app.get(AccrualChangesSubscriber).catchUp();
    // a's change takes id k + 2 while k and k + 1 belong to a transaction still open (MariaDB hands
    // ids out at insert, not at commit): the run reads up to k + 2.
    await w.employees.update(ADMIN, a, { city: 'Graz' });
    await noted();
    const k = await maxId();
    await w.ds.query('UPDATE leave_accrual_changes SET id = ? WHERE id = ?', [k + 2, k]);
    expect(await w.accruals.daily('2026-03-04')).toEqual({ full: false, employees: 1, written: 0 });
    // That transaction commits b's change as k + 1, below the mark.
    await w.employees.update(ADMIN, b, { city: 'Linz' });
    await noted();
    await w.ds.query('UPDATE leave_accrual_changes SET id = ? WHERE id = ?', [k + 1, await maxId()]);
    expect(await w.accruals.daily('2026-03-05')).toEqual({ full: false, employees: 1, written: 0 });
    expect(await w.accruals.daily('2026-03-06')).toEqual({ full: false, employees: 0, written: 0 });
    // k is still missing: kept until an hour after it was first seen, then taken as rolled back.
    const now = Date.now();
    expect(await holesOf(w.ds, 'leave_accrual_changes', k + 2, k + 2, [[k, k + 1, now]], now)).toEqual([[k, k, now]]);
    expect(await holesOf(w.ds, 'leave_accrual_changes', k + 2, k + 2, [[k, k, now - HOLE_TTL_MS - 1]], now)).toEqual([]);
    // Ids missing at the end of a range, and too many holes: the mark goes below the first not kept.
    expect(await holesOf(w.ds, 'leave_accrual_changes', k - 1, k + 5, [], now)).toEqual([
      [k, k, now],
      [k + 3, k + 5, now],
    ]);
    const many = Array.from({ length: HOLES_KEPT + 2 }, (_, i): [number, number, number] => [10 * i, 10 * i + 1, now]);
    expect(keptHoles(100_000, many)).toEqual({ mark: 10 * HOLES_KEPT - 1, holes: many.slice(0, HOLES_KEPT) });
  });

  it('learns who changed from the events it subscribes to, whatever the audit log holds (issue 64 item 4)', async () => {
    const a = (await w.employees.create(employeeBody({ joined_date: '2024-03-10' }))).id;
    await w.accruals.daily('2026-04-14');
    expect(await w.accruals.daily('2026-04-14')).toEqual({ full: false, employees: 0, written: 0 });
    // The audit log emptied (or its resources renamed): the employee's event still names it.
    await w.employees.update(ADMIN, a, { city: 'Wien' });
    await w.ds.query('DELETE FROM audit_log');
    expect(await w.accruals.daily('2026-04-15')).toEqual({ full: false, employees: 1, written: 0 });
    // A department's change reaches everyone through its event, as a policy's does.
    await w.t.app.get(ReferenceService).departments.create({ name: `Accruals ${a}` });
    await w.ds.query('DELETE FROM audit_log');
    expect(await w.accruals.daily('2026-04-16')).toMatchObject({ full: true });
    expect(await w.accruals.daily('2026-04-17')).toEqual({ full: false, employees: 0, written: 0 });
  });
});
