import Decimal from 'decimal.js';
import fc from 'fast-check';
import { toFixedText } from './money';

describe('toFixedText', () => {
  const reference = (v: string, digits: number) => new Decimal(v).toFixed(digits, Decimal.ROUND_HALF_UP);

  it('formats as decimal.js toFixed(digits, ROUND_HALF_UP) does', () => {
    for (const [v, digits, expected] of [
      ['5799.990', 2, '5799.99'],
      ['5799.995', 2, '5800.00'],
      ['-5.500', 0, '-6'],
      ['-5.500', 2, '-5.50'],
      ['-0.000', 2, '0.00'],
      ['-0.001', 2, '-0.00'],
      ['12', 3, '12.000'],
      ['12.', 2, '12.00'],
      ['0.5', 0, '1'],
      ['1e-7', 2, '0.00'],
      ['007.5', 2, '7.50'],
    ] as const) {
      expect([v, digits, toFixedText(v, digits)]).toEqual([v, digits, expected]);
      expect(toFixedText(v, digits)).toBe(reference(v, digits));
    }
  });

  it('agrees with decimal.js on generated values, stored scale or not', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 14n }), fc.integer({ min: 0, max: 6 }))
      .map(([negative, units, scale]) => {
        const text = units.toString().padStart(scale + 1, '0');
        const int = text.slice(0, text.length - scale);
        return `${negative ? '-' : ''}${int}${scale ? `.${text.slice(-scale)}` : ''}`;
      });
    fc.assert(
      fc.property(decimal, fc.integer({ min: 0, max: 4 }), (v, digits) => toFixedText(v, digits) === reference(v, digits)),
      { numRuns: 20_000 },
    );
  });
});
