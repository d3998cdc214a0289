import { ImportRow, RowDetail, RowError } from '../common/import/import-kind';

/** Errors kept per import (the count goes on): enough to fix a file, bounded whatever the file. */
export const MAX_STORED_ERRORS = 10_000;

/** "1 invalid row", "2 invalid rows". */
export const rowsOf = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** A pass's counters and the errors not yet written. */
export class Tally {
  total = 0;
  failed = 0;
  stored = 0;
  pending: RowError[] = [];
  /** The file's header text of each field: an error names its column as the file does. */
  headers = new Map<string, string>();

  /** Counts a checked batch and keeps its rows' errors (up to MAX_STORED_ERRORS); returns how many rows failed. */
  add(rows: readonly ImportRow[], problems: readonly RowDetail[]): number {
    this.total += rows.length;
    const failedRows = new Set(problems.map((p) => p.row));
    this.failed += failedRows.size;
    for (const p of problems)
      this.keep({ row: p.row, column: this.headers.get(p.field) ?? null, field: p.field || null, message: p.message });
    return failedRows.size;
  }

  keep(error: RowError): void {
    if (this.stored++ < MAX_STORED_ERRORS) this.pending.push(error);
  }

  /** The errors to write now (and forget). */
  take(): RowError[] {
    return this.pending.splice(0);
  }
}
