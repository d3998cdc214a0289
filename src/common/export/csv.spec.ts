import { csvCell, csvLine } from './csv';

describe('CSV cells (issue 27)', () => {
  it('quotes as RFC 4180 and keeps numbers as numbers', () => {
    expect(csvLine([1, 'a,b', 'say "hi"', 'two\nlines', null, true, -12.5])).toBe(
      '1,"a,b","say ""hi""","two\nlines",,true,-12.5\r\n',
    );
    expect(csvCell({ a: [1, 2] })).toBe('"{""a"":[1,2]}"');
  });

  it('neutralizes text a spreadsheet would run as a formula (OWASP CSV injection)', () => {
    for (const payload of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', '=HYPERLINK("http://evil","x")'])
      expect(csvCell(payload).replace(/^"|"$/g, '').startsWith("'")).toBe(true);
    expect(csvCell('=cmd|" /C calc"!A0')).toBe('"\'=cmd|"" /C calc""!A0"');
    expect(csvCell('Smith-Jones')).toBe('Smith-Jones');
    // A number written as text (an amount) is a number, not a formula.
    expect([csvCell('-12.50'), csvCell('-3'), csvCell('-1+2')]).toEqual(['-12.50', '-3', "'-1+2"]);
  });
});
