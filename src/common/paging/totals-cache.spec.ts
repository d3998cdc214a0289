import { TotalsCache } from './totals-cache';

describe('TotalsCache', () => {
  it('reuses a total within its time to live, shares a running count, counts again after clear()', async () => {
    const cache = new TotalsCache(60_000);
    let counts = 0;
    const count = () => Promise.resolve(++counts);
    const [a, b] = await Promise.all([cache.get('k', count), cache.get('k', count)]);
    expect([a, b, counts]).toEqual([1, 1, 1]);
    expect(await cache.get('other', count)).toBe(2);
    cache.clear();
    expect(await cache.get('k', count)).toBe(3);
  });

  it('keeps no failed count, no entry past its time, and at most max entries', async () => {
    const cache = new TotalsCache(20, 2);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', () => Promise.resolve(5))).toBe(5);
    await new Promise((r) => setTimeout(r, 30));
    expect(await cache.get('k', () => Promise.resolve(6))).toBe(6);
    const big = new TotalsCache(60_000, 2);
    await big.get('a', () => Promise.resolve(1));
    await big.get('b', () => Promise.resolve(2));
    await big.get('c', () => Promise.resolve(3));
    expect(await big.get('a', () => Promise.resolve(10))).toBe(10); // 'a' was dropped
    expect(await big.get('c', () => Promise.resolve(30))).toBe(3);
  });

  it('with a time to live of 0 counts every time', async () => {
    const cache = new TotalsCache(0);
    let counts = 0;
    await cache.get('k', () => Promise.resolve(++counts));
    await cache.get('k', () => Promise.resolve(++counts));
    expect(counts).toBe(2);
  });
});
