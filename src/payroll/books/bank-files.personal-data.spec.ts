import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { EntityManager } from 'typeorm';
import { AnonymisationEffects, AnonymisedSubject, PersonalData, PersonalDataHolder } from '../../common/privacy/personal-data';
import { FileStore, OpenedObject, StoredObject } from '../../common/storage/file-store';
import { anonymisedIban, BankFilesPersonalData, XmlRedaction } from './bank-files.personal-data';
import { PayrollBankFile } from './books.entities';
import { BooksRepository } from './books.repository';

/** A deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const IBAN = 'DE89370400440532013000';
const NAME = 'Zoë Müller-Lüdenscheid';

/** One transfer of a pain.001 file, as the bank file writes it. */
const transfer = (i: number, name: string, iban: string) =>
  `<CdtTrfTxInf><PmtId><EndToEndId>E${i}</EndToEndId></PmtId><Amt><InstdAmt Ccy="EUR">${i}.00</InstdAmt></Amt>` +
  `<Cdtr><Nm>${name}</Nm></Cdtr><CdtrAcct><Id><IBAN>${iban}</IBAN></Id></CdtrAcct></CdtTrfTxInf>\n`;

const redactWhole = (text: string) => text.split(IBAN).join('XX00ANONYMISED7').split(NAME).join('Former employee 7');

describe('XmlRedaction (a bank file redacted as it streams, issue 69 at issue 70 sizes)', () => {
  it('gives what redacting the whole text gives, however the bytes are cut (values across pieces, characters across chunks)', async () => {
    const next = random(66);
    for (let round = 0; round < 200; round++) {
      let text = '<?xml version="1.0" encoding="UTF-8"?><Document><CstmrCdtTrfInitn>';
      const n = 1 + Math.floor(next() * 30);
      for (let i = 0; i < n; i++)
        text +=
          next() < 0.3
            ? transfer(i, NAME, IBAN)
            : transfer(i, `Other ${i} Ünal`, `FR14200410100505000${String(i).padStart(4, '0')}`);
      text += '</CstmrCdtTrfInitn></Document>';
      const bytes = Buffer.from(text, 'utf8');
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length;) {
        const size = 1 + Math.floor(next() * (next() < 0.5 ? 8 : 400));
        chunks.push(bytes.subarray(at, at + size));
        at += size;
      }
      const redaction = new XmlRedaction(redactWhole);
      const out: Buffer[] = [];
      for await (const piece of Readable.from(chunks).pipe(redaction)) out.push(piece as Buffer);
      expect(Buffer.concat(out).toString('utf8')).toBe(redactWhole(text));
      expect(redaction.changed).toBe(text.includes(NAME));
    }
  });

  it('passes a text without any "<" through whole, changed or not', async () => {
    for (const text of ['', 'plain', `${NAME} paid`]) {
      const redaction = new XmlRedaction(redactWhole);
      const out: Buffer[] = [];
      for await (const piece of Readable.from([Buffer.from(text)]).pipe(redaction)) out.push(piece as Buffer);
      expect(Buffer.concat(out).toString('utf8')).toBe(redactWhole(text));
    }
  });
});

