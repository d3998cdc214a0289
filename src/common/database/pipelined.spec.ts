import { pipelined } from './pipelined';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('pipelined', () => {
  it('loads the next item while the current one is worked on, in order, one load at a time', async () => {
    const log: string[] = [];
    let loading = 0;
    let n = 0;
    await pipelined(
      async () => {
        loading += 1;
        expect(loading).toBe(1);
        const i = n++;
        log.push(`load ${i}`);
        await tick(5);
        loading -= 1;
        return i < 3 ? i : null;
      },
      async (i) => {
        log.push(`work ${i} start`);
        await tick(20);
        log.push(`work ${i} end`);
      },
    );
    // Item 1 is loaded while item 0 is worked on.
    expect(log.indexOf('load 1')).toBeLessThan(log.indexOf('work 0 end'));
    expect(log.filter((x) => x.startsWith('work') && x.endsWith('start'))).toEqual([
      'work 0 start',
      'work 1 start',
      'work 2 start',
    ]);
    expect(log.filter((x) => x.startsWith('load'))).toEqual(['load 0', 'load 1', 'load 2', 'load 3']);
  });

  it('throws the error of a load or of the work, with no rejection left unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      let n = 0;
      await expect(
        pipelined(
          async () => {
            if (n++ === 1) throw new Error('load failed');
            return n;
          },
          async () => {
            await tick(5);
            throw new Error('work failed');
          },
        ),
      ).rejects.toThrow('work failed');
      await expect(
        pipelined(
          async () => {
            throw new Error('load failed');
          },
          async () => undefined,
        ),
      ).rejects.toThrow('load failed');
      await tick(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
