import fc from 'fast-check';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildCompany, Company } from './helpers/company';
import { bearer, createTestApp, TestApp, until } from './helpers/test-app';
import { row, workbook, zip } from './helpers/zip';

/**
 * Random and hostile spreadsheets (issue 41) through POST /imports in a process that also serves
 * requests (the demo's: jobs in the API process): the shapes that froze or killed the service
 * (`<sheet ` repeated, millions of empty shared strings, a huge styles part, cells in column XFD,
 * rows without `r`, damaged zips, non-UTF-8 CSV, long cells) among random valid workbooks. Each
 * import ends Validated or Failed with an error of its own (never "internal error"), the event loop
 * is never held FUZZ_SHEETS_MAX_DELAY_MS (default 1 000), and no import grows the process's memory
 * more than FUZZ_SHEETS_MAX_RSS_MIB (default 300; the issue's shared strings took it up 1 GiB). FUZZ_SHEETS runs (default 6; `npm run test:fuzz-sheets`
 * runs 150, in .ci/run too), FUZZ_SEED.
 */
const RUNS = Number(process.env.FUZZ_SHEETS ?? 6); // plus the WORST examples
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const MAX_DELAY_MS = Number(process.env.FUZZ_SHEETS_MAX_DELAY_MS ?? 1000);
const MAX_RSS_MIB = Number(process.env.FUZZ_SHEETS_MAX_RSS_MIB ?? 300);

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const HEADER = row(['employee_id', 'first_name', 'last_name', 'joined_date']);

type Upload = { name: string; body: Buffer; type: string };

const text = fc.string({ maxLength: 40 }).map((s) => s.replace(/[<&]/g, ''));
const hostile: fc.Arbitrary<Upload> = fc.oneof(
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => ({
    name: `sheet-tags-${n}`,
    body: workbook({ 'xl/workbook.xml': '<workbook>' + '<sheet '.repeat(n) }),
    type: XLSX,
  })),
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => ({
    name: `relationship-tags-${n}`,
    body: workbook({ 'xl/_rels/workbook.xml.rels': '<Relationships>' + '<Relationship '.repeat(n) }),
    type: XLSX,
  })),
  fc.integer({ min: 500_000, max: 2_500_000 }).map((n) => ({
    name: `empty-shared-strings-${n}`,
    body: workbook({ 'xl/sharedStrings.xml': `<sst>${'<si/>'.repeat(n)}</sst>`, sheetData: HEADER }),
    type: XLSX,
  })),
  fc.integer({ min: 1, max: 20 }).map((mib) => ({
    name: `styles-${mib}-mib`,
    body: workbook({
      'xl/styles.xml': `<styleSheet>${' '.repeat(mib * 1048576)}<cellXfs><xf/></cellXfs></styleSheet>`,
      sheetData: HEADER,
    }),
    type: XLSX,
  })),
  fc.integer({ min: 100, max: 20_000 }).map((n) => ({
    name: `xfd-cells-${n}`,
    body: workbook({
      sheetData:
        HEADER +
        Array.from(
          { length: n },
          (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}" t="inlineStr"><is><t>x</t></is></c></row>`,
        ).join(''),
    }),
    type: XLSX,
  })),
  fc.array(fc.tuple(text, text), { maxLength: 200 }).map((rows) => ({
    name: 'rows-without-r',
    body: workbook({ sheetData: HEADER + rows.map(([a, b]) => row([a, b, 'L', '2024-01-01'])).join('') }),
    type: XLSX,
  })),
  fc.uint8Array({ minLength: 4, maxLength: 4096 }).map((bytes) => ({
    name: 'damaged-zip',
    body: Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(bytes)]),
    type: XLSX,
  })),
  fc.integer({ min: 1, max: 50 }).map((n) => ({
    name: 'zip-without-workbook',
    body: zip(Object.fromEntries(Array.from({ length: n }, (_, i) => [`part${i}.xml`, '<x/>']))),
    type: XLSX,
  })),
  fc.uint8Array({ minLength: 1, maxLength: 2048 }).map((bytes) => ({
    name: 'latin-1-csv',
    body: Buffer.concat([
      Buffer.from('employee_id,first_name,last_name,joined_date\nE1,J'),
      Buffer.from([0xf6]),
      Buffer.from(bytes),
    ]),
    type: 'text/csv',
  })),
  fc.integer({ min: 33_000, max: 200_000 }).map((n) => ({
    name: `long-cell-${n}`,
    body: Buffer.from(`employee_id,first_name,last_name,joined_date\nE1,${'x'.repeat(n)},L,2024-01-01\n`),
    type: 'text/csv',
  })),
  fc.array(fc.array(text, { maxLength: 30 }), { maxLength: 300 }).map((rows) => ({
    name: 'random-workbook',
    body: workbook({ sheetData: HEADER + rows.map((cells) => row(cells)).join('') }),
    type: XLSX,
  })),
);

