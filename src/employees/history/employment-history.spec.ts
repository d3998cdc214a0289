import { addDays } from '../../common/time/days';
import { DATED_FIELDS, DatedField, departmentMoves, RecordedChange, segmentOn, segmentsAt } from './employment-history';

const at = (iso: string) => new Date(iso);
let nextId = 1;
const change = (c: Partial<RecordedChange> & Pick<RecordedChange, 'effectiveDate' | 'recordedAt'>): RecordedChange => ({
  id: nextId++,
  fields: {},
  salary: null,
  cancelledAt: null,
  corrects: null,
  ...c,
});

describe('employment history: segments from recorded changes (issue 43)', () => {
  const hired = change({
    effectiveDate: '2024-01-15',
    recordedAt: at('2024-01-10T09:00:00Z'),
    fields: { department: 1, job_title: 10, supervisor: 100 },
    salary: [{ component: 1, amount: '3000.00' }],
  });

  it('a raise recorded today for next month: a closed segment until the day before, the raise open from its day', () => {
    const raise = change({
      effectiveDate: '2026-12-01',
      recordedAt: at('2026-11-27T10:00:00Z'),
      salary: [{ component: 1, amount: '3300.00' }],
    });
    const segments = segmentsAt([raise, hired]);
    expect(segments.map((s) => [s.effectiveFrom, s.effectiveTo, s.salary[0].amount, s.change])).toEqual([
      ['2024-01-15', '2026-11-30', '3000.00', hired.id],
      ['2026-12-01', null, '3300.00', raise.id],
    ]);
    // The fields a change does not name keep their values.
    expect(segments[1].values).toMatchObject({ department: 1, job_title: 10, supervisor: 100, pay_grade: null });
    expect(segmentOn(segments, '2026-11-30')?.salary[0].amount).toBe('3000.00');
    expect(segmentOn(segments, '2026-12-01')?.salary[0].amount).toBe('3300.00');
    expect(segmentOn(segments, '2024-01-14')).toBeNull();
  });

  it('a transfer back-dated to the 15th splits the segment it falls in; known before its recording, it is not there', () => {
    const promotion = change({ effectiveDate: '2025-03-01', recordedAt: at('2025-02-20T09:00:00Z'), fields: { job_title: 11 } });
    const transfer = change({ effectiveDate: '2025-06-15', recordedAt: at('2025-07-02T09:00:00Z'), fields: { department: 2 } });
    const now = segmentsAt([hired, promotion, transfer]);
    expect(now.map((s) => [s.effectiveFrom, s.effectiveTo, s.values.department, s.values.job_title])).toEqual([
      ['2024-01-15', '2025-02-28', 1, 10],
      ['2025-03-01', '2025-06-14', 1, 11],
      ['2025-06-15', null, 2, 11],
    ]);
    // "What did we believe on 30 June": the transfer was recorded on 2 July.
    const then = segmentsAt([hired, promotion, transfer], at('2025-06-30T12:00:00Z'));
    expect(segmentOn(then, '2025-06-20')?.values.department).toBe(1);
    expect(segmentOn(now, '2025-06-20')?.values.department).toBe(2);
  });

  it('two changes of one day: the later recorded wins field by field; a salary replaces the whole salary', () => {
    const first = change({
      effectiveDate: '2025-01-01',
      recordedAt: at('2025-01-01T09:00:00Z'),
      fields: { department: 3, pay_grade: 5 },
      salary: [
        { component: 1, amount: '3100.00' },
        { component: 2, amount: '200.00' },
      ],
    });
    const second = change({
      effectiveDate: '2025-01-01',
      recordedAt: at('2025-01-01T10:00:00Z'),
      fields: { department: 4 },
      salary: [{ component: 1, amount: '3200.00' }],
    });
    const [, day] = segmentsAt([second, first, hired]);
    expect(day).toMatchObject({ effectiveFrom: '2025-01-01', change: second.id });
    expect(day.values).toMatchObject({ department: 4, pay_grade: 5 });
    expect(day.salary).toEqual([{ component: 1, amount: '3200.00' }]);
  });

  it('a cancelled change counts until its cancellation; a corrected one until its correction was recorded', () => {
    const scheduled = change({
      effectiveDate: '2026-12-01',
      recordedAt: at('2026-11-01T09:00:00Z'),
      fields: { job_title: 12 },
      cancelledAt: at('2026-11-20T09:00:00Z'),
    });
    const wrong = change({ effectiveDate: '2025-05-01', recordedAt: at('2025-05-02T09:00:00Z'), fields: { department: 9 } });
    const right = change({
      effectiveDate: '2025-05-01',
      recordedAt: at('2025-05-10T09:00:00Z'),
      fields: { department: 5 },
      corrects: wrong.id,
    });
    const all = [hired, scheduled, wrong, right];
    expect(segmentOn(segmentsAt(all, at('2026-11-10T00:00:00Z')), '2026-12-02')?.values.job_title).toBe(12);
    expect(segmentOn(segmentsAt(all), '2026-12-02')?.values.job_title).toBe(10);
    expect(segmentOn(segmentsAt(all, at('2025-05-05T00:00:00Z')), '2025-05-03')?.values.department).toBe(9);
    expect(segmentOn(segmentsAt(all), '2025-05-03')?.values.department).toBe(5);
    expect(segmentsAt(all).map((s) => s.change)).toEqual([hired.id, right.id]);
  });

  it('a correction cancelled (it was Scheduled) gives the corrected change back', () => {
    const planned = change({ effectiveDate: '2026-12-01', recordedAt: at('2026-11-01T09:00:00Z'), fields: { pay_grade: 7 } });
    const fix = change({
      effectiveDate: '2026-12-15',
      recordedAt: at('2026-11-05T09:00:00Z'),
      fields: { pay_grade: 8 },
      corrects: planned.id,
      cancelledAt: at('2026-11-06T09:00:00Z'),
    });
    expect(segmentOn(segmentsAt([hired, planned, fix], at('2026-11-05T12:00:00Z')), '2026-12-20')?.values.pay_grade).toBe(8);
    expect(segmentOn(segmentsAt([hired, planned, fix]), '2026-12-20')?.values.pay_grade).toBe(7);
  });

  /**
   * Against a model written the other way round: for each day, each field takes the value of the
   * latest change (by day, recording, id) on or before it that names it, among those that count.
   */
  it('random changes, corrections and cancellations: every day and every known_at as the per-field model says', () => {
    let seed = 20261127;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const day = (n: number) => addDays('2025-01-01', n);
    const instant = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 3_600_000);
    const mismatches: unknown[] = [];
    for (let sequence = 0; sequence < 300; sequence++) {
      const changes: RecordedChange[] = [];
      const hours = new Map<number, number>();
      for (let i = 0; i < 2 + Math.floor(random() * 10); i++) {
        const fields: Partial<Record<DatedField, number | null>> = {};
        for (const f of DATED_FIELDS) if (random() < 0.3) fields[f] = random() < 0.1 ? null : Math.floor(random() * 5);
        const target = changes.length && random() < 0.2 ? pick(changes) : null;
        // A correction is recorded after what it corrects.
        const recorded = (target ? hours.get(target.id)! + 1 : 0) + Math.floor(random() * 100);
        const made = change({
          effectiveDate: day(Math.floor(random() * 30)),
          recordedAt: instant(recorded),
          fields,
          salary: random() < 0.3 ? [{ component: 1, amount: String(Math.floor(random() * 9000)) }] : null,
          cancelledAt: random() < 0.15 ? instant(recorded + 1 + Math.floor(random() * 20)) : null,
          corrects: target?.id ?? null,
        });
        hours.set(made.id, recorded);
        changes.push(made);
      }
      const counts = (c: RecordedChange, t: Date): boolean =>
        c.recordedAt <= t &&
        !(c.cancelledAt && c.cancelledAt <= t) &&
        !changes.some((x) => x.corrects === c.id && x.recordedAt <= t && !(x.cancelledAt && x.cancelledAt <= t));
      const later = (a: RecordedChange, b: RecordedChange) =>
        a.effectiveDate !== b.effectiveDate
          ? a.effectiveDate > b.effectiveDate
          : a.recordedAt.getTime() !== b.recordedAt.getTime()
            ? a.recordedAt > b.recordedAt
            : a.id > b.id;
      for (const t of [instant(10), instant(50), instant(90), instant(200)]) {
        const segments = segmentsAt(changes, t);
        for (let d = -1; d <= 31; d++) {
          const live = changes.filter((c) => counts(c, t) && c.effectiveDate <= day(d));
          const found = segmentOn(segments, day(d));
          const expected = live.length
            ? {
                ...Object.fromEntries(
                  DATED_FIELDS.map((f) => {
                    const winner = live
                      .filter((c) => f in c.fields)
                      .reduce<RecordedChange | null>((w, c) => (!w || later(c, w) ? c : w), null);
                    return [f, winner ? winner.fields[f] : null];
                  }),
                ),
                salary:
                  live.filter((c) => c.salary).reduce<RecordedChange | null>((w, c) => (!w || later(c, w) ? c : w), null)
                    ?.salary ?? [],
              }
            : null;
          const actual = found && { ...found.values, salary: found.salary };
          // One comparison per day (an expect per field made the test take 10 s).
          if (JSON.stringify(actual) !== JSON.stringify(expected))
            mismatches.push({ sequence, knownAt: t, day: day(d), actual, expected });
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  });
});

describe('employment history: the days whose department a rewrite moves (the insights rollups)', () => {
  const joined = change({ effectiveDate: '2024-01-15', recordedAt: at('2024-01-10T00:00:00Z'), fields: { department: 1 } });
  const promoted = change({ effectiveDate: '2024-06-01', recordedAt: at('2024-05-01T00:00:00Z'), fields: { job_title: 7 } });

  it('a back-dated transfer moves the days from its date; a change of another field moves none', () => {
    const before = segmentsAt([joined, promoted]);
    const transfer = change({ effectiveDate: '2024-03-15', recordedAt: at('2024-07-01T00:00:00Z'), fields: { department: 2 } });
    expect(departmentMoves(before, segmentsAt([joined, promoted, transfer]))).toEqual([
      { from: '2024-03-15', to: null, before: 1, after: 2 },
    ]);
    const grade = change({ effectiveDate: '2024-03-15', recordedAt: at('2024-07-01T00:00:00Z'), fields: { pay_grade: 3 } });
    expect(departmentMoves(before, segmentsAt([joined, promoted, grade]))).toEqual([]);
  });

  it('a transfer and a return: only the days between move; a later joined date takes the days before it out', () => {
    const before = segmentsAt([joined]);
    const away = change({ effectiveDate: '2024-03-01', recordedAt: at('2024-07-01T00:00:00Z'), fields: { department: 2 } });
    const back = change({ effectiveDate: '2024-04-01', recordedAt: at('2024-07-01T00:00:01Z'), fields: { department: 1 } });
    expect(departmentMoves(before, segmentsAt([joined, away, back]))).toEqual([
      { from: '2024-03-01', to: '2024-03-31', before: 1, after: 2 },
    ]);
    const later = { ...joined, effectiveDate: '2024-02-01' };
    expect(departmentMoves(before, segmentsAt([later]))).toEqual([
      { from: '2024-01-15', to: '2024-01-31', before: 1, after: null },
    ]);
  });
});
