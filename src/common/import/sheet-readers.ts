import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';
import { SaxesParser, SaxesTagPlain } from 'saxes';
import * as yauzl from 'yauzl';

/** A cell as read: text, a number, a boolean, a date (an XLSX date cell), or empty. */
export type Cell = string | number | boolean | Date | null;

/** A row of the sheet: its number (1 = the sheet's first line) and its cells by column (0 = A). */
export interface SheetRow {
  number: number;
  cells: Cell[];
}

/** What a file may hold before it is refused (config: IMPORT_MAX_*). */
export interface ReadLimits {
  /** Data rows, the header excluded. */
  maxRows: number;
  /** Characters in one cell (Excel's own limit is 32 767). */
  maxCellChars: number;
  /** Bytes an XLSX file unpacks to, all its parts together (a zip bomb's tell). */
  maxUnzippedBytes: number;
}

/** A file refused for what it is (not a CSV, a zip bomb, too many rows): its message is for the client. */
export class SheetFileError extends Error {}

export type SheetFormat = 'csv' | 'xlsx';

/** The format the first bytes show: XLSX is a zip (PK\x03\x04); CSV is text without NUL bytes. */
export function sniffFormat(head: Buffer): SheetFormat | null {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return 'xlsx';
  return head.includes(0) ? null : 'csv';
}

/**
 * The rows of a CSV or XLSX file (the first worksheet), streamed: whatever the file's size, memory
 * holds one chunk and its rows (plus an XLSX file's shared strings, bounded by maxUnzippedBytes).
 * Empty rows are skipped. `onBytes` reports the file's bytes read so far (progress).
 */
export function readSheet(
  path: string,
  format: SheetFormat,
  limits: ReadLimits,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<SheetRow> {
  return format === 'csv' ? readCsv(path, limits, onBytes) : readXlsx(path, limits, onBytes);
}

const isEmpty = (cells: Cell[]) => cells.every((c) => c === null || c === '');

function tooLong(limits: ReadLimits, where: string): SheetFileError {
  return new SheetFileError(`${where}: a cell longer than ${limits.maxCellChars} characters`);
}

function tooManyRows(limits: ReadLimits): SheetFileError {
  return new SheetFileError(`The file has more than ${limits.maxRows} rows; split it into several imports`);
}

async function* readCsv(path: string, limits: ReadLimits, onBytes?: (bytes: number) => void): AsyncGenerator<SheetRow> {
  const input = createReadStream(path);
  let bytes = 0;
  input.on('data', (chunk) => onBytes?.((bytes += chunk.length)));
  // A record is bounded too, so a row of many long cells cannot grow without end while it is parsed.
  const maxRecord = limits.maxCellChars * 64;
  const parser = input.pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: true, max_record_size: maxRecord, info: true }),
  );
  let rows = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const number = info.lines;
      for (const cell of record) if (cell.length > limits.maxCellChars) throw tooLong(limits, `Line ${number}`);
      const cells: Cell[] = record.map((c) => (c === '' ? null : c));
      if (isEmpty(cells)) continue;
      if (++rows > limits.maxRows + 1) throw tooManyRows(limits);
      yield { number, cells };
    }
  } catch (err) {
    if (err instanceof SheetFileError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'CSV_MAX_RECORD_SIZE') throw new SheetFileError(`A row longer than ${maxRecord} characters`);
    if (typeof code === 'string' && code.startsWith('CSV_'))
      throw new SheetFileError(`Not a readable CSV file: ${(err as Error).message}`);
    throw err;
  } finally {
    input.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// XLSX: read with yauzl (central directory, sizes checked while inflating) and saxes (streaming
// XML, no DTD, no entity expansion). Formulas are never evaluated: a cell's cached value is read.

function openZip(path: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (err, zip) =>
      err || !zip ? reject(new SheetFileError('Not a readable XLSX file (the zip structure is damaged)')) : resolve(zip),
    ),
  );
}

const MAX_ENTRIES = 10_000;

function entriesOf(zip: yauzl.ZipFile, limits: ReadLimits): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    let total = 0;
    zip.on('entry', (entry: yauzl.Entry) => {
      total += entry.uncompressedSize;
      if (entries.size >= MAX_ENTRIES || total > limits.maxUnzippedBytes) {
        reject(unzippedTooLarge(limits));
        return;
      }
      entries.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', () => reject(new SheetFileError('Not a readable XLSX file (the zip structure is damaged)')));
    zip.readEntry();
  });
}

function unzippedTooLarge(limits: ReadLimits): SheetFileError {
  return new SheetFileError(
    `The workbook unpacks to more than ${Math.round(limits.maxUnzippedBytes / 1048576)} MiB; it is refused (a spreadsheet of that size is split into several imports)`,
  );
}

