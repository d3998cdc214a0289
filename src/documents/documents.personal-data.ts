import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData } from '../common/privacy/personal-data';
import { DocumentWriterService } from './document-writer.service';
import { DocumentsRepository } from './documents.repository';
import { DocumentRecord } from './entities/document.entities';

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
      },
      ['file_name', 'notes'],
    );
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<(() => Promise<void>) | void> {
    if (!(await this.repository.hasDocuments(em, subject.employeeId))) return;
    await this.repository.queueFileRemovals(em, { employee: subject.employeeId });
    await em.getRepository(DocumentRecord).delete({ employeeId: subject.employeeId });
    return () => this.writer.removeFilesSoon();
  }
}
