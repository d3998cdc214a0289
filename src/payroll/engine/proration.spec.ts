import fc from 'fast-check';
import Decimal from 'decimal.js';
import { addDays, daysBetween } from '../../common/time/days';
import { calendarDays as calendarDayCount, DayCount, prorate, PRORATION_RULES, ProrationRule, SalarySpan } from './proration';
import { calendarDays as daysOf, workingTime } from '../../calendars/working-days';

/** Working days by the calendars' one rule (calendars/working-days.ts): `workWeek` ISO weekdays, whole-day holidays. */
const workingDayCount =
  (workWeek: ReadonlySet<number>, holidays: ReadonlySet<string>): DayCount =>
  (from, to) =>
    workingTime(
      daysOf({ id: 1, workWeek, holidays: new Map([...holidays].map((d) => [d, { name: 'h', fraction: 1 }])) }, from, to),
      from,
      to,
    );

const MON_FRI = new Set([1, 2, 3, 4, 5]);

/** Cents, half-up, of a decimal string: the engine's rounding of a cell. */
const cents = (amount: string | undefined) =>
  amount === undefined ? undefined : BigInt(new Decimal(amount).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).times(100).toFixed(0));

/** a ÷ b half-up in whole units, both non-negative BigInts. */
const divHalfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

/**
 * The independent model: day by day over the period, the amount in force on each counted day
 * (employed, and a working day under working_days) summed in cents, divided by the counted days
 * of the period; `none` takes the last employed day's amount.
 */
function model(
  spans: SalarySpan[],
  period: { from: string; to: string },
  employed: { from: string | null; to: string | null },
  rule: ProrationRule,
  holidays: Set<string>,
  component: number,
): bigint | undefined {
  const days = Array.from({ length: daysBetween(period.from, period.to) + 1 }, (_, i) => addDays(period.from, i));
  const working = (d: string) => MON_FRI.has(new Date(`${d}T00:00:00Z`).getUTCDay()) && !holidays.has(d);
  const byWorking = rule === 'working_days' && days.some(working);
  const counted = days.filter((d) => !byWorking || working(d));
  const inForce = (d: string) => {
    if ((employed.from && d < employed.from) || (employed.to && d > employed.to)) return null;
    return spans.find((s) => s.from <= d && (s.to === null || s.to >= d)) ?? null;
  };
  const employedDays = days.filter((d) => inForce(d));
  if (!employedDays.length) return undefined;
  const present = spans.some(
    (s) => employedDays.some((d) => inForce(d) === s) && s.salary.some((l) => l.component === component),
  );
  if (!present) return undefined;
  const amountOn = (d: string) => {
    const line = inForce(d)?.salary.find((l) => l.component === component);
    return line ? BigInt(new Decimal(line.amount).times(100).toFixed(0)) : 0n;
  };
  if (rule === 'none') return amountOn(employedDays[employedDays.length - 1]);
  const sum = counted.reduce((total, d) => total + amountOn(d), 0n);
  return divHalfUp(sum, BigInt(counted.length));
}

const day = (offset: number) => addDays('2026-01-01', offset);

