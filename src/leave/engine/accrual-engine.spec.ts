import {
  AssignmentRule,
  corrections,
  derivedKeyOf,
  EmployeeFacts,
  Entry,
  owedEntries,
  Period,
  PolicyFields,
  PolicyResolver,
  PolicyRule,
  toRule,
  windowsOf,
} from './accrual-engine';

/** owedEntries, by cases worked out by hand (days in hundredths; leave type 1). */
const TYPE = 1;
const Y2025: Period = { id: 1, start: '2025-01-01', end: '2025-12-31' };
const Y2026: Period = { id: 2, start: '2026-01-01', end: '2026-12-31' };
/** Employee 7, joined long before, still there. */
const EMPLOYEE: EmployeeFacts = {
  id: 7,
  joined: '2020-01-01',
  termination: null,
  departments: [],
  employmentStatusId: null,
  payGradeId: null,
  payFrequency: null,
};

function policy(id: number, fields: Partial<PolicyFields>): PolicyRule {
  return toRule({
    id,
    leaveTypeId: TYPE,
    accrual: 'monthly',
    amount: 2,
    prorateJoiners: false,
    waitingDays: 0,
    maxBalance: null,
    carryOverMax: null,
    carryOverExpiryMonths: null,
    allowNegative: false,
    encashable: false,
    encashmentMax: null,
    ...fields,
  });
}

function owed(
  policies: Array<{ rule: PolicyRule; from?: string; to?: string | null }>,
  entries: Entry[] = [],
  facts: Partial<EmployeeFacts> = {},
  periods: Period[] = [Y2025],
) {
  const employee: EmployeeFacts = { ...EMPLOYEE, ...facts };
  const assignments: AssignmentRule[] = policies.map((p, i) => ({
    id: i + 1,
    policyId: p.rule.id,
    employeeId: 7,
    departmentId: null,
    employmentStatusId: null,
    payGradeId: null,
    validFrom: p.from ?? '2000-01-01',
    validTo: p.to ?? null,
  }));
  const resolver = new PolicyResolver(employee, assignments, new Map(policies.map((p) => [p.rule.id, p.rule])));
  return owedEntries(TYPE, resolver, windowsOf(periods), entries).map(({ base, date, kind, days }) => ({
    base,
    date,
    kind,
    days,
  }));
}

const taken = (date: string, days: number): Entry => ({ date, kind: 'taken', days, key: null });

describe('owedEntries: what the policies owe one employee for one leave type', () => {
  it('a monthly accrual grants on each month end of the period, keyed by type and day', () => {
    const out = owed([{ rule: policy(10, { amount: 2 }) }]);
    expect(out).toHaveLength(12);
    expect(out[0]).toEqual({ base: 'acc:1:2025-01-31', date: '2025-01-31', kind: 'accrual', days: 200 });
    expect(out[1]).toEqual({ base: 'acc:1:2025-02-28', date: '2025-02-28', kind: 'accrual', days: 200 });
    expect(out[11]).toEqual({ base: 'acc:1:2025-12-31', date: '2025-12-31', kind: 'accrual', days: 200 });
  });

  it("prorates a joiner's first month by the days it was there (16 of March's 31 → 1.03), and grants nothing before", () => {
    const out = owed([{ rule: policy(10, { amount: 2, prorateJoiners: true }) }], [], { joined: '2025-03-16' });
    expect(out.slice(0, 2)).toEqual([
      { base: 'acc:1:2025-03-31', date: '2025-03-31', kind: 'accrual', days: 103 },
      { base: 'acc:1:2025-04-30', date: '2025-04-30', kind: 'accrual', days: 200 },
    ]);
    expect(out).toHaveLength(10);
  });

  it('waiting days move the first grant to the first eligible day; a leaver gets no grant after leaving', () => {
    const out = owed([{ rule: policy(10, { accrual: 'fixed_per_period', amount: 10, waitingDays: 30 }) }], [], {
      joined: '2025-02-01',
    });
    expect(out).toEqual([{ base: 'acc:1:2025-03-03', date: '2025-03-03', kind: 'accrual', days: 1000 }]);
    expect(owed([{ rule: policy(10, { amount: 1 }) }], [], { termination: '2025-03-10' }).map((o) => o.date)).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-10',
    ]);
  });

  it('caps each grant by max_balance on its day, counting the days taken before it', () => {
    // 2 a month, at most 5: Jan 2 (2), Feb 2 (4), Mar 1 (5); 3 taken on 10 April → Apr 2 (4), May 1 (5), then nothing.
    const out = owed([{ rule: policy(10, { amount: 2, maxBalance: 5 }) }], [taken('2025-04-10', -300)]);
    expect(out.map((o) => [o.date, o.days])).toEqual([
      ['2025-01-31', 200],
      ['2025-02-28', 200],
      ['2025-03-31', 100],
      ['2025-04-30', 200],
      ['2025-05-31', 100],
    ]);
  });

  it('a policy that replaces another mid-period grants from its first day on', () => {
    const out = owed([
      { rule: policy(10, { amount: 1 }), from: '2025-01-01', to: '2025-06-30' },
      { rule: policy(11, { amount: 2 }), from: '2025-07-01' },
    ]);
    expect(out.map((o) => o.days)).toEqual([100, 100, 100, 100, 100, 100, 200, 200, 200, 200, 200, 200]);
  });

  it('carries at most carry_over_max into the next period and expires what is not used within the months', () => {
    // 10 a period, carry at most 5 expiring after 3 months. 2025: 10 - 2 taken = 8 → 5 carried.
    // 2026: 1 taken in February uses carried days first → 4 of the 5 expire on 1 April.
    const rule = policy(10, { accrual: 'fixed_per_period', amount: 10, carryOverMax: 5, carryOverExpiryMonths: 3 });
    const out = owed([{ rule }], [taken('2025-06-01', -200), taken('2026-02-01', -100)], {}, [Y2025, Y2026]);
    expect(out).toEqual([
      { base: 'acc:1:2025-01-01', date: '2025-01-01', kind: 'accrual', days: 1000 },
      { base: 'cin:1:2', date: '2026-01-01', kind: 'carry_over', days: 500 },
      { base: 'exp:1:2:2026-04-01', date: '2026-04-01', kind: 'expiry', days: -400 },
      { base: 'acc:1:2026-01-01', date: '2026-01-01', kind: 'accrual', days: 1000 },
    ]);
  });

  it('carries a negative balance whole, and nothing at all when carry_over_max is 0', () => {
    const carrying = policy(10, { accrual: 'fixed_per_period', amount: 10, carryOverMax: 5 });
    expect(owed([{ rule: carrying }], [taken('2025-06-01', -1200)], {}, [Y2025, Y2026])).toContainEqual({
      base: 'cin:1:2',
      date: '2026-01-01',
      kind: 'carry_over',
      days: -200,
    });
    const none = policy(10, { accrual: 'fixed_per_period', amount: 10, carryOverMax: 0 });
    expect(owed([{ rule: none }], [], {}, [Y2025, Y2026]).filter((o) => o.kind === 'carry_over')).toEqual([]);
  });

  it('takes the carry-over into the first window as written, and expires from it', () => {
    // Only 2026 is computed: the 6 days carried in were written (an opening balance import or an earlier run).
    const rule = policy(10, { accrual: 'fixed_per_period', amount: 10, carryOverExpiryMonths: 2 });
    const windows = windowsOf([Y2025, Y2026]).slice(1);
    const resolver = new PolicyResolver(
      EMPLOYEE,
      [
        {
          id: 1,
          policyId: 10,
          employeeId: 7,
          departmentId: null,
          employmentStatusId: null,
          payGradeId: null,
          validFrom: '2000-01-01',
          validTo: null,
        },
      ],
      new Map([[10, rule]]),
    );
    const out = owedEntries(TYPE, resolver, windows, [{ date: '2026-01-01', kind: 'carry_over', days: 600, key: 'cin:1:2#0' }]);
    expect(out.map(({ base, date, days }) => ({ base, date, days }))).toEqual([
      { base: 'exp:1:2:2026-03-01', date: '2026-03-01', days: -600 },
      { base: 'acc:1:2026-01-01', date: '2026-01-01', days: 1000 },
    ]);
  });
});

