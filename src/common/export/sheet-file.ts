import type { FastifyReply } from 'fastify';
import { PassThrough, Readable } from 'node:stream';
import { ExportColumn, SHEET_CONTENT_TYPES, sheetWriter } from './sheet-writers';

/** Rows per write: the writer waits for the client between them (backpressure). */
const CHUNK = 1000;

/**
 * A computed sheet (the payroll register, the journal) as a CSV or XLSX attachment: written to the
 * reply as the client takes it. The rows are already in memory (they are computed as a whole: the
 * register's subtotals, the journal's sums); the file is not.
 */
export function sendSheet(
  reply: FastifyReply,
  format: 'csv' | 'xlsx',
  fileName: string,
  columns: readonly ExportColumn[],
  rows: ReadonlyArray<Record<string, unknown>>,
): Readable {
  const out = new PassThrough();
  const pump = async () => {
    const writer = await sheetWriter(out, format, columns, fileName);
    for (let i = 0; i < rows.length && !out.destroyed; i += CHUNK) await writer.rows(rows.slice(i, i + CHUNK));
    if (!out.destroyed) await writer.end();
  };
  pump().catch((err: Error) => out.destroy(err));
  void reply
    .header('content-type', SHEET_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${fileName}.${format}"`);
  return out;
}
