import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parse } from 'csv-parse';
import { SaxesParser, SaxesTagPlain } from 'saxes';
import * as yauzl from 'yauzl';
import { timeSlices } from '../async/time-slices';

/** A cell as read: text, a number, a boolean, a date (an XLSX date cell), or empty. */
export type Cell = string | number | boolean | Date | null;

/**
 * A row of the sheet: its number (1 = the sheet's first line) and its cells by column (0 = A). An
 * XLSX row is sparse (an absent cell is a hole, read as empty), so a lone cell far right costs one entry.
 */
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
  /** Bytes an XLSX file unpacks to, all its parts together (a zip bomb's tell); the worksheet streams. */
  maxUnzippedBytes: number;
  /** An XLSX file's shared strings, which are held while its rows are read: their count... */
  maxSharedStrings?: number;
  /** ...and their characters together. */
  maxSharedStringChars?: number;
}

/** The defaults of the bounds above that a caller may leave out (config.ts has the same, as IMPORT_MAX_SHARED_*). */
export const SHARED_STRINGS_DEFAULT = 1_000_000;
export const SHARED_STRING_CHARS_DEFAULT = 32_000_000;

/**
 * Parts read before the worksheet (workbook, its relationships, styles) are parsed as they inflate
 * but are bounded on their own: real ones are kilobytes, a hostile one is hundreds of megabytes.
 */
export const MAX_META_PART_BYTES = 16 * 1024 * 1024;
/** Sheets a workbook may list, relationships it may have, number formats and cell styles (Excel's own limit is 64 000). */
export const MAX_SHEETS = 1_000;
export const MAX_RELATIONSHIPS = 10_000;
export const MAX_NUMBER_FORMATS = 4_096;
export const MAX_CELL_STYLES = 64_000;
/** Excel's last row. */
const MAX_ROW_NUMBER = 1_048_576;

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

/**
 * No cell with a value. Over the cells present only: a row is sparse (one cell in column XFD is
 * one entry), and `every` walks all 16 384 indexes of such a row (20 000 of them held the event
 * loop for 350 ms, over a second beside other work).
 */
const isEmpty = (cells: Cell[]) => {
  for (const c of Object.values(cells)) if (c !== null && c !== '') return false;
  return true;
};

function tooLong(limits: ReadLimits, where: string): SheetFileError {
  return new SheetFileError(`${where}: a cell longer than ${limits.maxCellChars} characters`);
}

function tooManyRows(limits: ReadLimits): SheetFileError {
  return new SheetFileError(`The file has more than ${limits.maxRows} rows; split it into several imports`);
}

