import { daysInclusive, monthEnd, plusDays, plusMonths } from './calendar';

/** The same arithmetic spelled plainly with Date, as the remembered versions must answer it. */
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);
const plain = {
  plusDays: (day: string, n: number) => iso(ms(day) + n * 86_400_000),
  daysInclusive: (a: string, b: string) => Math.round((ms(b) - ms(a)) / 86_400_000) + 1,
  monthEnd: (day: string) => iso(Date.UTC(new Date(ms(day)).getUTCFullYear(), new Date(ms(day)).getUTCMonth() + 1, 0)),
  plusMonths: (day: string, n: number) => {
    const d = new Date(ms(day));
    const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n + 1, 0)).getUTCDate();
    return iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, Math.min(d.getUTCDate(), last)));
  },
};

describe('leave calendar arithmetic', () => {
  it('answers as plain Date arithmetic on every day from 1999 to 2041, leap years and month ends included', () => {
    const wrong: string[] = [];
    const check = (what: string, got: unknown, want: unknown) =>
      got !== want && wrong.push(`${what}: ${String(got)} ≠ ${String(want)}`);
    for (let t = ms('1999-01-01'); t <= ms('2041-12-31'); t += 86_400_000) {
      const day = iso(t);
      for (const n of [-400, -31, -1, 0, 1, 28, 365]) check(`${day} + ${n} days`, plusDays(day, n), plain.plusDays(day, n));
      for (const n of [-13, -1, 1, 3, 12, 120]) check(`${day} + ${n} months`, plusMonths(day, n), plain.plusMonths(day, n));
      check(`month end of ${day}`, monthEnd(day), plain.monthEnd(day));
      check(`${day} to 2020-02-29`, daysInclusive(day, '2020-02-29'), plain.daysInclusive(day, '2020-02-29'));
    }
    expect(wrong).toEqual([]);
    expect(plusMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(plusMonths('2023-01-31', 1)).toBe('2023-02-28');
    expect(monthEnd('2100-02-10')).toBe('2100-02-28');
    expect(daysInclusive('2026-03-01', '2026-03-01')).toBe(1);
  });
});
