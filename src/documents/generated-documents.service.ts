import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { EntityManager } from 'typeorm';
import { NotFoundException } from '../common/errors/domain.exception';
import { FileConditions, FileResponse } from '../common/http/file-response';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { MailOutbox } from '../mail/outbox/mail-outbox.service';
import { DocumentFilesService } from './document-files.service';
import { DocumentTypesService } from './document-types.service';
import { checkValidity, DocumentWriterService } from './document-writer.service';
import { DocumentsRepository } from './documents.repository';
import { DocumentFileKind } from './documents.config';
import { MultipartRequest, receiveUpload } from './document-upload';
import { DocumentDto } from './dto/document.dto';

/**
 * The API of documents for files the service makes itself (payslip PDFs, the demo company's): stored
 * as an upload would be, read back to attach or serve, removed with what they belong to.
 */
@Injectable()
export class GeneratedDocumentsService implements OnModuleInit {
  constructor(
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly repository: DocumentsRepository,
    private readonly types: DocumentTypesService,
    private readonly writer: DocumentWriterService,
    private readonly files: DocumentFilesService,
    private readonly outbox: MailOutbox,
  ) {}

  /** The mail outbox attaches documents by id (a payslip's PDF) through this service. */
  onModuleInit(): void {
    this.outbox.readAttachmentsWith((id) => this.generatedContent(id));
  }

  /**
   * A file the service makes itself (the demo company's, payslip PDFs): stored, then its document
   * as an upload makes it, uploaded by nobody (null) unless `uploadedBy` says who asked for it.
   * `link` runs in the document's transaction (a payslip pointing at its PDF): both or neither.
   */
  async storeGenerated(
    employeeId: number,
    typeId: number,
    file: { content: Buffer; fileName: string; contentType: string },
    meta: {
      name?: string;
      notes?: string | null;
      validFrom?: string | null;
      validUntil?: string | null;
      uploadedBy?: number | null;
    },
    link?: (em: EntityManager, documentId: number) => Promise<unknown>,
  ): Promise<DocumentDto> {
    const type = await this.types.byId(typeId);
    if (!type) throw new NotFoundException('Document type');
    const validity = checkValidity(type, meta.validFrom ?? null, meta.validUntil ?? null);
    const stored = await this.store.put(Readable.from([file.content]), {
      maxBytes: file.content.length,
      contentType: file.contentType,
    });
    return this.writer.keepingFileOnSuccess({ ...stored, fileName: file.fileName, contentType: file.contentType }, (received) =>
      this.writer.insertDocument(employeeId, type, received, {
        name: meta.name ?? type.name,
        notes: meta.notes ?? null,
        validity,
        uploadedBy: meta.uploadedBy ?? null,
        link,
      }),
    );
  }

  /**
   * An upload another module keeps as a document of the employee (a receipt of a claim): the
   * multipart `file` part streamed into the store within `limits` (its kind decided by its bytes:
   * 413 too large, 415 not of `allowedTypes`), then a document of the service's own type `typeCode`
   * named `name`, uploaded by `uploadedBy`; `link` runs in the document's transaction. The caller
   * checked the right to upload; a failure leaves no file stored.
   */
  async storeUpload(
    employeeId: number,
    typeCode: string,
    request: MultipartRequest,
    limits: { maxBytes: number; allowedTypes: readonly DocumentFileKind[] },
    meta: { name: string; uploadedBy: number },
    link?: (em: EntityManager, documentId: number) => Promise<unknown>,
  ): Promise<DocumentDto> {
    const type = await this.types.byCode(typeCode);
    const received = await receiveUpload(this.store, request, limits);
    return this.writer.keepingFileOnSuccess(received.file, () =>
      this.writer.insertDocument(employeeId, type, received.file, {
        name: meta.name,
        notes: null,
        validity: checkValidity(type, null, null),
        uploadedBy: meta.uploadedBy,
        link,
      }),
    );
  }

  /**
   * The current file of a document the service made (a payslip PDF), for a caller whose right to
   * it the caller checked (the payslip's scope); audited as a download like any other.
   */
  async generatedFile(employeeId: number, id: number, conditions: FileConditions): Promise<FileResponse> {
    const doc = await this.repository.one(employeeId, id);
    if (!doc) throw new NotFoundException('Document');
    return this.files.serve(doc, null, conditions);
  }

  /** The current file of a document the service made (a payslip PDF to attach), read whole: it is small. */
  async generatedContent(id: number): Promise<{ filename: string; content: Buffer; contentType: string }> {
    const doc = await this.repository.byId(id);
    const opened = doc && (await this.store.open(doc.fileKey));
    if (!doc || !opened) throw new NotFoundException('Document');
    return { filename: doc.fileName, content: await buffer(opened.body), contentType: doc.contentType };
  }

  /** The store's key of a document's current file (a payslip PDF for the subject-access export), in `em`'s transaction; null when it is gone. */
  async fileKeyOf(em: EntityManager, id: number): Promise<string | null> {
    return (await this.repository.byId(id, em))?.fileKey ?? null;
  }

  /**
   * Deletes documents the service made (payslip PDFs), in the caller's transaction, their files
   * queued for removal; call `removeFilesSoon` once it committed. Audited by the caller's own entry.
   */
  async removeGenerated(em: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.repository.queueFileRemovals(em, { documents: ids });
    await this.repository.deleteMany(em, ids);
  }

  /** Runs the removal job now (it is also scheduled, for removals that failed). */
  removeFilesSoon(): Promise<void> {
    return this.writer.removeFilesSoon();
  }
}
