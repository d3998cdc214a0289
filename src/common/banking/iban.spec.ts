import { bicProblem, ibanProblem, maskIban, normalizeIban } from './iban';
import { sepaId, sepaText } from './sepa-text';

/** ISO 13616's check digits computed here, independently of the library: 98 - (BBAN + country + 00) mod 97. */
function checkDigits(country: string, bban: string): string {
  const digits = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return String(98n - (BigInt(digits) % 97n)).padStart(2, '0');
}

describe('IBAN and BIC checks', () => {
  // The examples of the SWIFT IBAN registry and of the EPC's SEPA documentation.
  const published = [
    'GB82 WEST 1234 5698 7654 32',
    'DE89 3704 0044 0532 0130 00',
    'FR14 2004 1010 0505 0001 3M02 606',
    'NL91 ABNA 0417 1643 00',
    'BE68 5390 0754 7034',
    'CH93 0076 2011 6238 5295 7',
    'AT61 1904 3002 3457 3201',
    'ES91 2100 0418 4502 0005 1332',
    'IT60 X054 2811 1010 0000 0123 456',
    'NO93 8601 1117 947',
    'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
    'fi21 1234 5600 0007 85',
  ];

  it.each(published)('accepts %s', (iban) => {
    expect(ibanProblem(normalizeIban(iban))).toBeNull();
  });

  it.each([
    ['GB82 WEST 1234 5698 7654 33', 'checksum'],
    ['DE89 3704 0044 0532 0130 01', 'checksum'],
    ['GB28 WEST 1234 5698 7654 32', 'checksum'],
    ['DE89 3704 0044 0532 0130 0', 'length'],
    ['NL91 ABNA 0417 1643 001', 'length'],
    ['XX89 3704 0044 0532 0130 00', 'country'],
    ['US64 SVBK US6S 3300 9673 8637', 'country'],
    ['GB82 1234 1234 5698 7654 32', 'format'],
    ['DE89#3704', 'letters or digits'],
    ['', 'letters or digits'],
  ])('refuses %s naming the %s', (iban, reason) => {
    const problem = ibanProblem(normalizeIban(iban));
    expect(problem).not.toBeNull();
    expect(problem).toContain(reason === 'format' ? 'account format' : reason === 'country' ? 'does not use IBANs' : reason);
  });

  it('agrees with an independent mod-97 computation, and refuses every swap of two different adjacent digits', () => {
    let seed = 46;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 300; n++) {
      const bban = Array.from({ length: 18 }, () => Math.floor(random() * 10)).join(''); // DE: 8-digit bank code, 10-digit account
      const iban = `DE${checkDigits('DE', bban)}${bban}`;
      expect(ibanProblem(iban)).toBeNull();
      const i = 4 + Math.floor(random() * 17);
      if (iban[i] === iban[i + 1]) continue;
      const swapped = `${iban.slice(0, i)}${iban[i + 1]}${iban[i]}${iban.slice(i + 2)}`;
      expect(ibanProblem(swapped)).toContain('checksum');
    }
  });

  it('checks BICs by ISO 9362', () => {
    for (const bic of ['DEUTDEFF', 'DEUTDEFF500', 'NEDSZAJJXXX', 'BNPAFRPP', 'UBSWCHZH80A']) expect(bicProblem(bic)).toBeNull();
    expect(bicProblem('DEUTDEF')).toContain('8 or 11');
    expect(bicProblem('DEUTDEFF5')).toContain('8 or 11');
    expect(bicProblem('deutdeff')).toContain('8 or 11');
    expect(bicProblem('DEUTQQFF')).toContain('country');
  });

  it('masks all but the country, check digits and last four', () => {
    expect(maskIban('DE89370400440532013000')).toBe('DE89**************3000');
  });
});

describe('SEPA text', () => {
  it('transliterates to the Latin set and keeps the allowed symbols', () => {
    expect(sepaText("Ærøskøbing Straße Łódź Müller O'Brien & Co (2/3)", 140)).toBe(
      "Aeroskobing Strasse Lodz Muller O'Brien + Co (2/3)",
    );
    expect(sepaText('Дмитрий 東京', 70)).toBe('Dmitriy DongJing');
    expect(sepaText('<script>"x"</script>', 70)).toBe('script x /script');
    expect(sepaText('   ', 70)).toBe('-');
    expect(sepaText('a'.repeat(100), 70)).toHaveLength(70);
  });

  it('makes identifiers without spaces or double slashes, at most 35 characters', () => {
    expect(sepaId('/P 12//R3/')).toBe('P-12/R3');
    expect(sepaId('x'.repeat(50))).toHaveLength(35);
  });
});