async function* readCsv(path: string, limits: ReadLimits, onBytes?: (bytes: number) => void): AsyncGenerator<SheetRow> {
  const input = createReadStream(path);
  let bytes = 0;
  // CSV is read as UTF-8: a Latin-1 (or UTF-16) file would import with U+FFFD in place of its
  // accents, silently (issue 41). A byte sequence that is not UTF-8 refuses the file, naming its line.
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  const refused: { error: SheetFileError | null } = { error: null };
  input.on('data', (data: string | Buffer) => {
    const chunk = data as Buffer; // no encoding set: Buffers
    onBytes?.((bytes += chunk.length));
    if (refused.error) return;
    try {
      utf8.decode(chunk, { stream: true });
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
    } catch {
      refused.error = new SheetFileError(
        `The file is not UTF-8 text (near line ${lines + countLinesBeforeInvalid(chunk)}): save it as "CSV UTF-8" and upload it again`,
      );
      parser.destroy(refused.error); // pipe() forwards no error: the parser ends the loop below
      input.destroy();
    }
  });
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
    if (refused.error) throw refused.error;
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

/** Line feeds before the first byte of `chunk` that does not start valid UTF-8 (the decoder said one is there). */
function countLinesBeforeInvalid(chunk: Buffer): number {
  let lo = 0;
  let hi = chunk.length;
  // The longest prefix that decodes: binary search (a prefix cut inside a character is accepted by stream mode).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(chunk.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  let lines = 0;
  for (let i = chunk.indexOf(10); i !== -1 && i < lo; i = chunk.indexOf(10, i + 1)) lines++;
  return lines;
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
  // Chunks already inflated follow each other in microtasks: without a pause a sheet of 20 000
  // rows held the event loop for 160 ms in one stretch (parsing, issue 41's hostile files).
  const slices = timeSlices();
  try {
    for await (const text of entryText(zip, entry, limits, onInflated)) {
      parser.write(text);
      yield* drain();
      if (slices.due()) await slices.pause();
    }
    parser.close();
    yield* drain();
  } catch (err) {
    if (err instanceof SheetFileError) throw err;
    throw new SheetFileError(`Not a readable XLSX file (${entry.fileName}: ${(err as Error).message.split('\n')[0]})`);
  }
}

/** A part before the worksheet, parsed as it inflates, within MAX_META_PART_BYTES. */
async function parseMetaPart(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry | undefined,
  limits: ReadLimits,
  parser: SaxesParser,
): Promise<void> {
  if (!entry) return;
  const bounded = { ...limits, maxUnzippedBytes: Math.min(limits.maxUnzippedBytes, MAX_META_PART_BYTES) };
  try {
    for await (const _ of parseEntry(zip, entry, bounded, parser, () => [])) void _;
  } catch (err) {
    if (err instanceof SheetFileError && err.message.startsWith('The workbook unpacks'))
      throw new SheetFileError(`${entry.fileName} unpacks to more than ${MAX_META_PART_BYTES / 1048576} MiB; it is refused`);
    throw err;
  }
}

function tooMany(what: string, max: number): SheetFileError {
  return new SheetFileError(`The workbook has more than ${max} ${what}; it is refused`);
}

/** Local name of a tag (`x:sheet` → `sheet`): workbooks may use a prefix for the main namespace. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The workbook's first sheet's relationship id and its date system, from a streamed parse (at most MAX_SHEETS sheets). */
async function readWorkbook(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry | undefined,
  limits: ReadLimits,
): Promise<{ sheetId: string | null; date1904: boolean }> {
  const parser = xmlParser();
  let sheetId: string | null = null;
  let sheets = 0;
  let date1904 = false;
  parser.on('opentag', (tag) => {
    const attr = tag.attributes as Record<string, string>;
    const name = localName(tag.name);
    if (name === 'workbookPr') date1904 = attr.date1904 === '1' || attr.date1904 === 'true';
    else if (name === 'sheet') {
      if (++sheets > MAX_SHEETS) throw tooMany('sheets', MAX_SHEETS);
      if (sheetId === null) sheetId = attr['r:id'] ?? Object.entries(attr).find(([k]) => localName(k) === 'id')?.[1] ?? null;
    }
  });
  await parseMetaPart(zip, entry, limits, parser);
  return { sheetId, date1904 };
}

/** The first worksheet's part name, from the workbook's relationships (at most MAX_RELATIONSHIPS). */
async function sheetPathOf(
  zip: yauzl.ZipFile,
  entry: yauzl.Entry | undefined,
  limits: ReadLimits,
  sheetId: string | null,
): Promise<string> {
  if (sheetId === null) throw new SheetFileError('The workbook has no worksheet');
  const parser = xmlParser();
  let target: string | null = null;
  let count = 0;
  parser.on('opentag', (tag) => {
    if (localName(tag.name) !== 'Relationship') return;
    if (++count > MAX_RELATIONSHIPS) throw tooMany('relationships', MAX_RELATIONSHIPS);
    const attr = tag.attributes as Record<string, string>;
    if (target === null && attr.Id === sheetId && attr.Target) target = attr.Target;
  });
  await parseMetaPart(zip, entry, limits, parser);
  if (target === null) throw new SheetFileError('The workbook has no worksheet');
  const path: string = target;
  return path.startsWith('/') ? path.slice(1) : `xl/${path}`;
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

/** The cell style indexes (cellXfs) whose number format is a date, from styles.xml parsed as it inflates. */
async function dateStyles(zip: yauzl.ZipFile, entry: yauzl.Entry | undefined, limits: ReadLimits): Promise<Set<number>> {
  const custom = new Map<number, string>();
  const out = new Set<number>();
  const parser = xmlParser();
  let inCellXfs = false;
  let index = 0;
  parser.on('opentag', (tag) => {
    const attr = tag.attributes as Record<string, string>;
    if (tag.name === 'numFmt') {
      if (custom.size >= MAX_NUMBER_FORMATS) throw tooMany('number formats', MAX_NUMBER_FORMATS);
      custom.set(Number(attr.numFmtId), (attr.formatCode ?? '').slice(0, 255));
    } else if (tag.name === 'cellXfs') inCellXfs = true;
    else if (tag.name === 'xf' && inCellXfs) {
      if (index >= MAX_CELL_STYLES) throw tooMany('cell styles', MAX_CELL_STYLES);
      const id = Number(attr.numFmtId ?? 0);
      if (DATE_FORMAT_IDS.has(id) || isDateFormat(custom.get(id) ?? '')) out.add(index);
      index++;
    }
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'cellXfs') inCellXfs = false;
  });
  await parseMetaPart(zip, entry, limits, parser);
  return out;
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
  const maxCount = limits.maxSharedStrings ?? SHARED_STRINGS_DEFAULT;
  const maxChars = limits.maxSharedStringChars ?? SHARED_STRING_CHARS_DEFAULT;
  let chars = 0;
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
      if (strings.length >= maxCount)
        throw new SheetFileError(
          `The workbook has more than ${maxCount} shared strings (IMPORT_MAX_SHARED_STRINGS); split it into several imports`,
        );
      chars += current.length;
      if (chars > maxChars)
        throw new SheetFileError(
          `The workbook's shared strings hold more than ${maxChars} characters (IMPORT_MAX_SHARED_STRING_CHARS); split it into several imports`,
        );
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
    const { sheetId, date1904 } = await readWorkbook(zip, entries.get('xl/workbook.xml'), limits);
    const sheetPath = await sheetPathOf(zip, entries.get('xl/_rels/workbook.xml.rels'), limits, sheetId);
    const sheet = entries.get(sheetPath);
    if (!sheet) throw new SheetFileError('The workbook has no worksheet');
    const dates = await dateStyles(zip, entries.get('xl/styles.xml'), limits);
    const strings = await sharedStrings(zip, entries.get('xl/sharedStrings.xml'), limits);

    const parser = xmlParser();
    const ready: SheetRow[] = [];
    let row: SheetRow | null = null;
    let cell: { column: number; type: string; style: number; text: string | null } | null = null;
    let inValue = false;
    let nextColumn = 0;
    let rows = 0;
    // The last row's number: a row without `r` is the one after it (ECMA-376 18.3.1.73).
    let lastNumber = 0;
    parser.on('opentag', (tag: SaxesTagPlain) => {
      const attr = tag.attributes as Record<string, string>;
      if (tag.name === 'row') {
        const number = attr.r === undefined ? lastNumber + 1 : Number(attr.r);
        if (!Number.isInteger(number) || number <= lastNumber || number > MAX_ROW_NUMBER)
          throw new SheetFileError(`Row ${lastNumber + 1}: a row number "${String(attr.r).slice(0, 20)}" out of order or range`);
        lastNumber = number;
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
        // Kept sparse: a cell in column XFD is one entry, not 16 384 (readers skip the holes).
        const cells = row.cells;
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