/** The issue's own reproductions, at full size, before the random ones. */
const WORST: Upload[] = [
  { name: 'sheet-tags-60000', body: workbook({ 'xl/workbook.xml': '<workbook>' + '<sheet '.repeat(60_000) }), type: XLSX },
  {
    name: 'empty-shared-strings-2500000',
    body: workbook({ 'xl/sharedStrings.xml': `<sst>${'<si/>'.repeat(2_500_000)}</sst>`, sheetData: HEADER }),
    type: XLSX,
  },
  {
    name: 'styles-20-mib',
    body: workbook({ 'xl/styles.xml': `<styleSheet>${' '.repeat(20 * 1048576)}</styleSheet>`, sheetData: HEADER }),
    type: XLSX,
  },
  {
    name: 'xfd-cells-20000',
    body: workbook({
      sheetData:
        HEADER +
        Array.from(
          { length: 20_000 },
          (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}" t="inlineStr"><is><t>x</t></is></c></row>`,
        ).join(''),
    }),
    type: XLSX,
  },
];

describe('hostile spreadsheets: bounded in time and memory (issue 41)', () => {
  let t: TestApp;
  let c: Company;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    // One valid workbook first, unmeasured: the first import loads and compiles the import
    // pipeline's modules (a one-time pause of about half a second under jest), which is not the
    // per-file work the bound is about.
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=employees',
      headers: { ...bearer(c.users.admin.token), 'content-type': XLSX, 'content-disposition': 'attachment; filename="f"' },
      payload: workbook({ sheetData: HEADER + row(['W1', 'Warm', 'Up', '2024-01-01']) }),
    });
    const id = res.json<{ data: { id: number } }>().data.id;
    await until(async () => {
      const { status } = (
        await t.app.inject({ method: 'GET', url: `/app/api/imports/${id}`, headers: bearer(c.users.admin.token) })
      ).json().data;
      return ['Validated', 'Failed'].includes(status);
    }, 60_000);
  });
  afterAll(() => t.close());

  it(`${RUNS} random and hostile files: each ends with its own error or validated, the loop and memory stay bounded`, async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    // Each import's own growth: from the RSS after a full collection (with --expose-gc, as
    // test:fuzz-sheets runs) to the highest RSS while it runs.
    const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
    let baseline = 0;
    let peak = 0;
    let worst = { name: '', mib: 0 };
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const seen: string[] = [];
    try {
      await fc.assert(
        fc.asyncProperty(hostile, async (file) => {
          collect();
          baseline = peak = process.memoryUsage().rss;
          delay.reset();
          delay.enable();
          const res = await t.app.inject({
            method: 'POST',
            url: '/app/api/imports?kind=employees',
            headers: {
              ...bearer(c.users.admin.token),
              'content-type': file.type,
              'content-disposition': 'attachment; filename="f"',
            },
            payload: file.body,
          });
          if (res.statusCode !== 202) {
            seen.push(`${file.name}: ${res.statusCode} at upload`);
            // Refused at upload (not a spreadsheet): in the envelope, never a 5xx.
            expect({ file: file.name, status: res.statusCode < 500, envelope: res.json().status }).toEqual({
              file: file.name,
              status: true,
              envelope: 'ERROR',
            });
            return;
          }
          const id = res.json<{ data: { id: number } }>().data.id;
          let record: { status: string; error: string | null } = { status: '', error: null };
          await until(async () => {
            record = (
              await t.app.inject({ method: 'GET', url: `/app/api/imports/${id}`, headers: bearer(c.users.admin.token) })
            ).json().data;
            return ['Validated', 'Failed'].includes(record.status);
          }, 60_000);
          delay.disable();
          const grown = (peak - baseline) / 1048576;
          if (grown > worst.mib) worst = { name: file.name, mib: grown };
          seen.push(
            `${file.name}: ${record.status}${record.error ? ` (${record.error.slice(0, 60)})` : ''}, ` +
              `+${grown.toFixed(0)} MiB, loop held ${(delay.max / 1e6).toFixed(0)} ms at most`,
          );
          expect({ file: file.name, grown: grown < MAX_RSS_MIB }).toEqual({ file: file.name, grown: true });
          expect({ file: file.name, internal: /internal error/.test(record.error ?? '') }).toEqual({
            file: file.name,
            internal: false,
          });
          expect({ file: file.name, held: delay.max / 1e6 < MAX_DELAY_MS }).toEqual({ file: file.name, held: true });
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true, examples: WORST.map((w) => [w]) },
      );
    } finally {
      clearInterval(sampler);
    }
    console.log(
      `fuzz-sheets: ${seen.length} files, one import grew RSS ${worst.mib.toFixed(0)} MiB at most (${worst.name})\n${seen.join('\n')}`,
    );
  }, 600_000);
});
