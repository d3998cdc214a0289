import Decimal from 'decimal.js';
import { minorUnitOf } from '../common/money/currencies';

/**
 * Currency conversion of expense amounts (issue 68, docs/api/expenses.md) as pure functions: a rate
 * is units of the company currency per unit of a currency; an amount in `from` becomes an amount
 * in `to` through the company currency, rounded half up to `to`'s minor unit. Decimal strings in
 * and out, no binary floats.
 */

/** Decimal places a stored cross rate keeps. */
export const RATE_SCALE = 10;

/** The rate that turns an amount in `from` into `to`: from's rate over to's (the company currency's own rate is 1). */
export function crossRate(fromRate: string, toRate: string): string {
  return new Decimal(fromRate).div(toRate).toDecimalPlaces(RATE_SCALE, Decimal.ROUND_HALF_UP).toFixed();
}

/** `amount` × `rate`, half up to the minor unit of `currency` ("12.345" EUR → "12.35"; JPY: no decimals). */
export function convert(amount: string, rate: string, currency: string): string {
  const digits = minorUnitOf(currency);
  return new Decimal(amount).mul(rate).toFixed(digits, Decimal.ROUND_HALF_UP);
}
