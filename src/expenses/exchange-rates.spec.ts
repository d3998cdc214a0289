import { RATE_PATTERN } from './entities/expense.entities';
import { convert, crossRate } from './exchange-rates';

/** Currency conversion as pure functions (docs/api/expenses.md): decimal strings, half up to the minor unit. */
describe('exchange rates', () => {
  it('a cross rate goes through the company currency, kept to 10 decimals', () => {
    expect(crossRate('0.9231', '1')).toBe('0.9231');
    // USD at 0.92 EUR and GBP at 1.16 EUR: a dollar is 0.7931034483 pounds.
    expect(crossRate('0.92', '1.16')).toBe('0.7931034483');
    expect(crossRate('1', '1')).toBe('1');
  });

  it('converts half up to the minor unit of the target currency', () => {
    expect(convert('10.00', '0.9231', 'EUR')).toBe('9.23');
    expect(convert('10.05', '0.5', 'EUR')).toBe('5.03');
    expect(convert('0.01', '0.5', 'EUR')).toBe('0.01');
    expect(convert('100', '161.234', 'JPY')).toBe('16123');
    expect(convert('1.000', '1.0005', 'KWD')).toBe('1.001');
    // No binary float on the way: 1.005 × 1 stays 1.01 (a float gives 1.00).
    expect(convert('1.005', '1', 'EUR')).toBe('1.01');
  });

  it('a rate is a positive decimal of at most 10 decimals', () => {
    for (const ok of ['1', '0.9231', '161.2345678901', '12345678901234']) expect(RATE_PATTERN.test(ok)).toBe(true);
    for (const bad of ['0', '0.000', '-1', '1e3', '1.12345678901', '', ' 1']) expect(RATE_PATTERN.test(bad)).toBe(false);
  });
});
