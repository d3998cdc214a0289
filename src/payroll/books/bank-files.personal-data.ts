import { Inject, Injectable } from '@nestjs/common';
import { pipeline, Transform, TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { EntityManager } from 'typeorm';
import { AnonymisationEffects, AnonymisedSubject, PersonalData, redactText } from '../../common/privacy/personal-data';
import { FILE_STORE, FileStore } from '../../common/storage/file-store';
import { PayrollBankFile } from './books.entities';
import { BooksRepository } from './books.repository';

/** An IBAN as the bank files write it: compact, upper case. */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/;

/** What a person's IBAN becomes in a stored bank file: still an IBAN to the ISO 20022 schema's pattern, nobody's account. */
export const anonymisedIban = (employeeId: number) => `XX00ANONYMISED${employeeId}`;

const xmlEscaped = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A piece of text with no '<' past this many characters is redacted as it is (a bank file's pieces are an element each). */
const LONGEST_PIECE = 1 << 20;

/**
 * An XML text redacted piece by piece as it streams: each piece ends just before a '<', so a value
 * that holds none (an IBAN, a name as the XML escapes it) is never split between two pieces, and
 * the output is the whole text redacted at once. Memory is a piece and the streams' buffers,
 * whatever the file's size. `changed`: whether any piece changed.
 */
export class XmlRedaction extends Transform {
  changed = false;
  private carry = '';
  private readonly decoder = new StringDecoder('utf8');

  constructor(private readonly redact: (text: string) => string) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    const text = this.carry + this.decoder.write(chunk);
    let cut = text.lastIndexOf('<');
    if (cut <= 0) {
      if (text.length < LONGEST_PIECE) {
        this.carry = text;
        return done();
      }
      cut = text.length;
    }
    this.carry = text.slice(cut);
    done(null, this.redacted(text.slice(0, cut)));
  }

  override _flush(done: TransformCallback): void {
    const text = this.carry + this.decoder.end();
    this.carry = '';
    done(null, text ? this.redacted(text) : undefined);
  }

  private redacted(piece: string): Buffer {
    const out = this.redact(piece);
    if (out !== piece) this.changed = true;
    return Buffer.from(out, 'utf8');
  }
}

/**
 * The bank files that paid a person (issue 69): their stored copies lose its IBAN (replaced by
 * `XX00ANONYMISED<id>`, which the pain.001 schema's IBAN pattern still accepts) and its name (the
 * person's new one); their message id, transfers, amounts and control sum stay, and so does the
 * file made for every other employee. Only the files of payrolls the employee has cells in are
 * read (BooksRepository.bankFilesPaying); a redacted copy is streamed into a new key (XmlRedaction: memory
 * does not grow with the file), its size and SHA-256 recorded, and the old copy removed once the
 * anonymisation committed.
 */
@Injectable()
export class BankFilesPersonalData {
  constructor(
    registry: PersonalData,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly books: BooksRepository,
  ) {
    registry.register({ name: 'bank-files', order: 55, anonymise: (em, subject) => this.anonymise(em, subject) });
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<AnonymisationEffects | void> {
    const ibans = subject.values.filter((v) => IBAN.test(v));
    // As the XML holds them: escaped (a raw value with '<' cannot stand in its text).
    const others: AnonymisedSubject = {
      ...subject,
      values: subject.values.flatMap((v) => (IBAN.test(v) ? [] : [v, xmlEscaped(v)])).filter((v) => !v.includes('<')),
    };
    const redact = (piece: string) => {
      let text = piece;
      for (const iban of ibans) if (text.includes(iban)) text = text.split(iban).join(anonymisedIban(subject.employeeId));
      return redactText(text, others);
    };
    // What one replacement can add to the file; the copy's bound allows that much for every character.
    const growth = Math.max(
      0,
      ...ibans.map((v) => anonymisedIban(subject.employeeId).length - v.length),
      ...others.values.map((v) => Buffer.byteLength(subject.name) - Buffer.byteLength(v)),
    );
    const replaced: string[] = [];
    const copies: string[] = [];
    const remove = async (keys: string[]) => {
      for (const key of keys) await this.store.remove(key);
    };
    try {
      for (const file of await this.books.bankFilesPaying(em, subject.employeeId)) {
        const opened = await this.store.open(file.storageKey);
        if (!opened) continue;
        // Streamed: a million employees' file is 292 MiB (docs/performance.md, "The books and payslips at scale").
        const redaction = new XmlRedaction(redact);
        const stored = await this.store
          .put(
            pipeline(opened.body, redaction, () => undefined),
            {
              maxBytes: (opened.size + 1024) * (growth + 1),
              contentType: 'application/xml',
            },
          )
          .finally(() => redaction.destroy()); // the stored file is closed whatever the store did
        if (!redaction.changed) {
          await this.store.remove(stored.key);
          continue;
        }
        copies.push(stored.key);
        await em
          .getRepository(PayrollBankFile)
          .update({ id: file.id }, { storageKey: stored.key, size: stored.size, sha256: stored.sha256 });
        replaced.push(file.storageKey);
      }
    } catch (err) {
      // The anonymisation rolls back: the copies written so far are nobody's.
      await remove(copies).catch(() => undefined);
      throw err;
    }
    // The old copies go once it committed; the new ones if it does not (a later holder failed).
    if (replaced.length) return { afterCommit: () => remove(replaced), ifRolledBack: () => remove(copies) };
  }
}
