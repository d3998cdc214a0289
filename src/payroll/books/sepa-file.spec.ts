import { testIban } from '../../common/banking/iban';
import { schemaErrors } from './xsd-validator';
import { fromMinorUnits } from '../../common/money/money';
import { BankFile, controlSum, PAIN_VERSIONS, painDocument, Transfer } from './sepa-file';

const iban = testIban;

const NAMES = [
  "Zoë O'Brien-Łukasz",
  'Jürgen Groß & Söhne',
  'Дмитрий Иванов',
  '山田 太郎',
  'A <b>"x"</b> ; DROP',
  'Ñandú Çelik',
  '  ',
  '€uro $ymbols ™',
];

/** A file of n transfers with random amounts (seeded), names with accents and symbols, some without a BIC. */
export function randomFile(n: number, seed: number, version: (typeof PAIN_VERSIONS)[number]): BankFile {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const transfers: Transfer[] = Array.from({ length: n }, (_, i) => ({
    endToEndId: `P7-R3-E${i + 1}`,
    minor: 1n + BigInt(Math.floor(random() * (random() < 0.1 ? 99_999_999_999 : 1_000_000))),
    currency: random() < 0.05 ? 'CHF' : 'EUR',
    digits: 2,
    name: `${NAMES[Math.floor(random() * NAMES.length)]} ${i}`,
    iban: iban(i + 1),
    bic: random() < 0.5 ? 'COBADEFFXXX' : null,
  }));
  return {
    version,
    msgId: 'HR-P7-R3',
    createdAt: '2026-11-27T10:15:00',
    executionDate: '2026-11-30',
    debtor: { name: 'Demo GmbH & Co. KG', iban: iban(999_999), bic: random() < 0.5 ? 'DEUTDEFF' : null },
    remittance: 'Salary November 2026 – Überweisung',
    transfers,
  };
}

describe('pain.001 bank files', () => {
  it('writes amounts exactly', () => {
    expect(fromMinorUnits(1n, 2)).toBe('0.01');
    expect(fromMinorUnits(123456n, 2)).toBe('1234.56');
    expect(fromMinorUnits(5n, 0)).toBe('5');
    expect(
      controlSum([
        { minor: 10n, digits: 2 },
        { minor: 999_999_999_999n, digits: 2 },
      ] as Transfer[]),
    ).toBe('10000000000.09');
    // As many transfers as a large payroll pays (Math.max over a spread of them overflowed the stack).
    const many = Array.from({ length: 900_000 }, (_, i) => ({ minor: BigInt(i % 100), digits: i % 3 ? 2 : 0 }));
    const cents = many.reduce((sum, t) => sum + t.minor * (t.digits ? 1n : 100n), 0n);
    expect(controlSum(many)).toBe(fromMinorUnits(cents, 2));
  });

  // Random payrolls against both schemas: every file valid, NbOfTxs and CtrlSum equal to the
  // transactions' count and sum. npm test: 1 to 400 employees; `npm run test:bank-files` (a .ci/run
  // step) adds BANK_FILES random sizes from 1 to 5 000, and 5 000 itself: tens of seconds, more when
  // .ci/run runs it beside the other long steps, so that run has a budget of its own (it times nothing).
  const more = Number(process.env.BANK_FILES ?? 0);
  it.each(PAIN_VERSIONS)(
    'files of random payrolls are valid against the %s schema',
    async (version) => {
      let seed = 4600;
      const size = () => 1 + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 5000);
      const sizes = [1, 2, 7, 40, 400, ...(more ? [5000, ...Array.from({ length: more }, size)] : [])];
      for (const [k, n] of sizes.entries()) {
        const file = randomFile(n, 46 + k, version);
        const text = [...painDocument(file)].join('');
        expect(await schemaErrors(version, text)).toEqual([]);
        const amounts = [...text.matchAll(/<InstdAmt Ccy="[A-Z]{3}">([0-9.]+)<\/InstdAmt>/g)].map((m) => m[1]);
        expect(amounts).toHaveLength(n);
        expect(text).toContain(`<NbOfTxs>${n}</NbOfTxs>`);
        const cents = amounts.reduce((sum, a) => sum + BigInt(a.replace('.', '')), 0n);
        expect(text).toContain(`<CtrlSum>${fromMinorUnits(cents, 2)}</CtrlSum>`);
        expect(text).not.toMatch(/<Nm>[^<]*[^A-Za-z0-9/\-?:().,'+ ][^<]*<\/Nm>/);
      }
    },
    more ? 600_000 : undefined,
  );

  it('is refused by the schema when it is not valid (the check can fail)', async () => {
    const text = [...painDocument(randomFile(3, 1, 'pain.001.001.03'))]
      .join('')
      .replace('<ChrgBr>SLEV</ChrgBr>', '<ChrgBr>XXXX</ChrgBr>');
    const errors = await schemaErrors('pain.001.001.03', text);
    expect(errors.join('\n')).toContain('ChrgBr');
  });
});
