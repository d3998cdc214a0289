import Decimal from 'decimal.js';

/**
 * The range of payroll's exact decimals: every number of a script, literal or intermediate, is
 * below 10^40 in magnitude (a larger one is "out of range"), and one below 10^-40 counts as 0. With
 * 40 significant digits, this bounds the cost of every operation: `%` divides exactly, and unbounded
 * operands made `1e4000000 % 7` take 19 s.
 */
export const MAX_EXPONENT_OF_VALUES = 39;
export const MIN_EXPONENT_OF_VALUES = -40;

/**
 * Exact decimals for payroll scripts and the payroll inputs modules load (hours, days): 40
 * significant digits, half-up rounding, the range above.
 */
export const Dec = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_UP,
  toExpNeg: -40,
  toExpPos: 40,
  maxE: MAX_EXPONENT_OF_VALUES,
  minE: MIN_EXPONENT_OF_VALUES,
});
export type Dec = Decimal;
