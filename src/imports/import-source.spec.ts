import './imports.config';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportKind, ImportRow } from '../common/import/import-kind';
import { loadConfig } from '../config/config';
import { ImportRecord } from './entities/import.entities';
import { openSource } from './import-source';
import { MAX_STORED_ERRORS, Tally } from './import-tally';

/** The import runner's reading of a file (openSource) and its counting (Tally), without a database. */
const KIND = {
  kind: 'people',
  columns: [
    { field: 'employee_id', label: 'Employee ID', type: 'text', example: 'E1', required: true },
    { field: 'first_name', label: 'First name', type: 'text', example: 'Ada' },
  ],
  validatesWithoutWriting: true,
  batchSize: 2,
  start: () => Promise.reject(new Error('not used')),
} as ImportKind;
const LIMITS = loadConfig({}).imports;

describe('openSource: a file header to fields, its rows in batches', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'import-source-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const open = async (csv: string, tally = new Tally()) => {
    const path = join(dir, 'f.csv');
    writeFileSync(path, csv);
    return { source: await openSource(path, { format: 'csv' } as ImportRecord, KIND, tally, LIMITS), tally };
  };
  const all = async (batches: AsyncGenerator<ImportRow[]>) => {
    const out: Array<Array<[number, Record<string, unknown>]>> = [];
    for await (const b of batches) out.push(b.map((r) => [r.row, Object.fromEntries(r.values)]));
    return out;
  };

  it('matches columns by field or label, case and spacing ignored; reports an unknown column once and ignores it', async () => {
    const { source, tally } = await open('  employee id ,Colour,FIRST_NAME\nE1,red,Ada\nE2,blue,Bo\nE3,,Cy\n');
    expect(await all(source.batches)).toEqual([
      [
        [1, { employee_id: 'E1', first_name: 'Ada' }],
        [2, { employee_id: 'E2', first_name: 'Bo' }],
      ],
      [[3, { employee_id: 'E3', first_name: 'Cy' }]],
    ]);
    expect(tally.take()).toEqual([{ row: 0, column: 'Colour', field: null, message: 'is not a column of this kind: ignored' }]);
    expect(tally.headers.get('employee_id')).toBe('employee id');
    expect(source.progress()).toBeLessThanOrEqual(99);
  });

  it('refuses a file without a required column, one with a field twice, and an empty one', async () => {
    await expect(open('first_name\nAda\n')).rejects.toThrow(
      'The file has no employee_id column (the header row is the first row)',
    );
    await expect(open('employee_id,Employee ID\nE1,E2\n')).rejects.toThrow(
      'Columns employee_id and Employee ID are both employee_id',
    );
    await expect(open('')).rejects.toThrow('The file is empty');
  });
});

describe('Tally: a pass’s counters and the errors to write', () => {
  it('counts a row with several problems once, names the column as the file does, and keeps at most MAX_STORED_ERRORS', () => {
    const tally = new Tally();
    tally.headers.set('first_name', 'First name');
    const rows = [1, 2, 3].map((row) => ({ row, values: new Map() }));
    expect(
      tally.add(rows, [
        { row: 2, field: 'first_name', message: 'must not be empty' },
        { row: 2, field: 'employee_id', message: 'already used' },
      ]),
    ).toBe(1);
    expect([tally.total, tally.failed]).toEqual([3, 1]);
    expect(tally.take()).toEqual([
      { row: 2, column: 'First name', field: 'first_name', message: 'must not be empty' },
      { row: 2, column: null, field: 'employee_id', message: 'already used' },
    ]);
    for (let i = 0; i < MAX_STORED_ERRORS + 5; i++) tally.keep({ row: i, column: null, field: null, message: 'x' });
    expect(tally.take()).toHaveLength(MAX_STORED_ERRORS - 2);
    expect(tally.stored).toBe(MAX_STORED_ERRORS + 7);
  });
});
