import type { FastifyReply } from 'fastify';
import { PassThrough, Readable } from 'node:stream';
import { ExportColumn, SHEET_CONTENT_TYPES, sheetWriter } from './sheet-writers';

/** Rows per write: the writer waits for the client between them (backpressure). */
const CHUNK = 1000;

/**
 * A computed sheet (the payroll register, the journal) as a CSV or XLSX attachment: written to the
 * reply as the client takes it. The rows are in memory (the journal's sums) or come page by page
 * (the register's, issue 70): the file is never in memory; a client that hangs up stops the pages.
 */
export function sendSheet(
  reply: FastifyReply,
  format: 'csv' | 'xlsx',
  fileName: string,
  columns: readonly ExportColumn[],
  rows: ReadonlyArray<Record<string, unknown>> | AsyncIterable<ReadonlyArray<Record<string, unknown>>>,
): Readable {
  const out = new PassThrough();
  const pump = async () => {
    const writer = await sheetWriter(out, format, columns, fileName);
    if (Symbol.asyncIterator in rows) {
      for await (const page of rows) {
        if (out.destroyed) break;
        await writer.rows(page);
      }
    } else for (let i = 0; i < rows.length && !out.destroyed; i += CHUNK) await writer.rows(rows.slice(i, i + CHUNK));
    if (!out.destroyed) await writer.end();
  };
  pump().catch((err: Error) => out.destroy(err));
  void reply
    .header('content-type', SHEET_CONTENT_TYPES[format])
    .header('content-disposition', `attachment; filename="${fileName}.${format}"`);
  return out;
}
