import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { externalSort } from './external-sort';

interface Item {
  name: string;
  id: number;
}

async function* pages<T>(items: T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

async function collect<T>(it: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of it) out.push(...page);
  return out;
}

const BY_NAME = (a: Item, b: Item) => a.name.localeCompare(b.name);

describe('externalSort', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'sort-spec-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives what an in-memory stable sort gives, across runs on disk, and removes its files', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const [count, runSize] of [
      [0, 5],
      [1, 5],
      [5, 5],
      [37, 5],
      [1000, 64],
      [2500, 1000],
    ]) {
      // Few distinct names: stability decides the order of equal items (by their id here).
      const items = Array.from({ length: count }, (_, id) => ({ name: `Näme ${Math.floor(random() * 20)} ✓\n"x"`, id }));
      const sorted = await collect(externalSort(pages(items, 7), BY_NAME, { runSize, pageSize: 10, directory: dir }));
      expect(sorted).toEqual([...items].sort(BY_NAME));
      expect(readdirSync(dir)).toEqual([]);
    }
  });

  it('yields pages of pageSize', async () => {
    const items = Array.from({ length: 25 }, (_, id) => ({ name: String(25 - id).padStart(2, '0'), id }));
    const sizes: number[] = [];
    for await (const page of externalSort(pages(items, 4), BY_NAME, { runSize: 6, pageSize: 10, directory: dir }))
      sizes.push(page.length);
    expect(sizes).toEqual([10, 10, 5]);
  });

  it('removes its files when the reader stops early', async () => {
    const items = Array.from({ length: 100 }, (_, id) => ({ name: String(id % 13), id }));
    for await (const page of externalSort(pages(items, 10), BY_NAME, { runSize: 20, pageSize: 5, directory: dir })) {
      expect(readdirSync(dir)).toHaveLength(1);
      expect(page).toHaveLength(5);
      break;
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
