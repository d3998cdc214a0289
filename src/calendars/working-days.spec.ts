import { datesOf } from './working-days';

describe('datesOf', () => {
  it('gives every day and ISO weekday from 1970 to 2100 as plain Date arithmetic does (leap years, month and year ends)', () => {
    const days = datesOf('1970-01-01', '2100-12-31');
    const first = Date.parse('1970-01-01T00:00:00Z');
    const wrong = days.filter((d, i) => {
      const t = new Date(first + i * 86_400_000);
      return d.date !== t.toISOString().slice(0, 10) || d.weekday !== ((t.getUTCDay() + 6) % 7) + 1;
    });
    expect(days).toHaveLength(47_847);
    expect(wrong).toEqual([]);
  });

  it('a range inside a month, one day, and none when reversed', () => {
    expect(datesOf('2028-02-28', '2028-03-01').map((d) => `${d.date}/${d.weekday}`)).toEqual([
      '2028-02-28/1',
      '2028-02-29/2',
      '2028-03-01/3',
    ]);
    expect(datesOf('2026-12-03', '2026-12-03')).toEqual([{ date: '2026-12-03', weekday: 4 }]);
    expect(datesOf('2026-12-03', '2026-12-02')).toEqual([]);
  });
});