/** Consecutive spans from a start, each with a salary of components 1 and 2 (either may be missing). */
const spansArb: fc.Arbitrary<SalarySpan[]> = fc
  .tuple(
    fc.integer({ min: 0, max: 60 }),
    fc.array(
      fc.record({
        length: fc.integer({ min: 1, max: 40 }),
        basic: fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: undefined }),
        bonus: fc.option(fc.integer({ min: 1, max: 99_999 }), { nil: undefined }),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    fc.boolean(),
  )
  .map(([start, parts, open]) => {
    let from = start;
    return parts.map((p, i) => {
      const to = from + p.length - 1;
      const span: SalarySpan = {
        from: day(from),
        to: open && i === parts.length - 1 ? null : day(to),
        salary: [
          ...(p.basic === undefined ? [] : [{ component: 1, amount: (p.basic / 100).toFixed(2) }]),
          ...(p.bonus === undefined ? [] : [{ component: 2, amount: (p.bonus / 100).toFixed(2) }]),
        ],
        change: i + 1,
      };
      from = to + 1;
      return span;
    });
  });

describe('proration (issue 44)', () => {
  it('property: each component equals the day-weighted sum of an independent model, to the cent, for each rule', () => {
    fc.assert(
      fc.property(
        spansArb,
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 0, max: 45 }),
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
        fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
        fc.uniqueArray(fc.integer({ min: 0, max: 200 }), { maxLength: 10 }),
        fc.constantFrom(...PRORATION_RULES),
        (spans, start, length, joined, left, holidayOffsets, rule) => {
          const period = { from: day(start), to: day(start + length) };
          const employed = { from: joined === null ? null : day(joined), to: left === null ? null : day(left) };
          const holidays = new Set(holidayOffsets.map(day));
          const out = prorate(spans, period, employed, rule, workingDayCount(MON_FRI, holidays));
          for (const component of [1, 2]) {
            const expected = model(spans, period, employed, rule, holidays, component);
            expect({ component, got: cents(out?.salary[String(component)]) }).toEqual({ component, got: expected });
          }
        },
      ),
      { numRuns: 3000, seed: 20261128 },
    );
  });

  it('a mid-month raise on the 22nd of a 30-day month: 21 days at the old rate, 9 at the new', () => {
    const out = prorate(
      [
        { from: '2026-01-01', to: '2026-06-21', salary: [{ component: 1, amount: '3000.00' }], change: 1 },
        { from: '2026-06-22', to: null, salary: [{ component: 1, amount: '3600.00' }], change: 2 },
      ],
      { from: '2026-06-01', to: '2026-06-30' },
      { from: '2020-01-01', to: null },
      'calendar_days',
      calendarDayCount,
    );
    // 3000 × 21 / 30 + 3600 × 9 / 30 = 2100 + 1080
    expect(out?.salary).toEqual({ '1': '3180' });
    expect(out?.changes).toEqual([1, 2]);
    expect(out?.proration).toEqual({
      rule: 'calendar_days',
      period_days: 30,
      segments: [
        { from: '2026-06-01', to: '2026-06-21', days: 21, salary: { '1': '3000.00' }, change: 1 },
        { from: '2026-06-22', to: '2026-06-30', days: 9, salary: { '1': '3600.00' }, change: 2 },
      ],
    });
  });

  it('a joiner on the 10th and a leaver on the 18th by working days; the whole period under one salary is no proration', () => {
    const spans: SalarySpan[] = [{ from: '2026-06-10', to: null, salary: [{ component: 1, amount: '2200.00' }], change: 7 }];
    const june = { from: '2026-06-01', to: '2026-06-30' };
    const count = workingDayCount(MON_FRI, new Set(['2026-06-15']));
    // June 2026: 22 weekdays, one a holiday → 21; from the 10th: 15 weekdays, one the holiday → 14.
    expect(prorate(spans, june, { from: '2026-06-10', to: null }, 'working_days', count)?.salary).toEqual({
      '1': new Decimal(2200).times(14).div(21).toDecimalPlaces(12).toString(),
    });
    // Left on the 18th (from the 1st): 14 weekdays less the holiday → 13 of 21.
    const leaver: SalarySpan[] = [{ from: '2020-01-01', to: null, salary: [{ component: 1, amount: '2100.00' }], change: 3 }];
    expect(prorate(leaver, june, { from: '2020-01-01', to: '2026-06-18' }, 'working_days', count)?.salary).toEqual({
      '1': '1300',
    });
    expect(prorate(leaver, june, { from: '2020-01-01', to: '2026-06-18' }, 'none', count)?.salary).toEqual({ '1': '2100.00' });
    expect(prorate(leaver, june, { from: '2020-01-01', to: null }, 'calendar_days', count)).toEqual({
      salary: { '1': '2100.00' },
      proration: null,
      changes: [3],
    });
    expect(prorate(leaver, june, { from: '2026-07-01', to: null }, 'calendar_days', count)).toBeNull();
  });
});
