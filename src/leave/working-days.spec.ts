import { datesBetween, parseWorkWeek, workingDays } from './working-days';

describe('working days', () => {
  const week = parseWorkWeek('Mon,Tue,Wed,Thu,Fri');

  it('maps the work week to weekday numbers', () => {
    expect([...week].sort()).toEqual([1, 2, 3, 4, 5]);
    expect([...parseWorkWeek('Sun,Sat')].sort()).toEqual([0, 6]);
  });

  it('counts Thursday to the following Tuesday over a weekend and one holiday as 3 days', () => {
    // 2026-03-05 is a Thursday; Monday 2026-03-09 is a holiday.
    expect(new Date('2026-03-05T00:00:00Z').getUTCDay()).toBe(4);
    const days = workingDays('2026-03-05', '2026-03-10', week, new Set(['2026-03-09']));
    expect(days).toEqual(['2026-03-05', '2026-03-06', '2026-03-10']);
  });

  it('lists dates across month and year ends and a leap day', () => {
    expect(datesBetween('2028-02-28', '2028-03-01')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
    expect(datesBetween('2026-12-31', '2027-01-01')).toEqual(['2026-12-31', '2027-01-01']);
    expect(datesBetween('2026-01-02', '2026-01-01')).toEqual([]);
  });
});
