import { daysInclusive, maxDay, minDay, monthEnd, plusDays, plusMonths } from './calendar';

/**
 * The leave ledger's arithmetic (issue 31), pure: which accrual, carry-over and expiry entries an
 * employee's policies owe, given the ledger's other entries. The daily accrual job writes the
 * difference between what is owed and what is written (so it is idempotent and corrects a changed
 * joined date or a back-dated assignment with new entries where they belong); balances read the
 * ledger plus what is owed and not yet written. Days are integer hundredths here.
 */

export const ACCRUALS = ['none', 'fixed_per_period', 'monthly', 'per_pay_period', 'yearly', 'anniversary'] as const;
export type Accrual = (typeof ACCRUALS)[number];

export const LEDGER_KINDS = [
  'opening',
  'accrual',
  'taken',
  'reversal',
  'carry_over',
  'expiry',
  'adjustment',
  'encashment',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export const LEDGER_SOURCES = ['policy', 'request', 'import', 'admin'] as const;
export type LedgerSource = (typeof LEDGER_SOURCES)[number];

/** Days ↔ hundredths. */
export const toH = (days: number) => Math.round(days * 100);
export const fromH = (h: number) => h / 100;

export interface PolicyRule {
  id: number;
  leaveTypeId: number;
  accrual: Accrual;
  /** Days per grant: per period (fixed_per_period), month, pay period, year or anniversary; hundredths. */
  amount: number;
  prorateJoiners: boolean;
  waitingDays: number;
  maxBalance: number | null;
  /** null: everything carries over; 0: nothing does. */
  carryOverMax: number | null;
  carryOverExpiryMonths: number | null;
  allowNegative: boolean;
  encashable: boolean;
  encashmentMax: number | null;
}

export interface AssignmentRule {
  id: number;
  policyId: number;
  employeeId: number | null;
  departmentId: number | null;
  employmentStatusId: number | null;
  payGradeId: number | null;
  validFrom: string;
  validTo: string | null;
}

export interface EmployeeFacts {
  id: number;
  joined: string;
  termination: string | null;
  /** The employee's department first, then its ancestors up to the root. */
  departments: number[];
  employmentStatusId: number | null;
  payGradeId: number | null;
  /** The pay frequency's name (Weekly, Bi Weekly, Semi Monthly, Monthly, Yearly), for per_pay_period. */
  payFrequency: string | null;
  /**
   * The department (with its ancestors), employment status and pay grade from each day they
   * changed on (the employment history, issue 43), oldest first; without it, the values above hold
   * on every day. Before the first, the first holds.
   */
  dated?: DatedFacts[];
}

export interface DatedFacts {
  from: string;
  departments: number[];
  employmentStatusId: number | null;
  payGradeId: number | null;
}

/** The employee's facts as they were on `day` (the department, status and grade of that day). */
export function factsOn(e: EmployeeFacts, day: string): EmployeeFacts {
  if (!e.dated?.length) return e;
  let found = e.dated[0];
  for (const d of e.dated) {
    if (d.from > day) break;
    found = d;
  }
  return { ...e, departments: found.departments, employmentStatusId: found.employmentStatusId, payGradeId: found.payGradeId };
}

export interface Period {
  id: number;
  start: string;
  end: string;
}

/** A written ledger entry of one employee and leave type. */
export interface Entry {
  date: string;
  kind: LedgerKind;
  days: number;
  key: string | null;
}

/** An entry the policies owe (its key's base: the written ones carry `#n`). */
export interface Owed {
  base: string;
  date: string;
  kind: LedgerKind;
  days: number;
  policyId: number | null;
}

/**
 * The derived entries' key bases: an accrual per slot date, a carry-over into a period, the expiry
 * of what was carried into it (by date: a policy change that moves it zeroes the old day's).
 */
export const accrualBase = (type: number, date: string) => `acc:${type}:${date}`;
export const carryBase = (type: number, into: number) => `cin:${type}:${into}`;
export const expiryBase = (type: number, window: number, date: string) => `exp:${type}:${window}:${date}`;
export const baseOf = (key: string) => key.split('#')[0];
export const isDerived = (key: string | null) => key !== null && /^(acc|cin|exp):/.test(key);

/** A derived entry's key base as a value: what accrualBase, carryBase and expiryBase spell. */
export type DerivedKey =
  | { kind: 'acc'; type: number; date: string }
  | { kind: 'cin'; type: number; into: number }
  | { kind: 'exp'; type: number; window: number; date: string };

/** The key of a written entry (`base#n`) as a DerivedKey; null for an entry the policies do not derive. */
export function derivedKeyOf(key: string | null): DerivedKey | null {
  if (key === null) return null;
  const parts = baseOf(key).split(':');
  const type = Number(parts[1]);
  switch (parts[0]) {
    case 'acc':
      return parts.length === 3 ? { kind: 'acc', type, date: parts[2] } : null;
    case 'cin':
      return parts.length === 3 ? { kind: 'cin', type, into: Number(parts[2]) } : null;
    case 'exp':
      return parts.length === 4 ? { kind: 'exp', type, window: Number(parts[2]), date: parts[3] } : null;
    default:
      return null;
  }
}

/** Where a period's balance is counted: from its start to the day before the next period starts (open when none follows). */
export interface Window {
  period: Period;
  start: string;
  /** Inclusive; null when no later period exists. */
  end: string | null;
  previous: Period | null;
}

export function windowsOf(periods: Period[]): Window[] {
  const sorted = [...periods].sort((a, b) => (a.start < b.start ? -1 : 1));
  return sorted.map((p, i) => ({
    period: p,
    start: p.start,
    end: i + 1 < sorted.length ? plusDays(sorted[i + 1].start, -1) : null,
    previous: i > 0 ? sorted[i - 1] : null,
  }));
}

/** The window containing `day`: the latest period started on or before it. */
export function windowOn(windows: Window[], day: string): Window | null {
  let found: Window | null = null;
  for (const w of windows) if (w.start <= day) found = w;
  return found;
}

const inWindow = (w: Window, day: string) => day >= w.start && (w.end === null || day <= w.end);

/** How specific an assignment is for the employee (-1: it does not apply): employee, department (nearer first), pay grade, employment status, everyone. */
function rank(a: AssignmentRule, e: EmployeeFacts): number {
  if (a.employeeId !== null) return a.employeeId === e.id ? 1000 : -1;
  if (a.departmentId !== null) {
    const depth = e.departments.indexOf(a.departmentId);
    return depth < 0 ? -1 : 500 - depth;
  }
  if (a.payGradeId !== null) return a.payGradeId === e.payGradeId ? 200 : -1;
  if (a.employmentStatusId !== null) return a.employmentStatusId === e.employmentStatusId ? 100 : -1;
  return 0;
}

/** A policy row's fields (days in days), as the entity and the engine's callers hold them. */
export interface PolicyFields {
  leaveTypeId: number;
  accrual: Accrual;
  amount: number;
  prorateJoiners: boolean;
  waitingDays: number;
  maxBalance: number | null;
  carryOverMax: number | null;
  carryOverExpiryMonths: number | null;
  allowNegative: boolean;
  encashable: boolean;
  encashmentMax: number | null;
}

/** A policy row as the engine counts it: days in hundredths. */
export function toRule(p: PolicyFields & { id: number }): PolicyRule {
  const h = (v: number | null) => (v === null ? null : toH(v));
  return {
    id: p.id,
    leaveTypeId: p.leaveTypeId,
    accrual: p.accrual,
    amount: toH(p.amount),
    prorateJoiners: p.prorateJoiners,
    waitingDays: p.waitingDays,
    maxBalance: h(p.maxBalance),
    carryOverMax: h(p.carryOverMax),
    carryOverExpiryMonths: p.carryOverExpiryMonths,
    allowNegative: p.allowNegative,
    encashable: p.encashable,
    encashmentMax: h(p.encashmentMax),
  };
}

/**
 * `days` of the leave type granted whole once per leave period, nothing carried over, negative as
 * the type allows: what a type's default days and an entitlement meant before the ledger.
 */
export function fixedPerPeriod(type: { id: number; allowNegative: boolean }, days: number): PolicyFields {
  return {
    leaveTypeId: type.id,
    accrual: 'fixed_per_period',
    amount: days,
    prorateJoiners: false,
    waitingDays: 0,
    maxBalance: null,
    carryOverMax: 0,
    carryOverExpiryMonths: null,
    allowNegative: type.allowNegative,
    encashable: false,
    encashmentMax: null,
  };
}

/** The id of a leave type's fallback policy (its default days), which has no row. */
export const FALLBACK_POLICY = 0;

/** A leave type's default days as a policy: it applies where no assignment does. */
export function fallbackPolicy(type: { id: number; defaultDays: number; allowNegative: boolean }): PolicyRule {
  return toRule({ id: FALLBACK_POLICY, ...fixedPerPeriod(type, type.defaultDays) });
}

/**
 * Resolves the employee's policy per leave type and day: the most specific assignment in force,
 * then the latest valid_from, then the latest id; else the type's fallback policy.
 */
export class PolicyResolver {
  /** Per stretch of the employee's dated facts (one when it has none), the assignments that apply by type, best first. */
  private readonly stretches: Array<{
    from: string;
    byType: Map<number, Array<{ a: AssignmentRule; policy: PolicyRule; rank: number }>>;
  }>;
  private readonly fallbacks: Map<number, PolicyRule>;

  constructor(
    readonly employee: EmployeeFacts,
    assignments: AssignmentRule[],
    policies: Map<number, PolicyRule>,
    fallbacks: PolicyRule[] = [],
  ) {
    this.fallbacks = new Map(fallbacks.map((f) => [f.leaveTypeId, f]));
    const days = employee.dated?.length ? employee.dated.map((d) => d.from) : [''];
    this.stretches = days.map((from) => {
      const facts = from ? factsOn(employee, from) : employee;
      const byType = new Map<number, Array<{ a: AssignmentRule; policy: PolicyRule; rank: number }>>();
      for (const a of assignments) {
        const policy = policies.get(a.policyId);
        const r = policy ? rank(a, facts) : -1;
        if (!policy || r < 0) continue;
        const list = byType.get(policy.leaveTypeId) ?? [];
        list.push({ a, policy, rank: r });
        byType.set(policy.leaveTypeId, list);
      }
      for (const list of byType.values())
        list.sort(
          (x, y) => y.rank - x.rank || (x.a.validFrom < y.a.validFrom ? 1 : x.a.validFrom > y.a.validFrom ? -1 : y.a.id - x.a.id),
        );
      return { from, byType };
    });
  }

  /** The policy of `type` on `day`: the best assignment valid that day for the employee's facts of that day. */
  on(type: number, day: string): PolicyRule | null {
    let stretch = this.stretches[0];
    for (const s of this.stretches) {
      if (s.from > day) break;
      stretch = s;
    }
    for (const { a, policy } of stretch.byType.get(type) ?? [])
      if (a.validFrom <= day && (a.validTo === null || day <= a.validTo)) return policy;
    return this.fallbacks.get(type) ?? null;
  }

  /** The policies that may be in force at some day of [from, to]. */
  within(type: number, from: string, to: string): PolicyRule[] {
    const seen = new Map<number, PolicyRule>();
    this.stretches.forEach((s, i) => {
      const next = this.stretches[i + 1]?.from;
      if (i > 0 && s.from > to) return;
      if (next !== undefined && next <= from) return;
      for (const { a, policy } of s.byType.get(type) ?? [])
        if (a.validFrom <= to && (a.validTo === null || a.validTo >= from)) seen.set(policy.id, policy);
    });
    const fallback = this.fallbacks.get(type);
    if (fallback) seen.set(fallback.id, fallback);
    return [...seen.values()];
  }
}

interface Slot {
  /** The days the grant is for. */
  from: string;
  to: string;
  /** When it is granted, before moving to the joiner's first eligible day. */
  nominal: string;
}

function monthSlots(from: string, to: string): Slot[] {
  const out: Slot[] = [];
  for (let m = `${from.slice(0, 7)}-01`; m <= to; m = plusMonths(m, 1)) {
    const a = maxDay(m, from);
    const b = minDay(monthEnd(m), to);
    out.push({ from: a, to: b, nominal: b });
  }
  return out;
}

function stepSlots(from: string, to: string, days: number): Slot[] {
  const out: Slot[] = [];
  for (let a = from; a <= to; a = plusDays(a, days)) {
    const b = minDay(plusDays(a, days - 1), to);
    out.push({ from: a, to: b, nominal: b });
  }
  return out;
}

function semiMonthSlots(from: string, to: string): Slot[] {
  const out: Slot[] = [];
  for (const m of monthSlots(from, to)) {
    const mid = `${m.from.slice(0, 7)}-15`;
    if (m.from <= mid && mid < m.to)
      out.push({ from: m.from, to: mid, nominal: mid }, { from: plusDays(mid, 1), to: m.to, nominal: m.to });
    else out.push(m);
  }
  return out;
}

/** The grant slots of a policy over a period. */
export function slotsOf(policy: PolicyRule, period: Period, e: EmployeeFacts): Slot[] {
  const { start: s, end: t } = period;
  switch (policy.accrual) {
    case 'none':
      return [];
    case 'fixed_per_period':
      return [{ from: s, to: t, nominal: s }];
    case 'monthly':
      return monthSlots(s, t);
    case 'yearly': {
      const out: Slot[] = [];
      for (let y = Number(s.slice(0, 4)); `${y}-01-01` <= t; y++)
        if (`${y}-01-01` >= s) out.push({ from: `${y}-01-01`, to: `${y}-12-31`, nominal: `${y}-01-01` });
      return out;
    }
    case 'anniversary': {
      const out: Slot[] = [];
      for (let y = Number(s.slice(0, 4)); y <= Number(t.slice(0, 4)); y++) {
        const years = y - Number(e.joined.slice(0, 4));
        if (years < 1) continue;
        const day = plusMonths(e.joined, 12 * years);
        if (day >= s && day <= t) out.push({ from: plusDays(plusMonths(e.joined, 12 * (years - 1)), 1), to: day, nominal: day });
      }
      return out;
    }
    case 'per_pay_period':
      switch (e.payFrequency ?? 'Monthly') {
        case 'Weekly':
          return stepSlots(s, t, 7);
        case 'Bi Weekly':
          return stepSlots(s, t, 14);
        case 'Semi Monthly':
          return semiMonthSlots(s, t);
        case 'Yearly':
          return [{ from: s, to: t, nominal: t }];
        default:
          return monthSlots(s, t);
      }
  }
}

/**
 * A slot's grant for the employee: none before its first eligible day (joined + waiting days) or
 * after it left; granted on the nominal day or the first eligible day, whichever is later (the
 * leaving day at the latest); a joiner's first grant prorated by the days of the slot it was
 * eligible for, when the policy says so.
 */
export function grantOf(policy: PolicyRule, slot: Slot, e: EmployeeFacts): { date: string; days: number } | null {
  const eligible = plusDays(e.joined, policy.waitingDays);
  if (eligible > slot.to) return null;
  if (e.termination !== null && e.termination < slot.from) return null;
  let date = maxDay(slot.nominal, eligible);
  if (e.termination !== null && date > e.termination) date = e.termination;
  const days =
    policy.prorateJoiners && eligible > slot.from
      ? Math.round((policy.amount * daysInclusive(eligible, slot.to)) / daysInclusive(slot.from, slot.to))
      : policy.amount;
  return days ? { date, days } : null;
}

const CONSUMING: ReadonlySet<LedgerKind> = new Set(['taken', 'reversal', 'encashment']);

/**
 * What the policies owe one employee for one leave type over consecutive windows: accruals per
 * slot (capped so the balance stays within max_balance on the grant's day), the carry-over from
 * each window into the next (at most carry_over_max of a positive balance, a negative one whole;
 * nothing at all when carry_over_max is 0)
 * and the expiry, carry_over_expiry_months after a window starts, of what was carried into it and
 * not used by then (taken days use carried days first). `entries` are the written entries of the
 * windows; the carry-over into the first window is taken as written.
 */
export function owedEntries(type: number, resolver: PolicyResolver, windows: Window[], entries: Entry[]): Owed[] {
  const owed: Owed[] = [];
  let carryIn: number | null = null;
  for (const w of windows) {
    const own = entries.filter((x) => inWindow(w, x.date));
    const base = own.filter((x) => !isDerived(x.key));
    const incoming = w.previous ? carryBase(type, w.period.id) : null;
    let carried: number;
    if (carryIn === null) {
      const written = own.filter((x) => x.key !== null && incoming !== null && baseOf(x.key) === incoming);
      carried = written.reduce((s, x) => s + x.days, 0);
      base.push(...written);
    } else {
      carried = carryIn;
      if (carried)
        owed.push({
          base: incoming as string,
          date: w.start,
          kind: 'carry_over',
          days: carried,
          policyId: resolver.on(type, w.start)?.id ?? null,
        });
    }
    const events: Array<{ date: string; days: number }> = base.map((x) => ({ date: x.date, days: x.days }));
    if (carryIn !== null && carried) events.push({ date: w.start, days: carried });

    // Expiry of what was carried in, by the policy in force on the window's first day.
    const first = resolver.on(type, w.start);
    if (carried > 0 && first?.carryOverExpiryMonths) {
      const day = plusMonths(w.start, first.carryOverExpiryMonths);
      if (w.end === null || day <= w.end) {
        const used = -base.filter((x) => CONSUMING.has(x.kind) && x.date < day).reduce((s, x) => s + x.days, 0);
        const expired = Math.max(0, carried - Math.max(0, used));
        if (expired) {
          owed.push({ base: expiryBase(type, w.period.id, day), date: day, kind: 'expiry', days: -expired, policyId: first.id });
          events.push({ date: day, days: -expired });
        }
      }
    }

    // Accruals, in date order, each capped by the balance on its day.
    const grants: Array<{ date: string; days: number; policy: PolicyRule }> = [];
    const periodEnd = w.period.end;
    for (const policy of resolver.within(type, w.start, periodEnd)) {
      for (const slot of slotsOf(policy, w.period, resolver.employee)) {
        const g = grantOf(policy, slot, resolver.employee);
        if (g && resolver.on(type, g.date)?.id === policy.id) grants.push({ ...g, policy });
      }
    }
    const byDay = (a: { date: string }, b: { date: string }) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0);
    grants.sort(byDay);
    events.sort(byDay);
    // The balance on a grant's day: the other entries up to it (a running sum, one pass) and the grants before it.
    let next = 0;
    let before = 0;
    let granted = 0;
    const byDate = new Map<string, Owed>();
    for (const g of grants) {
      let days = g.days;
      if (g.policy.maxBalance !== null) {
        for (; next < events.length && events[next].date <= g.date; next++) before += events[next].days;
        days = Math.max(0, Math.min(days, g.policy.maxBalance - (before + granted)));
      }
      if (!days) continue;
      granted += days;
      const key = accrualBase(type, g.date);
      const same = byDate.get(key);
      if (same) same.days += days;
      else {
        const o: Owed = { base: key, date: g.date, kind: 'accrual', days, policyId: g.policy.id };
        byDate.set(key, o);
        owed.push(o);
      }
    }

    // The carry-over into the next window, by the policy in force on the period's last day.
    const balance = events.reduce((s, x) => s + x.days, granted);
    const last = resolver.on(type, periodEnd);
    carryIn =
      !last || last.carryOverMax === 0
        ? 0
        : balance <= 0 || last.carryOverMax === null
          ? balance
          : Math.min(balance, last.carryOverMax);
  }
  return owed;
}

