import { RecentResults } from './recent-results';

describe('RecentResults', () => {
  it('shares one read between equal keys and keeps at most `max` results', async () => {
    const cache = new RecentResults<number>(60_000, 2);
    let reads = 0;
    const read = (n: number) => async () => (reads++, n);
    expect(await Promise.all([cache.get('a', read(1)), cache.get('a', read(1))])).toEqual([1, 1]);
    await cache.get('b', read(2));
    await cache.get('c', read(3));
    await cache.get('a', read(1)); // 'a' was dropped for 'c'
    expect(reads).toBe(4);
  });

  // Issue 41, item 5: the diff cache bounded its results by count only, whatever they held.
  it('keeps results within `maxWeight`, the oldest going first; one heavier than it is served, not kept', async () => {
    const cache = new RecentResults<number[]>(60_000, 10, (v) => v.length, 100);
    let reads = 0;
    const read = (n: number) => async () => (reads++, new Array<number>(n).fill(0));
    await cache.get('a', read(60));
    await cache.get('b', read(30));
    await cache.get('c', read(30)); // 120 > 100: 'a' goes
    await cache.get('b', read(30));
    await cache.get('c', read(30));
    expect(reads).toBe(3);
    await cache.get('a', read(60)); // read again: 'b' goes (60 + 30 + 30 > 100)
    expect(reads).toBe(4);
    await cache.get('huge', read(500));
    await cache.get('huge', read(500)); // never kept
    expect(reads).toBe(6);
    await cache.get('c', read(30)); // still kept: the huge one pushed nothing out
    expect(reads).toBe(6);
  });
});
