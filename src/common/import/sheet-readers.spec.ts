import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cellValue, headerKey } from './import-kind';
import { excelDate, isDateFormat, readSheet, SheetRow, sniffFormat } from './sheet-readers';

const LIMITS = { maxRows: 10, maxCellChars: 20, maxUnzippedBytes: 1024 * 1024 };

async function rows(text: string | Buffer): Promise<SheetRow[]> {
  const path = join(mkdtempSync(join(tmpdir(), 'sheet-')), 'f.csv');
  writeFileSync(path, text);
  const out: SheetRow[] = [];
  for await (const r of readSheet(path, 'csv', LIMITS)) out.push(r);
  return out;
}

describe('reading spreadsheets (issue 27)', () => {
  it('tells XLSX (a zip) from CSV text by the first bytes; binary is neither', () => {
    expect(sniffFormat(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1]))).toBe('xlsx');
    expect(sniffFormat(Buffer.from('employee_id\nE1\n'))).toBe('csv');
    expect(sniffFormat(Buffer.from([0x41, 0, 0x42]))).toBeNull();
  });

  it('knows date formats from number formats, quoted text and colours aside', () => {
    expect(['yyyy-mm-dd', 'dd/mm/yyyy', 'h:mm', '[$-409]d-mmm-yy'].map(isDateFormat)).toEqual([true, true, true, true]);
    expect(['0.00', '#,##0', '"days"0', '[Red]0.00', 'General'].map(isDateFormat)).toEqual([false, false, false, false, false]);
    expect(excelDate(45000, false).toISOString()).toBe('2023-03-15T00:00:00.000Z');
    expect(excelDate(45000 - 1462, true).toISOString()).toBe('2023-03-15T00:00:00.000Z');
  });

  it('reads CSV with a BOM, quoted cells over several lines, empty lines skipped, rows by line', async () => {
    const read = await rows('\ufeffid,name\n\n1,"two\nlines"\n2,"say ""hi"""\n');
    expect(read).toEqual([
      { number: 1, cells: ['id', 'name'] },
      { number: 4, cells: ['1', 'two\nlines'] },
      { number: 5, cells: ['2', 'say "hi"'] },
    ]);
  });

  it('refuses a cell past the limit and a file past the row limit', async () => {
    await expect(rows(`a\n${'x'.repeat(21)}\n`)).rejects.toThrow('Line 2: a cell longer than 20 characters');
    await expect(rows(['a', ...Array.from({ length: 11 }, (_, i) => String(i))].join('\n'))).rejects.toThrow('more than 10 rows');
  });

  it('matches headers whatever their case and spacing; reads cells as the JSON fields they become', () => {
    expect(headerKey(' Employee  ID ')).toBe(headerKey('employee_id'));
    expect(cellValue("'=SUM(A1)", 'text')).toBe('=SUM(A1)');
    expect(cellValue("'quoted", 'text')).toBe("'quoted");
    expect(cellValue(1002, 'text')).toBe('1002');
    expect(cellValue('12.50', 'number')).toBe(12.5);
    expect(cellValue('1,250', 'number')).toBe('1,250');
    expect(['yes', 'No', '1', 'maybe'].map((v) => cellValue(v, 'boolean'))).toEqual([true, false, true, 'maybe']);
    expect(cellValue(new Date(Date.UTC(2024, 1, 29)), 'date')).toBe('2024-02-29');
    expect(cellValue(new Date(Date.UTC(2024, 1, 29, 9, 30)), 'date-time')).toBe('2024-02-29T09:30:00Z');
    expect(cellValue('  ', 'text')).toBeUndefined();
  });
});
