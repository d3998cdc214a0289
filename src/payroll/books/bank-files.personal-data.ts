import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData, redactText } from '../../common/privacy/personal-data';
import { FILE_STORE, FileStore } from '../../common/storage/file-store';
import { PayrollCell } from '../entities/payroll-run.entities';
import { PayrollBankFile } from './books.entities';

/** An IBAN as the bank files write it: compact, upper case. */
const IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{10,30}$/;

/** What a person's IBAN becomes in a stored bank file: still an IBAN to the ISO 20022 schema's pattern, nobody's account. */
export const anonymisedIban = (employeeId: number) => `XX00ANONYMISED${employeeId}`;

const xmlEscaped = (v: string) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The bank files that paid a person (issue 69): their stored copies lose its IBAN (replaced by
 * `XX00ANONYMISED<id>`, which the pain.001 schema's IBAN pattern still accepts) and its name (the
 * person's new one); their message id, transfers, amounts and control sum stay, and so does the
 * file made for every other employee. Only the files of payrolls the employee has cells in are
 * read (a primary-key lookup each); a redacted copy is stored under a new key, its size and SHA-256
 * recorded, and the old copy removed once the anonymisation committed.
 */
@Injectable()
export class BankFilesPersonalData {
  constructor(
    registry: PersonalData,
    @Inject(FILE_STORE) private readonly store: FileStore,
  ) {
    registry.register({ name: 'bank-files', order: 55, anonymise: (em, subject) => this.anonymise(em, subject) });
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<(() => Promise<void>) | void> {
    const ibans = subject.values.filter((v) => IBAN.test(v));
    const others: AnonymisedSubject = {
      ...subject,
      values: subject.values.flatMap((v) => (IBAN.test(v) ? [] : [v, xmlEscaped(v)])),
    };
    const replaced: string[] = [];
    for (const file of await em.getRepository(PayrollBankFile).find({ order: { id: 'ASC' } })) {
      if (!(await em.getRepository(PayrollCell).exists({ where: { payrollId: file.payrollId, employeeId: subject.employeeId } })))
        continue;
      const opened = await this.store.open(file.storageKey);
      if (!opened) continue;
      const before = (await buffer(opened.body)).toString('utf8');
      let text = before;
      for (const iban of ibans) if (text.includes(iban)) text = text.split(iban).join(anonymisedIban(subject.employeeId));
      text = redactText(text, others);
      if (text === before) continue;
      const bytes = Buffer.from(text, 'utf8');
      const stored = await this.store.put(Readable.from([bytes]), { maxBytes: bytes.length, contentType: 'application/xml' });
      await em
        .getRepository(PayrollBankFile)
        .update(
          { id: file.id },
          { storageKey: stored.key, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') },
        );
      replaced.push(file.storageKey);
    }
    if (replaced.length)
      return async () => {
        for (const key of replaced) await this.store.remove(key);
      };
  }
}
