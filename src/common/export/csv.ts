/**
 * CSV as RFC 4180 writes it (comma, CRLF, quotes doubled), safe to open in a spreadsheet: a text
 * cell beginning with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with an apostrophe, so
 * that no spreadsheet reads it as a formula (OWASP, CSV injection). Numbers are written as numbers
 * (a negative amount stays a number, also as decimal text); null is an empty cell; an object or
 * array is its JSON text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A number written as text (an amount, "-12.50"): a number to a spreadsheet, never a formula. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  let text =
    value instanceof Date
      ? value.toISOString()
      : typeof value === 'string'
        ? value
        : typeof value === 'object'
          ? JSON.stringify(value)
          : typeof value === 'bigint'
            ? value.toString()
            : '';
  if (FORMULA_START.test(text) && !NUMBER_TEXT.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
