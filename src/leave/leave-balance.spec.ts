import { assertCovers, balanceOf, round1 } from './leave-balance';

const annual = { id: 1, name: 'Annual', defaultDays: 20 };

describe('leave balance arithmetic', () => {
  it('takes the entitlement when there is one, else the type default; available = entitled − taken', () => {
    expect(balanceOf(annual, undefined, 3, 2)).toEqual({
      leave_type: 1,
      name: 'Annual',
      entitled: 20,
      taken: 3,
      pending: 2,
      available: 17,
    });
    expect(balanceOf(annual, 25, 3, 0).available).toBe(22);
    expect(balanceOf(annual, 0, 0, 0).available).toBe(0);
  });

  it('counts half days without float noise', () => {
    expect(balanceOf(annual, 10, 0.1 + 0.2 + 2, 0.5).taken).toBe(2.3);
    expect(balanceOf(annual, 10.5, 2.5, 0.5).available).toBe(8);
    expect(round1(7.05)).toBe(7.1);
  });

  it('lets a request take at most available − pending, unless negative balances are allowed', () => {
    const balance = balanceOf(annual, 10, 6, 1.5); // available 4, free 2.5
    expect(() => assertCovers(2.5, balance, false)).not.toThrow();
    expect(() => assertCovers(3, balance, false)).toThrow('3 days requested, 2.5 free (4 available, 1.5 pending)');
    expect(() => assertCovers(30, balance, true)).not.toThrow();
  });
});
