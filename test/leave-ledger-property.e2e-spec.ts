import { DataSource } from 'typeorm';
import { LeaveLedgerRepository } from '../src/leave/ledger/leave-ledger.repository';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { LeaveBalancesService } from '../src/leave/ledger/leave-balances.service';
import { LeavePoliciesService } from '../src/leave/ledger/leave-policies.service';
import { rng } from './helpers/random';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * Property-based test of the leave ledger (issue 31): random sequences of a joiner, its policies
 * and assignments (some back-dated after the job ran), ledger entries (opening, taken, reversals,
 * adjustments, encashments), a moved joined date and accrual runs on random days, checked as of
 * random days against a reference model written here, independently of the engine: it walks the
 * calendar one day at a time. LEDGER_SEQUENCES sets the number (60 in npm test and on MariaDB; npm run test:ledger 20 000 by default, .ci/run 4 000).
 */
const SEQUENCES = Number(process.env.LEDGER_SEQUENCES ?? 60);
const YEARS = [2024, 2025, 2026, 2027];
const FIRST = '2024-01-01';
const LAST = '2027-12-31';

type Kind = 'opening' | 'taken' | 'reversal' | 'adjustment' | 'encashment';
interface ModelPolicy {
  id: number;
  accrual: 'monthly' | 'fixed_per_period' | 'yearly' | 'none';
  amount: number; // hundredths
  prorate: boolean;
  waiting: number;
  max: number | null;
  carry: number | null;
  expiry: number | null;
}
interface ModelAssignment {
  id: number;
  policy: ModelPolicy;
  from: string;
  to: string | null;
}
interface ModelEntry {
  date: string;
  kind: Kind;
  days: number; // hundredths
}

const DAY = 86_400_000;
const ms = (d: string) => Date.parse(`${d}T00:00:00Z`);
const day = (t: number) => new Date(t).toISOString().slice(0, 10);
const next = (d: string, n = 1) => day(ms(d) + n * DAY);
const span = (a: string, b: string) => Math.round((ms(b) - ms(a)) / DAY) + 1;
const isMonthEnd = (d: string) => next(d).slice(8) === '01';
function addMonths(d: string, m: number): string {
  const y = Number(d.slice(0, 4));
  const mo = Number(d.slice(5, 7)) - 1 + m;
  const last = new Date(Date.UTC(y, mo + 1, 0)).getUTCDate();
  return day(Date.UTC(y, mo, Math.min(Number(d.slice(8)), last)));
}

/** The reference: the balance at the end of each day, walking from the first period's start. */
function modelBalances(joined: string, assignments: ModelAssignment[], entries: ModelEntry[]): Map<string, number> {
  const policyOn = (d: string): ModelPolicy | null => {
    const live = assignments.filter((a) => a.from <= d && (a.to === null || d <= a.to));
    live.sort((a, b) => (a.from === b.from ? b.id - a.id : a.from < b.from ? 1 : -1));
    return live[0]?.policy ?? null;
  };
  const out = new Map<string, number>();
  let balance = 0;
  let carried = 0;
  let used = 0;
  let expiryDay: string | null = null;
  for (let d = FIRST; d <= LAST; d = next(d)) {
    const year = d.slice(0, 4);
    if (d.endsWith('-01-01')) {
      if (d !== FIRST) {
        const p = policyOn(next(d, -1));
        balance = !p || p.carry === 0 ? 0 : balance <= 0 || p.carry === null ? balance : Math.min(balance, p.carry);
      }
      carried = balance > 0 ? balance : 0;
      used = 0;
      const first = policyOn(d);
      expiryDay = carried > 0 && first?.expiry ? addMonths(d, first.expiry) : null;
    }
    // Carried days expire by what was used before the day; then the day's entries; then its grant.
    if (d === expiryDay) balance -= Math.max(0, carried - Math.max(0, used));
    for (const x of entries.filter((e) => e.date === d)) {
      balance += x.days;
      if (x.kind === 'taken' || x.kind === 'reversal' || x.kind === 'encashment') used -= x.days;
    }
    const p = policyOn(d);
    if (p) {
      const eligible = next(joined, p.waiting);
      const jan1 = `${year}-01-01`;
      let grant: { from: string; to: string } | null = null;
      if (p.accrual === 'monthly' && isMonthEnd(d) && eligible <= d) grant = { from: `${d.slice(0, 7)}-01`, to: d };
      if ((p.accrual === 'fixed_per_period' || p.accrual === 'yearly') && d === (eligible > jan1 ? eligible : jan1))
        grant = { from: jan1, to: `${year}-12-31` };
      if (grant) {
        let amount =
          p.prorate && eligible > grant.from
            ? Math.round((p.amount * span(eligible, grant.to)) / span(grant.from, grant.to))
            : p.amount;
        if (p.max !== null) amount = Math.max(0, Math.min(amount, p.max - balance));
        balance += amount;
      }
    }
    out.set(d, balance);
  }
  return out;
}