/**
 * An entry's text, chunk by chunk, inflated with its size bounded: yauzl stops an entry that
 * inflates past its declared size, and the declared sizes are bounded by maxUnzippedBytes.
 */
async function* entryText(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limits: ReadLimits,
  onInflated?: (bytes: number) => void,
): AsyncGenerator<string> {
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err || !s ? reject(new SheetFileError('Not a readable XLSX file')) : resolve(s))),
  );
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > limits.maxUnzippedBytes) throw unzippedTooLarge(limits);
      onInflated?.(bytes);
      yield decoder.write(chunk);
    }
  } catch (err) {
    if (err instanceof SheetFileError) throw err;
    throw new SheetFileError('Not a readable XLSX file (a part does not inflate to its declared size)');
  } finally {
    (stream as unknown as { destroy?: () => void }).destroy?.();
  }
  yield decoder.end();
}

function xmlParser(): SaxesParser {
  return new SaxesParser({ xmlns: false });
}

/** Feeds an entry through a parser; `after` runs after each chunk (to hand over what it produced). */
async function* parseEntry<T>(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry,
  limits: ReadLimits,
  parser: SaxesParser,
  drain: () => T[],
  onInflated?: (bytes: number) => void,
): AsyncGenerator<T> {
  try {
    for await (const text of entryText(zip, entry, limits, onInflated)) {
      parser.write(text);
      yield* drain();
    }
    parser.close();
    yield* drain();
  } catch (err) {
    if (err instanceof SheetFileError) throw err;
    throw new SheetFileError(`Not a readable XLSX file (${entry.fileName}: ${(err as Error).message.split('\n')[0]})`);
  }
}

async function wholeText(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined, limits: ReadLimits): Promise<string> {
  if (!entry) return '';
  let text = '';
  for await (const chunk of entryText(zip, entry, limits)) text += chunk;
  return text;
}

/** Built-in number formats that show dates or times (ECMA-376 18.8.30). */
const DATE_FORMAT_IDS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a custom number format shows a date: d, m, y, h or s outside quoted text, escapes and [colour] brackets. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim());
}

/** The cell style indexes (cellXfs) whose number format is a date. */
function dateStyles(styles: string): Set<number> {
  const custom = new Map<number, string>();
  const out = new Set<number>();
  const parser = xmlParser();
  let inCellXfs = false;
  let index = 0;
  parser.on('opentag', (tag) => {
    const attr = tag.attributes as Record<string, string>;
    if (tag.name === 'numFmt') custom.set(Number(attr.numFmtId), attr.formatCode ?? '');
    else if (tag.name === 'cellXfs') inCellXfs = true;
    else if (tag.name === 'xf' && inCellXfs) {
      const id = Number(attr.numFmtId ?? 0);
      if (DATE_FORMAT_IDS.has(id) || isDateFormat(custom.get(id) ?? '')) out.add(index);
      index++;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'cellXfs') inCellXfs = false;
  });
  if (styles) parser.write(styles).close();
  return out;
}

/** The first worksheet's part name, from the workbook and its relationships. */
function firstSheetPath(workbook: string, rels: string): string {
  const sheet = /<(?:\w+:)?sheet\b[^>]*\br:id="([^"]+)"/.exec(workbook);
  if (!sheet) throw new SheetFileError('The workbook has no worksheet');
  for (const m of rels.matchAll(/<Relationship\b[^>]*>/g)) {
    if (!m[0].includes(`Id="${sheet[1]}"`)) continue;
    const target = /Target="([^"]+)"/.exec(m[0])?.[1];
    if (target) return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  }
  throw new SheetFileError('The workbook has no worksheet');
}

/** Excel's serial day number (1900 or 1904 system) → the instant, in UTC. */
export function excelDate(serial: number, date1904: boolean): Date {
  // Days from the system's day 0 to 1970-01-01: 25 569 (1900, with its phantom 29 Feb 1900) or 24 107 (1904).
  const days = serial - (date1904 ? 24107 : 25569);
  return new Date(Math.round(days * 86_400_000));
}

