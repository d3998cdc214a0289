import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { row, workbook } from '../../../test/helpers/zip';
import { cellValue, headerKey } from './import-kind';
import { excelDate, isDateFormat, readSheet, ReadLimits, SheetRow, sniffFormat } from './sheet-readers';

const LIMITS: ReadLimits = { maxRows: 10, maxCellChars: 20, maxUnzippedBytes: 1024 * 1024 };

async function rows(text: string | Buffer, format: 'csv' | 'xlsx' = 'csv', limits = LIMITS): Promise<SheetRow[]> {
  const path = join(mkdtempSync(join(tmpdir(), 'sheet-')), `f.${format}`);
  writeFileSync(path, text);
  const out: SheetRow[] = [];
  for await (const r of readSheet(path, format, limits)) out.push(r);
  return out;
}

const xlsx = (parts: Parameters<typeof workbook>[0], limits = LIMITS) => rows(workbook(parts), 'xlsx', limits);

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

  // Issue 41, item 11: a Latin-1 CSV imported silently with U+FFFD in place of its accents.
  it('refuses a CSV that is not UTF-8, naming the line', async () => {
    const latin1 = Buffer.concat([Buffer.from('id,name\n1,Ann\n2,'), Buffer.from([0x4a, 0xf6, 0x72, 0x67]), Buffer.from('\n')]);
    await expect(rows(latin1)).rejects.toThrow('The file is not UTF-8 text (near line 3)');
    expect(await rows(Buffer.from('id,name\n1,Jörg\n'))).toEqual([
      { number: 1, cells: ['id', 'name'] },
      { number: 2, cells: ['1', 'Jörg'] },
    ]);
  });

  describe('hostile workbooks (issue 41)', () => {
    // Item 1: `<sheet ` 60 000 times took the old patterns 12.9 s of one event loop (quadratic backtracking).
    it('parses the workbook part as XML, not with patterns that backtrack: a broken one is refused at once', async () => {
      const broken = '<workbook>' + '<sheet '.repeat(60_000);
      await expect(xlsx({ 'xl/workbook.xml': broken })).rejects.toThrow(/Not a readable XLSX file \(xl\/workbook\.xml/);
      const rels = '<Relationships>' + '<Relationship '.repeat(60_000);
      await expect(xlsx({ 'xl/_rels/workbook.xml.rels': rels })).rejects.toThrow(/xl\/_rels\/workbook\.xml\.rels/);
    }, 3000);

    it('caps the sheets and relationships a workbook may list', async () => {
      const sheets = Array.from({ length: 1001 }, (_, i) => `<sheet name="s${i}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
      await expect(
        xlsx({ 'xl/workbook.xml': `<workbook xmlns:r="r"><sheets>${sheets.join('')}</sheets></workbook>` }),
      ).rejects.toThrow('more than 1000 sheets');
      const rels = Array.from({ length: 10_001 }, (_, i) => `<Relationship Id="x${i}" Target="t"/>`);
      await expect(xlsx({ 'xl/_rels/workbook.xml.rels': `<Relationships>${rels.join('')}</Relationships>` })).rejects.toThrow(
        'more than 10000 relationships',
      );
    });

    it('reads a prefixed main namespace and the 1904 date system', async () => {
      const book =
        '<x:workbook xmlns:x="m" xmlns:r="r"><x:workbookPr date1904="1"/><x:sheets><x:sheet name="S" sheetId="1" r:id="rId1"/></x:sheets></x:workbook>';
      const styles = '<styleSheet><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>';
      const read = await xlsx({
        'xl/workbook.xml': book,
        'xl/styles.xml': styles,
        sheetData: '<row r="1"><c r="A1" s="1"><v>0</v></c></row>',
      });
      expect(read).toEqual([{ number: 1, cells: [new Date(Date.UTC(1904, 0, 1))] }]);
    });

    // Item 2: 40 000 000 empty <si/> (a 292 KB upload) took a 256 MiB worker past its heap, on every retry.
    it('bounds the shared strings it holds, by count and by characters, naming the bound', async () => {
      const many = `<sst>${'<si/>'.repeat(1001)}</sst>`;
      await expect(xlsx({ 'xl/sharedStrings.xml': many }, { ...LIMITS, maxSharedStrings: 1000 })).rejects.toThrow(
        'more than 1000 shared strings (IMPORT_MAX_SHARED_STRINGS)',
      );
      const long = `<sst>${'<si><t>0123456789</t></si>'.repeat(11)}</sst>`;
      await expect(xlsx({ 'xl/sharedStrings.xml': long }, { ...LIMITS, maxSharedStringChars: 100 })).rejects.toThrow(
        'more than 100 characters (IMPORT_MAX_SHARED_STRING_CHARS)',
      );
    });

    it('refuses a styles part of more than 16 MiB instead of reading it whole', async () => {
      const styles = `<styleSheet>${' '.repeat(17 * 1024 * 1024)}</styleSheet>`;
      await expect(xlsx({ 'xl/styles.xml': styles }, { ...LIMITS, maxUnzippedBytes: 64 * 1024 * 1024 })).rejects.toThrow(
        'xl/styles.xml unpacks to more than 16 MiB',
      );
      const xfs = `<styleSheet><cellXfs>${'<xf/>'.repeat(64_001)}</cellXfs></styleSheet>`;
      await expect(xlsx({ 'xl/styles.xml': xfs })).rejects.toThrow('more than 64000 cell styles');
    });

    it('keeps a row sparse: one cell in column XFD is one entry, not 16 384', async () => {
      const [read] = await xlsx({ sheetData: '<row r="2"><c r="XFD2" t="inlineStr"><is><t>far</t></is></c></row>' });
      expect(read.number).toBe(2);
      expect(read.cells.length).toBe(16_384);
      expect(Object.keys(read.cells)).toEqual(['16383']);
      expect(read.cells[16_383]).toBe('far');
    });

    // Item 7: rows without `r` were all row 1 (the previous row was forgotten before the next was numbered).
    it('numbers rows without `r` after the row before them, and refuses rows out of order', async () => {
      const read = await xlsx({ sheetData: row(['a']) + row(['b']) + row(['c'], 7) + row(['d']) });
      expect(read.map((r) => [r.number, r.cells[0]])).toEqual([
        [1, 'a'],
        [2, 'b'],
        [7, 'c'],
        [8, 'd'],
      ]);
      await expect(xlsx({ sheetData: row(['a'], 5) + row(['b'], 3) })).rejects.toThrow('out of order or range');
    });
  });
});
