import Decimal from 'decimal.js';
import { amountText } from './payroll-columns';

describe('amountText', () => {
  const reference = (v: string) => {
    const d = new Decimal(v);
    return d.decimalPlaces() > 2 ? d.toString() : d.toFixed(2);
  };

  it('gives what decimal.js gives for the plain decimals databases return, and for anything else', () => {
    const values = ['0', '0.000', '5', '5.1', '5.10', '5.100', '5.123', '5.1230', '-3', '-3.5', '-0.005', '1234567890.12', '0.5'];
    for (let i = 0; i < 2000; i++) {
      const cents = Math.floor(Math.random() * 2e9) - 1e9;
      const places = Math.floor(Math.random() * 5);
      values.push((cents / 10 ** places).toFixed(places));
    }
    values.push('-0', '-0.00', '1e3', '.5', '007', '5.', '+5');
    for (const v of values) expect([v, amountText(v)]).toEqual([v, reference(v)]);
  });
});