describe('derived entry keys and corrections', () => {
  it('reads a written key as a typed value; entries the policies do not derive have none', () => {
    expect(derivedKeyOf('acc:1:2025-01-31#2')).toEqual({ kind: 'acc', type: 1, date: '2025-01-31' });
    expect(derivedKeyOf('cin:1:2#0')).toEqual({ kind: 'cin', type: 1, into: 2 });
    expect(derivedKeyOf('exp:1:2:2026-04-01#0')).toEqual({ kind: 'exp', type: 1, window: 2, date: '2026-04-01' });
    for (const key of ['open:1:2025-01-01', 'take:5:2025-01-02', 'rev:5:2025-01-02', null]) expect(derivedKeyOf(key)).toBeNull();
  });

  it('writes owed minus written under the next #n, zeroes what is no longer owed, and keeps to the scope and the day', () => {
    const owedNow = [
      { base: 'acc:1:2025-01-31', date: '2025-01-31', kind: 'accrual' as const, days: 200, policyId: 10 },
      { base: 'acc:1:2025-02-28', date: '2025-02-28', kind: 'accrual' as const, days: 200, policyId: 10 },
      { base: 'acc:1:2025-03-31', date: '2025-03-31', kind: 'accrual' as const, days: 200, policyId: 10 },
    ];
    const written: Entry[] = [
      { date: '2025-01-31', kind: 'accrual', days: 150, key: 'acc:1:2025-01-31#0' },
      { date: '2025-02-28', kind: 'accrual', days: 200, key: 'acc:1:2025-02-28#0' },
      { date: '2025-01-15', kind: 'accrual', days: 100, key: 'acc:1:2025-01-15#0' },
      { date: '2026-01-01', kind: 'carry_over', days: 300, key: 'cin:1:2#0' },
      { date: '2025-01-10', kind: 'taken', days: -100, key: 'take:9:2025-01-10' },
    ];
    const onlyAccruals = (k: { kind: string }) => k.kind === 'acc';
    expect(corrections(owedNow, written, onlyAccruals, '2025-02-28')).toEqual([
      { base: 'acc:1:2025-01-31', date: '2025-01-31', kind: 'accrual', days: 50, policyId: 10, key: 'acc:1:2025-01-31#1' },
      { base: 'acc:1:2025-01-15', date: '2025-01-15', kind: 'accrual', days: -100, policyId: null, key: 'acc:1:2025-01-15#1' },
    ]);
  });
});
