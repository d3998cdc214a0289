import { stat } from 'node:fs/promises';
import { timeSlices } from '../common/async/time-slices';
import { headerKey, ImportKind, ImportRow, ImportSession } from '../common/import/import-kind';
import { readSheet, SheetFileError } from '../common/import/sheet-readers';
import { AppConfig } from '../config/config';
import { ImportRecord } from './entities/import.entities';
import { Tally } from './import-tally';

/** A file being read: its batches of rows, and how far into the file the reader is (0-99). */
export interface Source {
  batches: AsyncGenerator<ImportRow[]>;
  progress(): number;
}

/**
 * Opens the file and reads its header: each column's field (API name or label, case and spacing
 * ignored); unknown columns are reported once (row 0) and ignored; a missing required column or
 * a field given twice refuses the file.
 */
export async function openSource(
  path: string,
  record: ImportRecord,
  kind: ImportKind,
  tally: Tally,
  limits: AppConfig['imports'],
  /** The run's session: its own columns, when it has them. */
  session?: Pick<ImportSession, 'columns'>,
): Promise<Source> {
  const size = (await stat(path)).size;
  let bytes = 0;
  const rows = readSheet(path, record.format, limits, (b) => (bytes = b));
  const first = await rows.next();
  if (first.done) throw new SheetFileError('The file is empty: a header row and data rows are expected');
  const header = first.value;
  const byKey = new Map<string, string>();
  const columns = session?.columns ?? kind.columns;
  for (const c of columns) {
    byKey.set(headerKey(c.field), c.field);
    byKey.set(headerKey(c.label), c.field);
  }
  const fields = header.cells.map((cell, i) => {
    const text = cell === null ? '' : String(cell instanceof Date ? cell.toISOString() : cell).trim();
    const field = byKey.get(headerKey(text));
    if (!field) {
      if (text !== '') tally.keep({ row: 0, column: text, field: null, message: 'is not a column of this kind: ignored' });
      return null;
    }
    if (tally.headers.has(field)) throw new SheetFileError(`Columns ${tally.headers.get(field)} and ${text} are both ${field}`);
    tally.headers.set(field, text || `column ${i + 1}`);
    return field;
  });
  const missing = columns.filter((c) => c.required && !tally.headers.has(c.field)).map((c) => c.field);
  if (missing.length) throw new SheetFileError(`The file has no ${missing.join(', ')} column (the header row is the first row)`);
  // The kind's columns by position: a row costs its known columns, whatever else the sheet holds.
  const known: [number, string][] = [];
  fields.forEach((field, i) => field && known.push([i, field]));
  const batches = async function* (): AsyncGenerator<ImportRow[]> {
    let batch: ImportRow[] = [];
    const slices = timeSlices(); // reading a file's rows is synchronous work too
    for await (const line of rows) {
      if (slices.due()) await slices.pause();
      const values = new Map<string, (typeof line.cells)[number]>();
      for (const [i, field] of known) if (i < line.cells.length) values.set(field, line.cells[i] ?? null);
      batch.push({ row: line.number - header.number, values });
      if (batch.length >= kind.batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  };
  return { batches: batches(), progress: () => Math.min(99, Math.floor((bytes / Math.max(1, size)) * 100)) };
}
