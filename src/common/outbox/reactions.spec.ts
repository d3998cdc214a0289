import { changedTo, rangeOf, Reactions } from './reactions';
import '../../leave/leave.events';

describe('reactions (issue 42)', () => {
  const change = (changes: Record<string, [unknown, unknown]>) => ({ id: 5, employee: 7, changes });

  it('changedTo reads the new value of a changed field; null when it did not change or is not a scalar', () => {
    expect(changedTo(change({ status: ['Pending', 'Approved'] }), 'status')).toBe('Approved');
    expect(changedTo(change({ days: [1, 2] }), 'days')).toBe('2');
    expect(changedTo(change({ status: ['Pending', null] }), 'status')).toBeNull();
    expect(changedTo(change({ tags: [[], ['a']] }), 'tags')).toBeNull();
    expect(changedTo(change({}), 'status')).toBeNull();
  });

  it('rangeOf says the dates a change carries: a range, one day, or nothing', () => {
    expect(rangeOf(change({ date_start: [null, '2026-12-01'], date_end: [null, '2026-12-03'] }))).toBe(
      ' from 2026-12-01 to 2026-12-03',
    );
    expect(rangeOf(change({ date_start: [null, '2026-12-01'], date_end: [null, '2026-12-01'] }))).toBe(' for 2026-12-01');
    expect(rangeOf(change({ date: [null, '2026-12-02T00:00:00.000Z'] }))).toBe(' for 2026-12-02');
    expect(rangeOf(change({ status: ['Draft', 'Submitted'] }))).toBe('');
  });

  it('keeps every reaction declared for an event, in order; an event without one has none', async () => {
    const reactions = new Reactions();
    reactions.on('leave.requested', { notify: async () => null });
    reactions.on('leave.requested', { tasks: async () => ({}) });
    reactions.on('leave.decided', { tasks: async () => ({}) });
    expect(reactions.of('leave.requested').map((r) => [!!r.notify, !!r.tasks])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(reactions.of('employee.created')).toEqual([]);
    expect(reactions.events()).toEqual(['leave.decided', 'leave.requested']);
  });
});
