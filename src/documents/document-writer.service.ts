import { Injectable, Inject } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { toWholeSecond } from '../common/time/instants';
import { ValidationException } from '../common/errors/domain.exception';
import { JobQueue } from '../common/queue/job-queue.service';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { ReceivedFile } from './document-upload';
import { documentStatus } from './document-status';
import { auditView, DOCUMENTS_RESOURCE, toDocumentDto } from './document-views';
import { REMOVE_DOCUMENT_FILES_JOB } from './documents.jobs';
import { DocumentDto } from './dto/document.dto';
import { DocumentRecord, DocumentVersion } from './entities/document.entities';
import { DocumentType } from './entities/document-type.entity';

/**
 * What every write of a document shares, uploads and generated files alike: a new document with its
 * first version, a version row, the stored file removed when the write fails, and the removal job.
 */
@Injectable()
export class DocumentWriterService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {}

  /** A new document and its first version, audited, in one transaction. */
  insertDocument(
    employeeId: number,
    type: DocumentType,
    file: ReceivedFile,
    meta: {
      name: string;
      notes: string | null;
      validity: Validity;
      uploadedBy: number | null;
      link?: (em: EntityManager, documentId: number) => Promise<unknown>;
    },
  ): Promise<DocumentDto> {
    return transaction(this.ds, async (em) => {
      const now = toWholeSecond();
      const doc = await em.getRepository(DocumentRecord).save(
        em.getRepository(DocumentRecord).create({
          employeeId,
          documentTypeId: type.id,
          name: meta.name,
          notes: meta.notes,
          version: 1,
          status: documentStatus(meta.validity.validUntil, type, await this.clock.today()),
          ...fileFields(file, meta.validity, meta.uploadedBy),
          createdAt: now,
          updatedAt: now,
        }),
      );
      await this.addVersionRow(em, doc);
      await recordAudit(em, {
        action: 'upload',
        resource: DOCUMENTS_RESOURCE,
        // Someone's upload, not a file the service made (a payslip): what it completes (a checklist item) hears of it.
        ...(meta.uploadedBy !== null ? { event: 'document.uploaded' as const } : {}),
        resourceId: doc.id,
        employee: employeeId,
        after: auditView(doc),
      });
      await meta.link?.(em, doc.id);
      return toDocumentDto(doc);
    });
  }

  /** Runs the removal job now (it is also scheduled, for removals that failed). */
  async removeFilesSoon(): Promise<void> {
    await this.jobs.add(REMOVE_DOCUMENT_FILES_JOB, {});
  }

  /** Runs `work` with the stored file; when it fails, the file is removed (no row points to it). */
  async keepingFileOnSuccess<T>(file: ReceivedFile, work: (file: ReceivedFile) => Promise<T>): Promise<T> {
    try {
      return await work(file);
    } catch (err) {
      await this.store.remove(file.key);
      throw err;
    }
  }

  async addVersionRow(em: EntityManager, doc: DocumentRecord): Promise<void> {
    await em.getRepository(DocumentVersion).insert({
      documentId: doc.id,
      version: doc.version,
      fileKey: doc.fileKey,
      fileName: doc.fileName,
      contentType: doc.contentType,
      size: doc.size,
      sha256: doc.sha256,
      validFrom: doc.validFrom,
      validUntil: doc.validUntil,
      uploadedBy: doc.uploadedBy,
      createdAt: doc.updatedAt,
    });
  }
}

/** A file's dates: from when and until when it is valid. */
export interface Validity {
  validFrom: string | null;
  validUntil: string | null;
}

export function fileFields(
  file: ReceivedFile,
  validity: Validity,
  uploadedBy: number | null,
): Pick<DocumentRecord, 'fileKey' | 'fileName' | 'contentType' | 'size' | 'sha256' | 'validFrom' | 'validUntil' | 'uploadedBy'> {
  return {
    fileKey: file.key,
    fileName: file.fileName,
    contentType: file.contentType,
    size: file.size,
    sha256: file.sha256,
    validFrom: validity.validFrom,
    validUntil: validity.validUntil,
    uploadedBy,
  };
}

/** A file's dates against its type: valid_until required where the type expires, never before valid_from. */
export function checkValidity(type: DocumentType, validFrom: string | null, validUntil: string | null): Validity {
  if (type.expires && !validUntil)
    throw ValidationException.field('valid_until', `is required: documents of type ${type.name} expire`);
  if (validFrom && validUntil && validUntil < validFrom)
    throw ValidationException.field('valid_until', 'must not be before valid_from');
  return { validFrom, validUntil };
}