/** "AB12" → 27 (the column, 0-based). */
function columnIndex(ref: string | undefined): number | null {
  const m = ref ? /^([A-Z]{1,3})\d/.exec(ref) : null;
  if (!m) return null;
  let n = 0;
  for (const ch of m[1]) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

async function sharedStrings(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined, limits: ReadLimits): Promise<string[]> {
  const strings: string[] = [];
  if (!entry) return strings;
  const parser = xmlParser();
  let current: string | null = null;
  let inText = false;
  let inPhonetic = false;
  parser.on('opentag', (tag) => {
    if (tag.name === 'si') current = '';
    else if (tag.name === 'rPh') inPhonetic = true;
    else if (tag.name === 't') inText = !inPhonetic;
  });
  parser.on('text', (text) => {
    if (!inText || current === null) return;
    current += text;
    if (current.length > limits.maxCellChars) throw tooLong(limits, 'A shared string');
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 't') inText = false;
    else if (tag.name === 'rPh') inPhonetic = false;
    else if (tag.name === 'si' && current !== null) {
      strings.push(current);
      current = null;
    }
  });
  for await (const _ of parseEntry(zip, entry, limits, parser, () => [])) void _;
  return strings;
}

async function* readXlsx(path: string, limits: ReadLimits, onBytes?: (bytes: number) => void): AsyncGenerator<SheetRow> {
  const zip = await openZip(path);
  try {
    const entries = await entriesOf(zip, limits);
    const workbook = await wholeText(zip, entries.get('xl/workbook.xml'), limits);
    const sheetPath = firstSheetPath(workbook, await wholeText(zip, entries.get('xl/_rels/workbook.xml.rels'), limits));
    const sheet = entries.get(sheetPath);
    if (!sheet) throw new SheetFileError('The workbook has no worksheet');
    const date1904 = /<(?:\w+:)?workbookPr\b[^>]*\bdate1904="(?:1|true)"/.test(workbook);
    const dates = dateStyles(await wholeText(zip, entries.get('xl/styles.xml'), limits));
    const strings = await sharedStrings(zip, entries.get('xl/sharedStrings.xml'), limits);

    const parser = xmlParser();
    const ready: SheetRow[] = [];
    let row: SheetRow | null = null;
    let cell: { column: number; type: string; style: number; text: string | null } | null = null;
    let inValue = false;
    let nextColumn = 0;
    let rows = 0;
    parser.on('opentag', (tag: SaxesTagPlain) => {
      const attr = tag.attributes as Record<string, string>;
      if (tag.name === 'row') {
        const number = Number(attr.r ?? (row ? row.number + 1 : 1));
        row = { number, cells: [] };
        nextColumn = 0;
      } else if (tag.name === 'c' && row) {
        const column = columnIndex(attr.r) ?? nextColumn;
        if (column > 16_383) throw new SheetFileError(`Row ${row.number}: more than 16 384 columns`);
        cell = { column, type: attr.t ?? 'n', style: Number(attr.s ?? 0), text: null };
        nextColumn = column + 1;
      } else if (cell && (tag.name === 'v' || (tag.name === 't' && cell.type === 'inlineStr'))) {
        inValue = true; // <f> (the formula) is never read: only its cached value
      }
    });
    parser.on('text', (text) => {
      if (!inValue || !cell) return;
      cell.text = (cell.text ?? '') + text;
      if (cell.text.length > limits.maxCellChars) throw tooLong(limits, `Row ${row?.number ?? '?'}`);
    });
    parser.on('closetag', (tag) => {
      if (tag.name === 'v' || tag.name === 't') inValue = false;
      else if (tag.name === 'c' && row && cell) {
        row.cells[cell.column] = cellValue(cell, strings, dates, date1904);
        cell = null;
      } else if (tag.name === 'row' && row) {
        const cells = Array.from(row.cells, (c) => c ?? null);
        if (!isEmpty(cells)) {
          if (++rows > limits.maxRows + 1) throw tooManyRows(limits);
          ready.push({ number: row.number, cells });
        }
        row = null;
      }
    });
    // Progress in the file's bytes: the sheet's share of them, as far as it has been inflated.
    const ratio = sheet.compressedSize / Math.max(1, sheet.uncompressedSize);
    const inflated = onBytes && ((bytes: number) => onBytes(Math.round(bytes * ratio)));
    yield* parseEntry(zip, sheet, limits, parser, () => ready.splice(0), inflated);
  } finally {
    zip.close();
  }
}

function cellValue(
  cell: { type: string; style: number; text: string | null },
  strings: string[],
  dates: Set<number>,
  date1904: boolean,
): Cell {
  const text = cell.text;
  if (text === null) return null;
  switch (cell.type) {
    case 's':
      return strings[Number(text)] ?? null;
    case 'inlineStr':
    case 'str':
    case 'e':
      return text;
    case 'b':
      return text === '1' || text === 'true';
    case 'd':
      return new Date(text);
    default: {
      const n = Number(text);
      if (!Number.isFinite(n)) return text;
      return dates.has(cell.style) ? excelDate(n, date1904) : n;
    }
  }
}
