import { textPdf } from './demo-pdf';

describe('textPdf', () => {
  it('writes a cross-reference table whose offsets point at its objects', () => {
    const pdf = textPdf(['Passport', 'Ünïcode (and parentheses) \\ escaped']).toString('latin1');
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)![1]);
    expect(pdf.slice(startxref, startxref + 5)).toBe('xref\n');
    const entries = pdf.slice(startxref).split('\n').slice(3, 8);
    entries.forEach((entry, i) => {
      const offset = Number(entry.slice(0, 10));
      expect(pdf.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
    });
    const length = Number(/\/Length (\d+) >>\nstream\n/.exec(pdf)![1]);
    const stream = pdf.slice(pdf.indexOf('stream\n') + 7, pdf.indexOf('\nendstream'));
    expect(stream).toHaveLength(length);
    expect(stream).toContain('(?n?code \\(and parentheses\\) \\\\ escaped) Tj');
  });
});
