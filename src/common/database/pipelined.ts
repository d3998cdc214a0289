/**
 * Works through the items `next` loads (null: no more), loading item n + 1 while item n is worked
 * on, so a chunked job's reads of its next chunk overlap its computing and writing of this one
 * (one process: the database waits on Node, then Node on the database, otherwise). `next` runs
 * one call at a time; an error of either ends the loop and is thrown.
 */
export async function pipelined<T>(next: () => Promise<T | null>, work: (item: T) => Promise<void>): Promise<void> {
  let ahead = next();
  for (;;) {
    const item = await ahead;
    if (item === null) return;
    ahead = next();
    // Awaited on the next turn; if `work` throws first, its rejection must not go unhandled.
    ahead.catch(() => undefined);
    await work(item);
  }
}
