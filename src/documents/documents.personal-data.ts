import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, MoreThan, Not } from 'typeorm';
import { AnonymisedSubject, PersonalData } from '../common/privacy/personal-data';
import { chunksOf, countByEmployee, total } from '../common/privacy/retention';
import { anyOf, SubjectExport } from '../common/privacy/subject-export';
import { DocumentType } from './entities/document-type.entity';
import { DocumentWriterService } from './document-writer.service';
import { DocumentsRepository } from './documents.repository';
import { DocumentRecord, DocumentVersion } from './entities/document.entities';

/** Versions read at a time. */
const PAGE = 200;

/** A file name safe as a path segment in a ZIP: no separators, no control characters. */
const safeName = (name: string) =>
  [...name]
    .map((ch) => (ch.charCodeAt(0) < 32 || '\\/:*?"<>|'.includes(ch) ? '_' : ch))
    .join('')
    .slice(0, 120) || 'file';

/**
 * A person's documents (issue 69): their files (passports, contracts, payslip PDFs, receipts) are
 * personal whatever they hold. The anonymisation deletes the documents with their versions and
 * reminders, and queues their files for removal from the store (local or S3) in the same
 * transaction; the removal job deletes them once it committed, and retries until they are gone.
 */
@Injectable()
export class DocumentsPersonalData {
  constructor(
    registry: PersonalData,
    private readonly repository: DocumentsRepository,
    private readonly writer: DocumentWriterService,
  ) {
    registry.register(
      {
        name: 'documents',
        order: 30,
        values: async (em, employeeId) =>
          (await em.getRepository(DocumentRecord).findBy({ employeeId })).flatMap((d) => [d.fileName, d.notes]),
        anonymise: (em, subject) => this.anonymise(em, subject),
        export: (em, employeeId, out) => this.export(em, employeeId, out),
      },
      ['file_name', 'notes'],
    );
    // Both actions delete them with their files: a document's file is personal whatever it holds.
    registry.retain({
      category: 'documents',
      description: 'documents with their versions and files (payslip PDFs and receipts among them)',
      count: (em, employeeIds) => countByEmployee(em, DocumentRecord, employeeIds),
      apply: async (em, employeeIds) => {
        const records = total(await countByEmployee(em, DocumentRecord, employeeIds));
        if (!records) return { records };
        for (const ids of chunksOf(employeeIds, 200)) {
          const documents = (
            await em.getRepository(DocumentRecord).find({ where: { employeeId: In(ids) }, select: { id: true } })
          ).map((d) => d.id);
          await this.repository.queueFileRemovals(em, { documents });
          await this.repository.deleteMany(em, documents);
        }
        return { records, after: () => this.writer.removeFilesSoon() };
      },
    });
  }

  /**
   * documents/: documents.json (the documents and their versions, as stored) and every version's
   * file as documents/<document>/v<version>-<file name>. Payslip PDFs (documents of the service's
   * type `payslip`) are in payslips/, which the payroll module writes.
   */
  private async export(em: EntityManager, employeeId: number, out: SubjectExport): Promise<void> {
    const payslipTypes = (await em.getRepository(DocumentType).find({ where: { code: 'payslip' }, select: { id: true } })).map(
      (t) => t.id,
    );
    const where = { employeeId, ...(payslipTypes.length ? { documentTypeId: Not(In(payslipTypes)) } : {}) };
    const ids = (await em.getRepository(DocumentRecord).find({ where, select: { id: true }, order: { id: 'ASC' } })).map(
      (d) => d.id,
    );
    await out.lists('documents/documents.json', "the documents and their versions; each version's file beside it", [
      { name: 'documents', entity: DocumentRecord, where: { id: anyOf(ids) }, omit: ['file_key'] },
      { name: 'versions', entity: DocumentVersion, where: { documentId: anyOf(ids) }, omit: ['file_key'] },
    ]);
    out.describe('documents/<document>/v<version>-<file name>', 'the file of each version of each document');
    for (let after = 0; ids.length;) {
      const versions = await em.getRepository(DocumentVersion).find({
        where: { documentId: anyOf(ids), id: MoreThan(after), fileKey: Not(IsNull()) },
        order: { id: 'ASC' },
        take: PAGE,
        select: { id: true, documentId: true, version: true, fileName: true, fileKey: true },
      });
      for (const v of versions) await out.file(`documents/${v.documentId}/v${v.version}-${safeName(v.fileName)}`, v.fileKey);
      if (versions.length < PAGE) return;
      after = versions[versions.length - 1].id;
    }
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<(() => Promise<void>) | void> {
    if (!(await this.repository.hasDocuments(em, subject.employeeId))) return;
    await this.repository.queueFileRemovals(em, { employee: subject.employeeId });
    await em.getRepository(DocumentRecord).delete({ employeeId: subject.employeeId });
    return () => this.writer.removeFilesSoon();
  }
}
