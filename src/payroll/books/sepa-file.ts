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

/** Σ of transfers in minor units, and their control sum as the schema's decimal (digits of the first currency; mixed currencies add their decimals). */
export function controlSum(transfers: readonly Transfer[]): string {
  const digits = Math.max(0, ...transfers.map((t) => t.digits));
  const total = transfers.reduce((sum, t) => sum + t.minor * 10n ** BigInt(digits - t.digits), 0n);
  return fromMinorUnits(total, digits);
}

function agent(version: PainVersion, bic: string | null): string {
  if (!bic) return '<FinInstnId><Othr><Id>NOTPROVIDED</Id></Othr></FinInstnId>';
  return version === 'pain.001.001.03'
    ? `<FinInstnId><BIC>${bic}</BIC></FinInstnId>`
    : `<FinInstnId><BICFI>${bic}</BICFI></FinInstnId>`;
}

/**
 * A customer credit transfer initiation (pain.001) as text chunks, in schema order: the group
 * header with the number of transfers and their control sum, then one payment information block per
 * currency (SEPA's service level for EUR), each with its transfers: category purpose and purpose
 * SALA (salary), charges shared (SLEV), names and remittance in SEPA's Latin set.
 */
export function* painDocument(file: BankFile): Generator<string> {
  const { version, debtor } = file;
  const debtorName = xml(sepaText(debtor.name, 70));
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${version}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n<CstmrCdtTrfInitn>\n`;
  yield `<GrpHdr><MsgId>${xml(sepaId(file.msgId))}</MsgId><CreDtTm>${file.createdAt}</CreDtTm><NbOfTxs>${file.transfers.length}</NbOfTxs>`;
  yield `<CtrlSum>${controlSum(file.transfers)}</CtrlSum><InitgPty><Nm>${debtorName}</Nm></InitgPty></GrpHdr>\n`;
  const byCurrency = new Map<string, Transfer[]>();
  for (const t of file.transfers) {
    const list = byCurrency.get(t.currency);
    if (list) list.push(t);
    else byCurrency.set(t.currency, [t]);
  }
  const executionDate = version === 'pain.001.001.03' ? file.executionDate : `<Dt>${file.executionDate}</Dt>`;
  const remittance = xml(sepaText(file.remittance, 140));
  for (const [currency, transfers] of byCurrency) {
    const serviceLevel = currency === 'EUR' ? '<SvcLvl><Cd>SEPA</Cd></SvcLvl>' : '';
    yield `<PmtInf><PmtInfId>${xml(sepaId(`${file.msgId}-${currency}`))}</PmtInfId><PmtMtd>TRF</PmtMtd><BtchBookg>true</BtchBookg>`;
    yield `<NbOfTxs>${transfers.length}</NbOfTxs><CtrlSum>${controlSum(transfers)}</CtrlSum>`;
    yield `<PmtTpInf>${serviceLevel}<CtgyPurp><Cd>SALA</Cd></CtgyPurp></PmtTpInf><ReqdExctnDt>${executionDate}</ReqdExctnDt>`;
    yield `<Dbtr><Nm>${debtorName}</Nm></Dbtr><DbtrAcct><Id><IBAN>${debtor.iban}</IBAN></Id></DbtrAcct><DbtrAgt>${agent(version, debtor.bic)}</DbtrAgt>`;
    yield '<ChrgBr>SLEV</ChrgBr>\n';
    let chunk = '';
    for (const t of transfers) {
      chunk +=
        `<CdtTrfTxInf><PmtId><EndToEndId>${xml(sepaId(t.endToEndId))}</EndToEndId></PmtId>` +
        `<Amt><InstdAmt Ccy="${t.currency}">${fromMinorUnits(t.minor, t.digits)}</InstdAmt></Amt>` +
        (t.bic ? `<CdtrAgt>${agent(version, t.bic)}</CdtrAgt>` : '') +
        `<Cdtr><Nm>${xml(sepaText(t.name, 70))}</Nm></Cdtr><CdtrAcct><Id><IBAN>${t.iban}</IBAN></Id></CdtrAcct>` +
        `<Purp><Cd>SALA</Cd></Purp><RmtInf><Ustrd>${remittance}</Ustrd></RmtInf></CdtTrfTxInf>\n`;
      if (chunk.length > 65_536) {
        yield chunk;
        chunk = '';
      }
    }
    if (chunk) yield chunk;
    yield '</PmtInf>\n';
  }
  yield '</CstmrCdtTrfInitn>\n</Document>\n';
}
