import { sepaId, sepaText } from '../../common/banking/sepa-text';
import { fromMinorUnits } from '../../common/money/money';

/** The pain.001 versions the bank file is written in (docs/api/decisions.md §22). */
export const PAIN_VERSIONS = ['pain.001.001.03', 'pain.001.001.09'] as const;
export type PainVersion = (typeof PAIN_VERSIONS)[number];

/** The paying company: its name and account. */
export interface Debtor {
  name: string;
  iban: string;
  bic: string | null;
}

/** One credit transfer: an employee's net pay to its primary account. */
export interface Transfer {
  endToEndId: string;
  /** Minor units (cents), positive. */
  minor: bigint;
  currency: string;
  /** Decimals of the currency (2 for EUR). */
  digits: number;
  name: string;
  iban: string;
  bic: string | null;
}

export interface BankFile {
  version: PainVersion;
  msgId: string;
  /** ISO date-time without fraction or zone (stable for a revision). */
  createdAt: string;
  executionDate: string;
  debtor: Debtor;
  /** Unstructured remittance text, e.g. "Salary November 2026". */
  remittance: string;
  transfers: readonly Transfer[];
}

/** Escapes what XML text may not hold as is; SEPA text (sepaText) has none of them but the apostrophe, which text content allows. */
const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Σ of transfers (or of per-currency sums) in minor units, as the schema's decimal (digits of the first currency; mixed currencies add their decimals). */
export function controlSum(transfers: ReadonlyArray<Pick<Transfer, 'minor' | 'digits'>>): string {
  // A loop, not Math.max(...digits): spreading 857 142 transfers overflowed the stack (a 500 for that payroll's bank file).
  const digits = transfers.reduce((most, t) => Math.max(most, t.digits), 0);
  const total = transfers.reduce((sum, t) => sum + t.minor * 10n ** BigInt(digits - t.digits), 0n);
  return fromMinorUnits(total, digits);
}

function agent(version: PainVersion, bic: string | null): string {
  if (!bic) return '<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>';
  return version === 'pain.001.001.03'
    ? `<FinInstnId><BIC>${bic}</BIC></FinInstnId>`
    : `<FinInstnId><BICFI>${bic}</BICFI></FinInstnId>`;
}

/** A file's transfers of one currency, counted and summed (a payment information block). */
export interface PaymentTotals {
  currency: string;
  count: number;
  /** Σ in minor units of the currency. */
  minor: bigint;
  digits: number;
}

/** What a file says before and around its transfers: the file without them, and its totals per currency. */
export type BankFileHead = Omit<BankFile, 'transfers'>;

/** The document's start and group header: the number of transfers and their control sum over all currencies. */
export function painHeader(head: BankFileHead, payments: readonly PaymentTotals[]): string {
  const debtorName = xml(sepaText(head.debtor.name, 70));
  const count = payments.reduce((n, p) => n + p.count, 0);
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${head.version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n<CstmrCdtTrfInitn>\n` +
    `<GrpHdr><MsgId>${xml(sepaId(head.msgId))}</MsgId><CreDtTm>${head.createdAt}</CreDtTm><NbOfTxs>${count}</NbOfTxs>` +
    `<CtrlSum>${controlSum(payments)}</CtrlSum><InitgPty><Nm>${debtorName}</Nm></InitgPty></GrpHdr>\n`
  );
}

/** A payment information block's start, up to its first transfer: SEPA's service level for EUR. */
export function paymentHeader(head: BankFileHead, payment: PaymentTotals): string {
  const { version, debtor } = head;
  const serviceLevel = payment.currency === 'EUR' ? '<SvcLvl><Cd>SEPA</Cd></SvcLvl>' : '';
  const executionDate = version === 'pain.001.001.03' ? head.executionDate : `<Dt>${head.executionDate}</Dt>`;
  return (
    `<PmtInf><PmtInfId>${xml(sepaId(`${head.msgId}-${payment.currency}`))}</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>true</BtchBookg>` +
    `<NbOfTxs>${payment.count}</NbOfTxs><CtrlSum>${controlSum([payment])}</CtrlSum>` +
    `<PmtTpInf>${serviceLevel}<CtgyPurp><Cd>SALA</Cd></CtgyPurp></PmtTpInf><ReqdExctnDt>${executionDate}</ReqdExctnDt>` +
    `<Dbtr><Nm>${xml(sepaText(debtor.name, 70))}</Nm></Dbtr><DbtrAcct><Id><IBAN>${debtor.iban}</IBAN></Id></DbtrAcct><DbtrAgt>${agent(version, debtor.bic)}</DbtrAgt>` +
    '<ChrgBr>SLEV</ChrgBr>\n'
  );
}

/** One credit transfer: category purpose and purpose SALA (salary), names and remittance in SEPA's Latin set. */
export function transferText(head: BankFileHead, t: Transfer): string {
  return (
    `<CdtTrfTxInf><PmtId><EndToEndId>${xml(sepaId(t.endToEndId))}</EndToEndId></PmtId>` +
    `<Amt><InstdAmt Ccy="${t.currency}">${fromMinorUnits(t.minor, t.digits)}</InstdAmt></Amt>` +
    (t.bic ? `<CdtrAgt>${agent(head.version, t.bic)}</CdtrAgt>` : '') +
    `<Cdtr><Nm>${xml(sepaText(t.name, 70))}</Nm></Cdtr><CdtrAcct><Id><IBAN>${t.iban}</IBAN></Id></CdtrAcct>` +
    `<Purp><Cd>SALA</Cd></Purp><RmtInf><Ustrd>${xml(sepaText(head.remittance, 140))}</Ustrd></RmtInf></CdtTrfTxInf>\n`
  );
}

export const PAYMENT_END = '</PmtInf>\n';
export const DOCUMENT_END = '</CstmrCdtTrfInitn>\n</Document>\n';

/** The transfers counted and summed per currency, in the order each currency first appears. */
export function paymentTotals(
  transfers: readonly Transfer[],
  into = new Map<string, PaymentTotals>(),
): Map<string, PaymentTotals> {
  for (const t of transfers) {
    const p = into.get(t.currency);
    if (p) {
      p.count++;
      p.minor += t.minor;
    } else into.set(t.currency, { currency: t.currency, count: 1, minor: t.minor, digits: t.digits });
  }
  return into;
}

/**
 * A customer credit transfer initiation (pain.001) as text chunks, in schema order: the group
 * header with the number of transfers and their control sum, then one payment information block per
 * currency (in the order each first appears), each with its transfers, charges shared (SLEV). A
 * file of any size is written from the same parts (BankFileDocuments, issue 70).
 */
export function* painDocument(file: BankFile): Generator<string> {
  const payments = paymentTotals(file.transfers);
  yield painHeader(file, [...payments.values()]);
  for (const payment of payments.values()) {
    yield paymentHeader(file, payment);
    let chunk = '';
    for (const t of file.transfers) {
      if (t.currency !== payment.currency) continue;
      chunk += transferText(file, t);
      if (chunk.length > 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
    yield PAYMENT_END;
  }
  yield DOCUMENT_END;
}
