import { assertCovers, summaryOf } from './leave-balance';
import type { Balance } from './ledger/leave-balances';

const balance = (over: Partial<Balance>): Balance => ({
  leaveType: 1,
  opening: 0,
  accrued: 0,
  taken: 0,
  pending: 0,
  carriedOver: 0,
  expired: 0,
  adjusted: 0,
  encashed: 0,
  available: 0,
  policy: null,
  ...over,
});

describe('leave balance arithmetic', () => {
  it('shows a ledger balance as the summary did: entitled = available + taken, in days', () => {
    expect(summaryOf(balance({ accrued: 2000, taken: 300, pending: 200, available: 1700 }), [{ id: 1, name: 'Annual' }])).toEqual(
      {
        leave_type: 1,
        name: 'Annual',
        entitled: 20,
        taken: 3,
        pending: 2,
        available: 17,
      },
    );
  });

  it('lets a request take at most available − pending, unless negative balances are allowed', () => {
    const b = balance({ available: 400, pending: 150 }); // free 2.5
    expect(() => assertCovers(2.5, b, false)).not.toThrow();
    expect(() => assertCovers(3, b, false)).toThrow('3 days requested, 2.5 free (4 available, 1.5 pending)');
    expect(() => assertCovers(30, b, true)).not.toThrow();
  });
});
