import { periodRange } from './insights.service';

describe('insights periods', () => {
  const at = (day: string) => day; // the company's day
  it('end today and start the day after the same date N months earlier', () => {
    expect(periodRange('6months', at('2026-11-23'))).toEqual({ from: '2026-05-24', to: '2026-11-23' });
    expect(periodRange('1year', at('2026-11-23'))).toEqual({ from: '2025-11-24', to: '2026-11-23' });
    expect(periodRange('2years', at('2026-11-23'))).toEqual({ from: '2024-11-24', to: '2026-11-23' });
    expect(periodRange('3years', at('2026-01-01'))).toEqual({ from: '2023-01-02', to: '2026-01-01' });
    expect(periodRange('all', at('2026-11-23'))).toEqual({ from: null, to: '2026-11-23' });
  });
  it('clamp to the end of a shorter month', () => {
    expect(periodRange('6months', at('2026-08-31'))).toEqual({ from: '2026-03-01', to: '2026-08-31' });
    expect(periodRange('1year', at('2028-02-29'))).toEqual({ from: '2027-03-01', to: '2028-02-29' });
    expect(periodRange('6months', at('2026-12-31'))).toEqual({ from: '2026-07-01', to: '2026-12-31' });
  });
});