describe('BankFilesPersonalData', () => {
  /**
   * A store holding one large bank file, made as it is read; what it writes is counted as it
   * arrives. `ahead`: the most bytes the file had given out beyond what the store had written.
   */
  function bigFileStore(transfers: number) {
    const state = { produced: 0, consumed: 0, ahead: 0, written: null as null | { size: number; sha256: string; tail: string } };
    const removed: string[] = [];
    const store: FileStore = {
      kind: 'local',
      async open(): Promise<OpenedObject> {
        const body = Readable.from(
          (function* () {
            yield Buffer.from('<?xml version="1.0" encoding="UTF-8"?><Document><CstmrCdtTrfInitn>');
            for (let i = 0; i < transfers; i++) {
              const chunk = Buffer.from(
                i === transfers - 1 ? transfer(i, NAME, IBAN) : transfer(i, `Other ${i}`, `FR1420041010050500${i}`),
              );
              state.produced += chunk.length;
              state.ahead = Math.max(state.ahead, state.produced - state.consumed);
              yield chunk;
            }
            yield Buffer.from('</CstmrCdtTrfInitn></Document>');
          })(),
          { objectMode: false },
        );
        return { body, size: transfers * 250 };
      },
      async put(body: Readable): Promise<StoredObject> {
        const hash = createHash('sha256');
        let size = 0;
        let tail = '';
        for await (const chunk of body) {
          const b = chunk as Buffer;
          size += b.length;
          state.consumed += b.length;
          hash.update(b);
          tail = (tail + b.toString('utf8')).slice(-600);
        }
        state.written = { size, sha256: hash.digest('hex'), tail };
        return { key: 'b'.repeat(48), size, sha256: state.written.sha256 };
      },
      async remove(key: string) {
        removed.push(key);
      },
      async exists() {
        return true;
      },
    };
    return { store, state, removed };
  }

  /** The bank file of a payroll that paid the person, and a manager that records the file's updates. */
  const file = { id: 1, payrollId: 2, storageKey: 'a'.repeat(48) } as PayrollBankFile;
  const books = { bankFilesPaying: async () => [file] } as unknown as BooksRepository;
  function manager(updates: unknown[]): EntityManager {
    return {
      getRepository: (entity: unknown) =>
        entity === PayrollBankFile ? { update: async (_where: unknown, values: unknown) => void updates.push(values) } : null,
    } as unknown as EntityManager;
  }

  it('streams a stored file into its redacted copy: what it holds at once does not grow with the file', async () => {
    const registry = new PersonalData();
    const { store, state, removed } = bigFileStore(200_000); // about 47 MiB of transfers
    new BankFilesPersonalData(registry, store, books);
    const holder = registry.all().find((h) => h.name === 'bank-files') as PersonalDataHolder;
    const subject: AnonymisedSubject = { employeeId: 7, name: 'Former employee 7', values: [NAME, IBAN], keys: new Set() };
    const updates: unknown[] = [];
    const effects = (await holder.anonymise!(manager(updates), subject)) as AnonymisationEffects;

    expect(state.produced).toBeGreaterThan(40 * 1024 * 1024);
    // Read whole (as before), the file was all given out before a byte was written: 47 MiB ahead.
    expect(state.ahead).toBeLessThan(4 * 1024 * 1024);
    expect(state.written!.tail).toContain(`<Nm>Former employee 7</Nm>`);
    expect(state.written!.tail).toContain(`<IBAN>${anonymisedIban(7)}</IBAN>`);
    expect(state.written!.tail).not.toContain(IBAN);
    expect(updates).toEqual([{ storageKey: 'b'.repeat(48), size: state.written!.size, sha256: state.written!.sha256 }]);
    expect(removed).toEqual([]);
    await effects.afterCommit!();
    expect(removed).toEqual(['a'.repeat(48)]); // the old copy, once the anonymisation committed
    await effects.ifRolledBack!();
    expect(removed).toEqual(['a'.repeat(48), 'b'.repeat(48)]); // the new one, had it not committed
  });

  it('keeps a file that does not name the person as it was (its new copy removed)', async () => {
    const registry = new PersonalData();
    const { store, removed } = bigFileStore(100);
    new BankFilesPersonalData(registry, store, books);
    const holder = registry.all().find((h) => h.name === 'bank-files') as PersonalDataHolder;
    const updates: unknown[] = [];
    const subject: AnonymisedSubject = { employeeId: 8, name: 'Former employee 8', values: ['Nobody Here'], keys: new Set() };
    expect(await holder.anonymise!(manager(updates), subject)).toBeUndefined();
    expect(updates).toEqual([]);
    expect(removed).toEqual(['b'.repeat(48)]);
  });
});