/** A new entry that brings the written entries of a key base to what is owed. */
export interface Correction extends Owed {
  key: string;
}

/**
 * The entries to write so the ledger holds what is owed: for each key base in scope, owed minus
 * written, as a new entry `base#n` (n = the entries already written under it). Bases written but
 * no longer owed are brought to zero, on the day of their first entry. Only those dated on or
 * before `until`.
 */
export function corrections(owed: Owed[], written: Entry[], inScope: (key: DerivedKey) => boolean, until: string): Correction[] {
  const byBase = new Map<string, Entry[]>();
  for (const x of written) {
    const derived = derivedKeyOf(x.key);
    if (!derived || !inScope(derived)) continue;
    const b = baseOf(x.key as string);
    byBase.set(b, [...(byBase.get(b) ?? []), x]);
  }
  const out: Correction[] = [];
  const seen = new Set<string>();
  for (const o of owed) {
    seen.add(o.base);
    const have = byBase.get(o.base) ?? [];
    const diff = o.days - have.reduce((s, x) => s + x.days, 0);
    if (diff && o.date <= until) out.push({ ...o, days: diff, key: `${o.base}#${have.length}` });
  }
  for (const [b, have] of byBase) {
    if (seen.has(b)) continue;
    const sum = have.reduce((s, x) => s + x.days, 0);
    if (sum && have[0].date <= until)
      out.push({ base: b, date: have[0].date, kind: have[0].kind, days: -sum, policyId: null, key: `${b}#${have.length}` });
  }
  return out;
}
