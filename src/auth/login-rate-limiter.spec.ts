import { LoginRateLimiter } from './login-rate-limiter';

describe('LoginRateLimiter', () => {
  it('allows `limit` hits per window per key, then says how long to wait', () => {
    let now = 1_000_000;
    const limiter = new LoginRateLimiter(60_000, () => now);
    expect([1, 2, 3].map(() => limiter.hit('a', 3))).toEqual([0, 0, 0]);
    expect(limiter.hit('a', 3)).toBe(60);
    expect(limiter.hit('b', 3)).toBe(0);
    now += 30_000;
    expect(limiter.hit('a', 3)).toBe(30);
    now += 30_000;
    expect(limiter.hit('a', 3)).toBe(0);
  });
});
