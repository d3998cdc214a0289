import { FileHandle, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeSlices } from '../async/time-slices';
import { LineReader, LineWriter } from './line-files';

export interface ExternalSortOptions {
  /** Items sorted in memory at a time; more are written to a temporary file per run of this many and merged. */
  runSize?: number;
  /** Items per page yielded. */
  pageSize?: number;
  /** Where the runs' temporary directory is made (the system's temporary directory by default). */
  directory?: string;
}

/** A min-heap of the runs' current items (k-way merge): the smallest first, ties by run (stable). */
class Heads<T> {
  private readonly heap: Array<{ item: T; run: number }> = [];
  constructor(private readonly compare: (a: T, b: T) => number) {}

  get size(): number {
    return this.heap.length;
  }

  private less(i: number, j: number): boolean {
    const [a, b] = [this.heap[i], this.heap[j]];
    return (this.compare(a.item, b.item) || a.run - b.run) < 0;
  }

  private swap(i: number, j: number): void {
    [this.heap[i], this.heap[j]] = [this.heap[j], this.heap[i]];
  }

  push(item: T, run: number): void {
    this.heap.push({ item, run });
    for (let i = this.heap.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  pop(): { item: T; run: number } {
    const top = this.heap[0];
    const last = this.heap.pop()!;
    if (this.heap.length) {
      this.heap[0] = last;
      for (let i = 0; ;) {
        const [l, r] = [2 * i + 1, 2 * i + 2];
        let least = i;
        if (l < this.heap.length && this.less(l, least)) least = l;
        if (r < this.heap.length && this.less(r, least)) least = r;
        if (least === i) break;
        this.swap(i, least);
        i = least;
      }
    }
    return top;
  }
}

/** Items one at a time, in order: a sorted page in memory, or a run on disk (undefined past the last). */
interface Sorted<T> {
  read(): Promise<T | undefined> | T | undefined;
}

/**
 * Sorts what `source` yields (pages of items that JSON round-trips unchanged) in bounded memory
 * (issue 70): each page is sorted as it comes (one page's sort is the longest the event loop
 * waits), up to `runSize` items are merged in memory; past one run each is written to a temporary
 * file as JSON lines and the runs are merged (a k-way merge through a heap), so memory holds one
 * run and a read buffer per run whatever the number of items. Stable: equal items keep their order.
 * Yields pages of `pageSize` in order. The temporary files are removed when the iteration ends,
 * however it ends (a client that hung up stops it through `return()`).
 */
export async function* externalSort<T>(
  source: AsyncIterable<readonly T[]>,
  compare: (a: T, b: T) => number,
  options: ExternalSortOptions = {},
): AsyncGenerator<T[]> {
  const runSize = options.runSize ?? 10_000;
  const pageSize = options.pageSize ?? 1000;
  const slices = timeSlices();
  const pause = async () => {
    if (slices.due()) await slices.pause();
  };
  let dir: string | undefined;
  const runs: string[] = [];
  const files: FileHandle[] = [];
  let pages: T[][] = [];
  let buffered = 0;
  const inMemory = () =>
    pages.map((p) => {
      let i = 0;
      return { read: () => (i < p.length ? p[i++] : undefined) };
    });
  const spill = async () => {
    dir ??= await mkdtemp(join(options.directory ?? tmpdir(), 'hr-sort-'));
    const path = join(dir, `run-${runs.length}.jsonl`);
    const run = await LineWriter.create(path);
    try {
      for await (const page of mergePages(inMemory(), compare, 1000, pause))
        for (const item of page) await run.write(JSON.stringify(item));
    } finally {
      await run.close();
    }
    runs.push(path);
    [pages, buffered] = [[], 0];
  };
  try {
    for await (const page of source) {
      pages.push([...page].sort(compare));
      buffered += page.length;
      await pause();
      if (buffered >= runSize) await spill();
    }
    if (!runs.length) {
      yield* mergePages(inMemory(), compare, pageSize, pause);
      return;
    }
    if (buffered) await spill();
    for (const path of runs) files.push(await open(path, 'r'));
    const readers = files.map((f) => {
      const lines = new LineReader(f);
      return {
        read: async () => {
          const line = await lines.read();
          return line === undefined ? undefined : (JSON.parse(line) as T);
        },
      };
    });
    yield* mergePages(readers, compare, pageSize, pause);
  } finally {
    await Promise.all(files.map((f) => f.close().catch(() => undefined)));
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

/** The merge of sorted sources as pages of `pageSize`, pausing between pages when due. */
async function* mergePages<T>(
  sources: Array<Sorted<T>>,
  compare: (a: T, b: T) => number,
  pageSize: number,
  pause: () => Promise<void>,
): AsyncGenerator<T[]> {
  const heads = new Heads(compare);
  for (const [k, source] of sources.entries()) {
    const item = await source.read();
    if (item !== undefined) heads.push(item, k);
  }
  let page: T[] = [];
  while (heads.size) {
    const { item, run } = heads.pop();
    page.push(item);
    const next = await sources[run].read();
    if (next !== undefined) heads.push(next, run);
    if (page.length >= pageSize) {
      yield page;
      page = [];
      await pause();
    }
  }
  if (page.length) yield page;
}
