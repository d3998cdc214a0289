import { fallbackPolicy, PolicyRule, slotsOf, Window, windowsOf } from './accrual-engine';
import { plusDays, plusMonths } from './calendar';

/** Pay frequencies a per-pay-period policy slices a period by (null: Monthly). */
const FREQUENCIES = ['Weekly', 'Bi Weekly', 'Semi Monthly', 'Yearly', null] as const;

/** An employee as far as the days its entries fall on depend on it. */
export interface DueFacts {
  id: number;
  joined: string;
  termination: string | null;
}

/**
 * What the due checks read (the daily job's and the liability's): the leave periods' windows, the
 * leave types, and every policy with each type's fallback.
 */
export async function dueRules<T extends { id: number; defaultDays: number; allowNegative: boolean }>(sources: {
  periods(): Promise<Parameters<typeof windowsOf>[0]>;
  leaveTypes(): Promise<T[]>;
  allPolicies(): Promise<PolicyRule[]>;
}): Promise<{ windows: Window[]; types: T[]; rules: PolicyRule[] }> {
  const [periods, types, policies] = await Promise.all([sources.periods(), sources.leaveTypes(), sources.allPolicies()]);
  return { windows: windowsOf(periods), types, rules: [...policies, ...types.map(fallbackPolicy)] };
}

/** Whether `day` lies in (after, upTo]. */
const within = (day: string, after: string, upTo: string) => day > after && day <= upTo;

/**
 * Whether the policies date an entry of every employee they apply to on a day in (after, upTo]:
 * the grant days of slots that do not depend on the employee (a month's end, a period's first day,
 * a pay period's last day at any frequency), the carry-over into a window (its first day) and the
 * expiry of what was carried in. On such a day the daily job reads every employee. Anniversaries,
 * first eligible days and leaving days depend on the employee: employeesDue.
 */
export function policiesDue(policies: PolicyRule[], windows: Window[], after: string, upTo: string): boolean {
  const touched = windows.filter((w) => w.start <= upTo && (w.end === null || w.end > after));
  for (const w of touched) {
    if (within(w.start, after, upTo)) return true;
    for (const p of policies) {
      if (p.carryOverExpiryMonths && within(plusMonths(w.start, p.carryOverExpiryMonths), after, upTo)) return true;
      if (p.accrual === 'anniversary' || p.accrual === 'none') continue;
      for (const payFrequency of p.accrual === 'per_pay_period' ? FREQUENCIES : [null]) {
        // An employee who joined long before and stays: the slots' own days.
        const anyone = {
          id: 0,
          joined: '0001-01-01',
          termination: null,
          departments: [],
          employmentStatusId: null,
          payGradeId: null,
          payFrequency,
        };
        if (slotsOf(p, w.period, anyone).some((s) => within(s.nominal, after, upTo))) return true;
      }
    }
  }
  return false;
}

/**
 * The employees an entry may fall due for on a day in (after, upTo] for a reason of their own:
 * their first eligible day under a policy (joined + its waiting days: the first grant, prorated or
 * moved there), an anniversary under an anniversary policy, their leaving day (a grant moved back to it).
 */
export function employeesDue(employees: DueFacts[], policies: PolicyRule[], after: string, upTo: string): number[] {
  const waits = [...new Set([0, ...policies.map((p) => p.waitingDays)])];
  const anniversaries = policies.some((p) => p.accrual === 'anniversary');
  const firstYear = Number(after.slice(0, 4));
  const lastYear = Number(upTo.slice(0, 4));
  const out: number[] = [];
  for (const e of employees) {
    let due = e.termination !== null && within(e.termination, after, upTo);
    for (let i = 0; !due && i < waits.length; i++) due = within(plusDays(e.joined, waits[i]), after, upTo);
    if (!due && anniversaries) {
      const joinedYear = Number(e.joined.slice(0, 4));
      for (let y = Math.max(firstYear, joinedYear + 1); !due && y <= lastYear; y++)
        due = within(plusMonths(e.joined, 12 * (y - joinedYear)), after, upTo);
    }
    if (due) out.push(e.id);
  }
  return out;
}
