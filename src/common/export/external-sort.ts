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
    for (let i = this.heap.length - 1; i > 0; ) {
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
      for (let i = 0; ; ) {
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

/**
 * Sorts what `source` yields (pages of items that JSON round-trips unchanged) in bounded memory
 * (issue 70): items are sorted in runs of `runSize` in memory; past one run each is written to a
 * temporary file as JSON lines and the runs are merged (a k-way merge through a heap), so memory
 * holds one run and a read buffer per run whatever the number of items. Stable: equal items keep
 * their order. Yields pages of `pageSize` in order. The temporary files are removed when the
 * iteration ends, however it ends (a client that hung up stops it through `return()`).
 */
export async function* externalSort<T>(
  source: AsyncIterable<readonly T[]>,
  compare: (a: T, b: T) => number,
  options: ExternalSortOptions = {},
): AsyncGenerator<T[]> {
  const runSize = options.runSize ?? 10_000;
  const pageSize = options.pageSize ?? 1000;
  const slices = timeSlices();
  let dir: string | undefined;
  const runs: string[] = [];
  const files: FileHandle[] = [];
  let buffer: T[] = [];
  const spill = async () => {
    dir ??= await mkdtemp(join(options.directory ?? tmpdir(), 'hr-sort-'));
    const path = join(dir, `run-${runs.length}.jsonl`);
    const run = await LineWriter.create(path);
    try {
      for (const item of buffer.sort(compare)) await run.write(JSON.stringify(item));
    } finally {
      await run.close();
    }
    runs.push(path);
    buffer = [];
    await slices.pause();
  };
  try {
    for await (const page of source) {
      for (const item of page) buffer.push(item);
      if (buffer.length >= runSize) await spill();
    }
    if (!runs.length) {
      buffer.sort(compare);
      for (let i = 0; i < buffer.length; i += pageSize) yield buffer.slice(i, i + pageSize);
      return;
    }
    if (buffer.length) await spill();
    for (const path of runs) files.push(await open(path, 'r'));
    const lines = files.map((f) => new LineReader(f));
    const readers = lines.map((r) => ({
      read: async () => {
        const line = await r.read();
        return line === undefined ? undefined : (JSON.parse(line) as T);
      },
    }));
    const heads = new Heads(compare);
    for (const [run, reader] of readers.entries()) {
      const item = await reader.read();
      if (item !== undefined) heads.push(item, run);
    }
    let page: T[] = [];
    while (heads.size) {
      const { item, run } = heads.pop();
      page.push(item);
      const next = await readers[run].read();
      if (next !== undefined) heads.push(next, run);
      if (page.length >= pageSize) {
        yield page;
        page = [];
        if (slices.due()) await slices.pause();
      }
    }
    if (page.length) yield page;
  } finally {
    await Promise.all(files.map((f) => f.close().catch(() => undefined)));
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
