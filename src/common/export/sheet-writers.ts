import type ExcelJS from 'exceljs';
import { PassThrough, Writable } from 'node:stream';
import { csvLine } from './csv';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A column of an export: its field, and how an XLSX cell types it (from the item DTO's OpenAPI format). */
export interface ExportColumn {
  field: string;
  /** The header cell; the field when absent. */
  header?: string;
  /** How an XLSX cell types it; an amount is decimal text (a number with its own decimals). */
  kind: 'date' | 'date-time' | 'amount' | 'other';
  /** A value inside an object property (custom_fields.badge): the property and the name; a list's values joined by ";". */
  within?: { property: string; name: string };
}

/** A row's value of a column. */
function cellOf(item: Record<string, unknown>, c: ExportColumn): unknown {
  if (!c.within) return item[c.field];
  const value = (item[c.within.property] as Record<string, unknown> | null | undefined)?.[c.within.name];
  return Array.isArray(value) ? value.join(';') : value;
}

/** Writes an export's rows to `out`, in order: the header once, rows page by page, then end. */
export interface SheetWriter {
  rows(items: ReadonlyArray<Record<string, unknown>>): Promise<void>;
  end(): Promise<void>;
}

/** Until `out` takes more, or is closed (a client that hung up): backpressure, memory holds a page. */
function drained(out: Writable): Promise<void> {
  if (!out.writableNeedDrain || out.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

function write(out: Writable, chunk: string): Promise<void> {
  out.write(chunk);
  return drained(out);
}

export async function csvWriter(out: PassThrough, columns: readonly ExportColumn[]): Promise<SheetWriter> {
  await write(out, csvLine(columns.map((c) => c.header ?? c.field)));
  return {
    rows: (items) => write(out, items.map((item) => csvLine(columns.map((c) => cellOf(item, c)))).join('')),
    end: async () => {
      out.end();
    },
  };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** An amount's number format: as many decimals as its text has (the currency's minor unit). */
function amountFormat(value: unknown): string {
  const decimals = typeof value === 'string' ? (value.split('.')[1]?.length ?? 0) : 0;
  return decimals ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
}

/** A YYYY-MM-DD day or an ISO instant as a Date cell (UTC), an amount as a number; anything else as it is. */
function cellValue(value: unknown, kind: ExportColumn['kind']): ExcelJS.CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (kind === 'amount' && DECIMAL.test(value)) return Number(value);
    if (kind === 'date' || kind === 'date-time') {
      const at = Date.parse(kind === 'date' ? `${value}T00:00:00Z` : value);
      if (Number.isFinite(at)) return new Date(at);
    }
    return value; // a string cell: never a formula, whatever its first character
  }
  return JSON.stringify(value);
}

/**
 * XLSX through ExcelJS's streaming writer: typed cells (numbers, dates), a bold header row and
 * frozen panes below it; rows are committed as they come, so memory holds a page, not the sheet.
 * Inline strings (no shared-string table, which would grow with the sheet).
 */
export async function xlsxWriter(out: PassThrough, columns: readonly ExportColumn[], sheetName: string): Promise<SheetWriter> {
  // Loaded when a spreadsheet is first written: 0.4 s of every start (and of every test file) otherwise.
  const { stream } = (await import('exceljs')).default;
  const workbook = new stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((c) => ({
    header: c.header ?? c.field,
    key: c.field,
    width: Math.max(12, (c.header ?? c.field).length + 2),
    style: c.kind === 'date' ? { numFmt: 'yyyy-mm-dd' } : c.kind === 'date-time' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  return {
    rows: async (items) => {
      for (const item of items) {
        const values = columns.map((c) => cellOf(item, c));
        const row = sheet.addRow(columns.map((c, i) => cellValue(values[i], c.kind)));
        columns.forEach((c, i) => {
          if (c.kind === 'amount' && values[i] !== null) row.getCell(i + 1).numFmt = amountFormat(values[i]);
        });
        row.commit();
      }
      await drained(out); // the zip stream's output drains before the next page
    },
    end: async () => {
      sheet.commit();
      await workbook.commit();
    },
  };
}

/** The content type of each sheet format. */
export const SHEET_CONTENT_TYPES = { csv: 'text/csv; charset=utf-8', xlsx: XLSX_TYPE } as const;

/** The writer of a sheet format onto `out`. */
export function sheetWriter(
  out: PassThrough,
  format: keyof typeof SHEET_CONTENT_TYPES,
  columns: readonly ExportColumn[],
  sheetName: string,
): Promise<SheetWriter> {
  return format === 'csv' ? csvWriter(out, columns) : xlsxWriter(out, columns, sheetName);
}