describe(`leave ledger against a reference model (${SEQUENCES} sequences)`, () => {
  let t: TestApp;
  let ledger: LeaveAccrualsService;
  let balances: LeaveBalancesService;
  let repo: LeaveLedgerRepository;
  let policies: LeavePoliciesService;
  let ds: DataSource;
  let type: number;

  beforeAll(async () => {
    t = await createTestApp();
    ledger = t.app.get(LeaveAccrualsService);
    balances = t.app.get(LeaveBalancesService);
    repo = t.app.get(LeaveLedgerRepository);
    policies = t.app.get(LeavePoliciesService);
    ds = t.app.get(DataSource);
    for (const y of YEARS)
      await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
        `${y}`,
        `${y}-01-01`,
        `${y}-12-31`,
      ]);
    await ds.query("INSERT INTO leave_types (name, default_days, allow_negative) VALUES ('Model', 0, 1)");
    type = Number((await ds.query("SELECT id FROM leave_types WHERE name = 'Model'"))[0].id);
  });
  afterAll(() => t.close());

  it(
    'balances as of random days, and the sums of the written ledger, equal the model',
    async () => {
      const failures: string[] = [];
      const only = process.env.LEDGER_SEED ? Number(process.env.LEDGER_SEED) : null;
      for (let n = 0; n < (only ? 1 : SEQUENCES) && failures.length < 3; n++) {
        const seed = only ?? 1000 + n;
        const r = rng(seed);
        const randomDay = (from = FIRST, to = LAST) => day(ms(from) + r.int(0, span(from, to) - 1) * DAY);
        let joined = randomDay('2023-06-01', '2026-06-30');
        await ds.query(
          "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES (?, 'Model', 'Joiner', ?)",
          [`M${seed}`, joined],
        );
        const e = Number((await ds.query('SELECT id FROM employees WHERE employee_id = ?', [`M${seed}`]))[0].id);
        const makePolicy = async (): Promise<ModelPolicy> => {
          const p = {
            accrual: r.pick(['monthly', 'monthly', 'fixed_per_period', 'yearly', 'none'] as const),
            amount: r.pick([50, 125, 200, 208, 250, 1000, 2000]),
            prorate: r.chance(0.5),
            waiting: r.pick([0, 0, 30, 90]),
            max: r.chance(0.3) ? r.pick([500, 1500, 3000]) : null,
            carry: r.pick([null, 0, 300, 500]),
            expiry: r.chance(0.5) ? r.pick([1, 3, 6]) : null,
          };
          const made = (await policies.policies.create({
            name: `P${seed}-${r.int(0, 1e9)}`,
            leave_type: type,
            accrual: p.accrual,
            amount: p.amount / 100,
            prorate_joiners: p.prorate,
            waiting_days: p.waiting,
            max_balance: p.max === null ? null : p.max / 100,
            carry_over_max: p.carry === null ? null : p.carry / 100,
            carry_over_expiry_months: p.expiry,
          })) as { id: number };
          return { id: made.id, ...p };
        };
        const assignments: ModelAssignment[] = [];
        const assign = async (policy: ModelPolicy, from: string, to: string | null) => {
          const made = (await policies.assignments.create({
            policy: policy.id,
            employee: e,
            valid_from: from,
            valid_to: to,
          })) as {
            id: number;
          };
          assignments.push({ id: made.id, policy, from, to });
        };
        const entries: ModelEntry[] = [];
        const write = async (kind: Kind, date: string, days: number) => {
          entries.push({ kind, date, days });
          await repo.append(null, [
            {
              employeeId: e,
              leaveTypeId: type,
              date,
              kind,
              days: days / 100,
              source: 'admin',
              sourceId: null,
              createdBy: null,
              note: null,
              entryKey: null,
            },
          ]);
        };

        await assign(await makePolicy(), '2023-01-01', r.chance(0.2) ? randomDay() : null);
        // Edge days (a period's first and last, an expiry's, a month's end) come often.
        const edgeDay = () => `${r.pick(YEARS)}-${r.pick(['01-01', '02-01', '04-01', '07-01', '01-31', '06-30', '12-31'])}`;
        for (let i = r.int(0, 8); i > 0; i--) {
          const kind = r.pick(['opening', 'taken', 'taken', 'adjustment', 'encashment'] as const);
          const date = r.chance(0.4) ? edgeDay() : randomDay();
          const days =
            kind === 'opening' ? r.int(1, 10) * 50 : kind === 'adjustment' ? r.int(-4, 4) * 50 || 50 : -r.int(1, 4) * 50;
          await write(kind, date, days);
          if (kind === 'taken' && r.chance(0.3)) await write('reversal', date, -days);
        }
        // The job on random days; back-dated changes after it.
        for (let runs = r.int(0, 2); runs > 0; runs--) await ledger.accrue(randomDay(), false, [e]);
        if (r.chance(0.5)) {
          const from = randomDay('2024-01-01', '2027-06-30');
          await assign(await makePolicy(), from, r.chance(0.3) ? randomDay(from) : null);
        }
        if (r.chance(0.2)) {
          joined = randomDay('2023-06-01', '2026-06-30');
          await ds.query('UPDATE employees SET joined_date = ? WHERE id = ?', [joined, e]);
        }
        if (r.chance(0.5)) await ledger.accrue(randomDay(), false, [e]);
        await ledger.accrue(LAST, true, [e]);

        const model = modelBalances(joined, assignments, entries);
        const written = (await repo.entries(null, [e], FIRST, LAST)).get(`${e}:${type}`) ?? [];
        for (let k = 0; k < 3; k++) {
          const asOf = randomDay();
          const expected = model.get(asOf) as number;
          const [b] = await balances.balances(null, e, { kind: 'as_of', day: asOf }, type);
          const windowStart = `${asOf.slice(0, 4)}-01-01`;
          const sum = written.filter((x) => x.date >= windowStart && x.date <= asOf).reduce((s, x) => s + x.days, 0);
          if (b.available !== expected || sum !== expected)
            failures.push(
              `seed ${seed}: as of ${asOf} the model has ${expected / 100}, the balance ${b.available / 100}, the written ledger ${sum / 100} ` +
                JSON.stringify({ joined, assignments, entries }),
            );
        }
      }
      expect(failures).toEqual([]);
    },
    60_000 + SEQUENCES * 100,
  );
});
