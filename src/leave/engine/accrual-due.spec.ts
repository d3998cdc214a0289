import { fallbackPolicy, PolicyRule, windowsOf } from './accrual-engine';
import { employeesDue, policiesDue } from './accrual-due';

/** A rule of the given accrual (a leave type's fallback policy, changed where the test says). */
const rule = (over: Partial<PolicyRule> & Pick<PolicyRule, 'accrual'>): PolicyRule => ({
  ...fallbackPolicy({ id: 1, defaultDays: 1, allowNegative: false }),
  carryOverMax: null,
  ...over,
});
const windows = windowsOf([
  { id: 1, start: '2025-01-01', end: '2025-12-31' },
  { id: 2, start: '2026-01-01', end: '2026-12-31' },
]);

describe('policiesDue: a day the policies date entries of everyone on', () => {
  it('a month end under a monthly policy, not the days before', () => {
    const monthly = [rule({ accrual: 'monthly' })];
    expect(policiesDue(monthly, windows, '2026-02-26', '2026-02-27')).toBe(false);
    expect(policiesDue(monthly, windows, '2026-02-27', '2026-02-28')).toBe(true);
    // A job that missed days covers them: (after, upTo].
    expect(policiesDue(monthly, windows, '2026-02-20', '2026-03-02')).toBe(true);
  });

  it("a period's first day (the carry-over), an expiry, every pay period's end at any frequency, Jan 1 of a yearly policy", () => {
    expect(policiesDue([rule({ accrual: 'none' })], windows, '2025-12-31', '2026-01-01')).toBe(true);
    expect(policiesDue([rule({ accrual: 'none', carryOverExpiryMonths: 3 })], windows, '2026-03-31', '2026-04-01')).toBe(true);
    expect(policiesDue([rule({ accrual: 'none', carryOverExpiryMonths: 3 })], windows, '2026-04-01', '2026-04-02')).toBe(false);
    // Weekly slots from the period's first day: the 7th is the first one's last day.
    expect(policiesDue([rule({ accrual: 'per_pay_period' })], windows, '2026-01-06', '2026-01-07')).toBe(true);
    expect(policiesDue([rule({ accrual: 'per_pay_period' })], windows, '2026-01-15', '2026-01-16')).toBe(false);
    expect(policiesDue([rule({ accrual: 'yearly' })], windows, '2026-06-01', '2026-06-02')).toBe(false);
  });

  it('not an anniversary policy (its days are the employees’ own)', () => {
    expect(policiesDue([rule({ accrual: 'anniversary' })], windows, '2026-06-01', '2026-06-02')).toBe(false);
  });
});

describe('employeesDue: the employees with a day of their own', () => {
  const people = [
    { id: 1, joined: '2026-05-20', termination: null },
    { id: 2, joined: '2020-06-02', termination: null },
    { id: 3, joined: '2019-01-01', termination: '2026-06-02' },
    { id: 4, joined: '2020-02-29', termination: null },
    { id: 5, joined: '2018-03-01', termination: null },
  ];
  it('the first eligible day (joined + waiting days), an anniversary, the leaving day', () => {
    const policies = [rule({ accrual: 'monthly', waitingDays: 13 }), rule({ accrual: 'anniversary' })];
    expect(employeesDue(people, policies, '2026-06-01', '2026-06-02')).toEqual([1, 2, 3]);
    expect(employeesDue(people, [rule({ accrual: 'monthly' })], '2026-06-01', '2026-06-02')).toEqual([3]);
  });

  it('a 29 February joiner has its anniversary on the 28th in a common year', () => {
    expect(employeesDue(people, [rule({ accrual: 'anniversary' })], '2026-02-27', '2026-02-28')).toEqual([4]);
    expect(employeesDue(people, [rule({ accrual: 'anniversary' })], '2026-02-28', '2026-03-01')).toEqual([5]);
  });
});
