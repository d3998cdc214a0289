import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { toWholeSecond } from '../common/database/whole-second';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { AuthUser } from '../common/auth/auth-user';
import { transaction } from '../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { SearchableListQueryDto } from '../common/paging/list-query.dto';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { JobQueue } from '../common/queue/job-queue.service';
import { ByteRange, FILE_STORE, FileStore } from '../common/storage/file-store';
import { FileConditions, FileResponse } from '../common/http/file-response';
import { createValidationPipe } from '../common/validation/validation-pipe';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService } from '../employees/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { DocumentTypesService } from './document-types.service';
import { attachmentDisposition } from './document-files';
import { MultipartRequest, ReceivedFile, receiveUpload } from './document-upload';
import { documentStatus, today } from './document-status';
import { DOCUMENT_LIST_SPEC, DocumentsRepository, EMPLOYEE_DOCUMENT_LIST_SPEC } from './documents.repository';
import { DOCUMENT_SETTLED_EVENT, DocumentSettledEvent } from './documents.events';
import { REMOVE_DOCUMENT_FILES_JOB } from './documents.jobs';
import {
  CreateDocumentFieldsDto,
  DocumentDto,
  DocumentVersionDto,
  NewVersionFieldsDto,
  UpdateDocumentDto,
} from './dto/document.dto';
import { DocumentRecord, DocumentVersion } from './entities/document.entities';
import { DocumentType } from './entities/document-type.entity';

const RESOURCE = 'employees/documents';

export function toDocumentDto(d: DocumentRecord): DocumentDto {
  return {
    id: d.id,
    employee: d.employeeId,
    document_type: d.documentTypeId,
    name: d.name,
    file_name: d.fileName,
    content_type: d.contentType,
    size: d.size,
    sha256: d.sha256,
    valid_from: d.validFrom,
    valid_until: d.validUntil,
    status: d.status,
    version: d.version,
    notes: d.notes,
    uploaded_by: d.uploadedBy,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}

function toVersionDto(v: DocumentVersion): DocumentVersionDto {
  return {
    version: v.version,
    file_name: v.fileName,
    content_type: v.contentType,
    size: v.size,
    sha256: v.sha256,
    valid_from: v.validFrom,
    valid_until: v.validUntil,
    uploaded_by: v.uploadedBy,
    created_at: v.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a document: its metadata, never the file or its key. */
function auditView(d: DocumentRecord): object {
  const { created_at: _c, updated_at: _u, ...view } = toDocumentDto(d);
  return view;
}

/** What a caller may do with an employee's documents. */
interface DocumentAccess {
  /** Admin, or Restricted Admin of the employee's department: every type, every write. */
  admin: boolean;
  /** The caller is the employee (it uploads where the type allows). */
  self: boolean;
  /** The types it reads (null: all). */
  types: number[] | null;
}

const FIELDS_PIPE = createValidationPipe();

/** Form fields are text: ids become numbers, empty optional fields are left out. */
function formValues(fields: Record<string, string>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(fields)) {
    if (raw === '' && name !== 'document_type') continue;
    values[name] = name === 'document_type' && /^\d{1,10}$/.test(raw) ? Number(raw) : raw;
  }
  return values;
}

/**
 * Employee documents (API.md §14): uploads streamed into the file store, their versions, the
 * files streamed back, and who may do what. Admins and Restricted Admins in scope read and write
 * all; a Manager reads its direct reports' documents of types visible to managers; an Employee reads
 * its own of types visible to it and uploads where the type allows. Out of scope: 404.
 */
@Injectable()
export class DocumentsService implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly repository: DocumentsRepository,
    private readonly types: DocumentTypesService,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesService,
    private readonly jobs: JobQueue,
    private readonly events: EventEmitter2,
  ) {}

  onModuleInit(): void {
    // An employee's deletion queues its documents' files for removal, in the deleting transaction.
    this.employees.onRemove(async (em, employeeId) => {
      if (!(await this.repository.hasDocuments(em, employeeId))) return;
      await this.repository.queueFileRemovals(em, { employee: employeeId });
      return () => this.removeFilesSoon();
    });
  }

  private async accessTo(caller: AuthUser, employeeId: number): Promise<DocumentAccess> {
    if (await this.access.administersId(caller, employeeId))
      return { admin: true, self: caller.employeeId === employeeId, types: null };
    if (caller.employeeId === employeeId) {
      return { admin: false, self: true, types: (await this.types.all()).filter((t) => t.visibleToEmployee).map((t) => t.id) };
    }
    if (caller.level === 'Manager' && caller.employeeId !== null) {
      const employee = await this.access.employee(employeeId);
      if (employee && employee.supervisorId === caller.employeeId) {
        return { admin: false, self: false, types: (await this.types.all()).filter((t) => t.visibleToManager).map((t) => t.id) };
      }
    }
    throw new NotFoundException('Employee');
  }

  private async readable(
    caller: AuthUser,
    employeeId: number,
    id: number,
  ): Promise<{ doc: DocumentRecord; access: DocumentAccess }> {
    const access = await this.accessTo(caller, employeeId);
    const doc = await this.repository.one(employeeId, id);
    if (!doc || (access.types && !access.types.includes(doc.documentTypeId))) throw new NotFoundException('Document');
    return { doc, access };
  }

  /** An administrator's write: others who see the document get 403, others 404. */
  private async writable(caller: AuthUser, employeeId: number, id: number): Promise<DocumentRecord> {
    const { doc, access } = await this.readable(caller, employeeId, id);
    if (!access.admin) throw new DomainException('FORBIDDEN', "Only HR changes or deletes an employee's documents");
    return doc;
  }

  async ofEmployee(caller: AuthUser, employeeId: number, query: SearchableListQueryDto): Promise<Page<DocumentDto>> {
    const access = await this.accessTo(caller, employeeId);
    const page = await this.repository.ofEmployee(employeeId, access.types, parseListQuery(query, EMPLOYEE_DOCUMENT_LIST_SPEC));
    return page.map(toDocumentDto);
  }

  /** The company-wide list: every document for an Admin, those of its departments for a Restricted Admin. */
  async all(caller: AuthUser, query: SearchableListQueryDto): Promise<Page<DocumentDto>> {
    const request = parseListQuery(query, DOCUMENT_LIST_SPEC);
    const scope = await this.access.scopeOf(caller);
    const departments = scope.kind === 'departments' ? scope.departmentIds : null;
    return (await this.repository.all(departments, request)).map(toDocumentDto);
  }

  async get(caller: AuthUser, employeeId: number, id: number): Promise<DocumentDto> {
    return toDocumentDto((await this.readable(caller, employeeId, id)).doc);
  }

  async versions(caller: AuthUser, employeeId: number, id: number): Promise<DocumentVersionDto[]> {
    const { doc } = await this.readable(caller, employeeId, id);
    return (await this.repository.versions(doc.id)).map(toVersionDto);
  }

  /** POST /employees/{id}/documents: the file stored first, then the rows; a failure removes the file. */
  async upload(caller: AuthUser, employeeId: number, request: MultipartRequest): Promise<DocumentDto> {
    const access = await this.accessTo(caller, employeeId);
    if (!access.admin && !access.self) throw new DomainException('FORBIDDEN', "Only HR uploads an employee's documents");
    const received = await receiveUpload(this.store, request, this.config.documents);
    return this.keepingFileOnSuccess(received.file, async () => {
      const fields = (await this.checkFields(received.fields, CreateDocumentFieldsDto)) as CreateDocumentFieldsDto;
      const type = await this.types.byId(fields.document_type);
      if (!type) throw ValidationException.field('document_type', 'does not exist');
      if (!access.admin && !type.employeeMayUpload) {
        throw new DomainException('FORBIDDEN', 'Documents of this type are uploaded by HR');
      }
      const validity = checkValidity(type, fields.valid_from ?? null, fields.valid_until ?? null);
      return this.insertDocument(employeeId, type, received.file, {
        name: fields.name ?? type.name,
        notes: fields.notes ?? null,
        validity,
        uploadedBy: caller.id,
      });
    });
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
    return this.keepingFileOnSuccess({ ...stored, fileName: file.fileName, contentType: file.contentType }, (received) =>
      this.insertDocument(employeeId, type, received, {
        name: meta.name ?? type.name,
        notes: meta.notes ?? null,
        validity,
        uploadedBy: meta.uploadedBy ?? null,
        link,
      }),
    );
  }

  /** A new document and its first version, audited, in one transaction. */
  private insertDocument(
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
          status: documentStatus(meta.validity.validUntil, type, today()),
          ...fileFields(file, meta.validity, meta.uploadedBy),
          createdAt: now,
          updatedAt: now,
        }),
      );
      await this.addVersionRow(em, doc);
      await recordAudit(em, {
        action: 'upload',
        resource: RESOURCE,
        resourceId: doc.id,
        employee: employeeId,
        after: auditView(doc),
      });
      await meta.link?.(em, doc.id);
      return toDocumentDto(doc);
    });
  }

  /** POST .../versions: a renewed file becomes the current one; the old ones stay readable. */
  async addVersion(caller: AuthUser, employeeId: number, id: number, request: MultipartRequest): Promise<DocumentDto> {
    const { doc: found, access } = await this.readable(caller, employeeId, id);
    const type = await this.types.byId(found.documentTypeId);
    if (!access.admin && !(access.self && type?.employeeMayUpload)) {
      throw new DomainException('FORBIDDEN', 'Documents of this type are uploaded by HR');
    }
    const received = await receiveUpload(this.store, request, this.config.documents);
    return this.keepingFileOnSuccess(received.file, async () => {
      const fields = (await this.checkFields(received.fields, NewVersionFieldsDto)) as NewVersionFieldsDto;
      const validity = checkValidity(type!, fields.valid_from ?? null, fields.valid_until ?? null);
      return transaction(this.ds, async (em) => {
        const doc = await this.repository.lockOne(em, employeeId, id);
        if (!doc) throw new NotFoundException('Document');
        const before = auditView(doc);
        Object.assign(doc, fileFields(received.file, validity, caller.id), {
          version: doc.version + 1,
          status: documentStatus(validity.validUntil, type!, today()),
          updatedAt: toWholeSecond(),
          ...(fields.notes !== undefined ? { notes: fields.notes } : {}),
        });
        await em.getRepository(DocumentRecord).save(doc);
        await this.addVersionRow(em, doc);
        await recordAudit(em, {
          action: 'new-version',
          resource: RESOURCE,
          resourceId: doc.id,
          employee: employeeId,
          before,
          after: auditView(doc),
        });
        return toDocumentDto(doc);
      });
    }).then(async (dto) => {
      await this.settle(dto.id, await this.repository.reminderIds(dto.id));
      return dto;
    });
  }

  /** PUT: the metadata; a type or dates that change recompute the status. */
  async update(caller: AuthUser, employeeId: number, id: number, dto: UpdateDocumentDto): Promise<DocumentDto> {
    await this.writable(caller, employeeId, id);
    return transaction(this.ds, async (em) => {
      const doc = await this.repository.lockOne(em, employeeId, id);
      if (!doc) throw new NotFoundException('Document');
      const type = await this.types.byId(dto.document_type ?? doc.documentTypeId);
      if (!type) throw ValidationException.field('document_type', 'does not exist');
      const validity = checkValidity(
        type,
        dto.valid_from !== undefined ? dto.valid_from : doc.validFrom,
        dto.valid_until !== undefined ? dto.valid_until : doc.validUntil,
      );
      const before = auditView(doc);
      Object.assign(doc, {
        documentTypeId: type.id,
        ...(dto.name !== undefined ? { name: dto.name } : {}),
        ...(dto.notes !== undefined ? { notes: dto.notes } : {}),
        validFrom: validity.validFrom,
        validUntil: validity.validUntil,
        status: documentStatus(validity.validUntil, type, today()),
      });
      const after = auditView(doc);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        doc.updatedAt = toWholeSecond();
        await em.getRepository(DocumentRecord).save(doc);
        // The current version's row follows its validity.
        await em
          .getRepository(DocumentVersion)
          .update({ documentId: doc.id, version: doc.version }, { validFrom: doc.validFrom, validUntil: doc.validUntil });
        await recordAudit(em, { action: 'update', resource: RESOURCE, resourceId: doc.id, employee: employeeId, before, after });
      }
      return toDocumentDto(doc);
    });
  }

  /** DELETE: the document and its versions now, their files by a job (retried until they are gone). */
  async remove(caller: AuthUser, employeeId: number, id: number): Promise<{ id: number }> {
    const doc = await this.writable(caller, employeeId, id);
    const reminders = await this.repository.reminderIds(doc.id);
    await transaction(this.ds, async (em) => {
      await this.repository.queueFileRemovals(em, { document: doc.id });
      await em.getRepository(DocumentRecord).delete({ id: doc.id });
      await recordAudit(em, {
        action: 'delete',
        resource: RESOURCE,
        resourceId: doc.id,
        employee: employeeId,
        before: auditView(doc),
      });
    });
    await this.removeFilesSoon();
    await this.settle(doc.id, reminders);
    return { id: doc.id };
  }

  /** The reminder tasks of a renewed or deleted document are done. */
  private async settle(documentId: number, reminderIds: number[]): Promise<void> {
    if (reminderIds.length)
      await this.events.emitAsync(DOCUMENT_SETTLED_EVENT, { documentId, reminderIds } satisfies DocumentSettledEvent);
  }

  /**
   * A document's file (the current one, or version `version`), the download audited: who read
   * whose passport. `range`: the Range header (one range; others are answered with the whole file).
   */
  async file(
    caller: AuthUser,
    employeeId: number,
    id: number,
    version: number | null,
    conditions: FileConditions,
  ): Promise<FileResponse> {
    const { doc } = await this.readable(caller, employeeId, id);
    return this.serve(doc, version, conditions);
  }

  /**
   * The current file of a document the service made (a payslip PDF), for a caller whose right to
   * it the caller checked (the payslip's scope); audited as a download like any other.
   */
  async generatedFile(employeeId: number, id: number, conditions: FileConditions): Promise<FileResponse> {
    const doc = await this.repository.one(employeeId, id);
    if (!doc) throw new NotFoundException('Document');
    return this.serve(doc, null, conditions);
  }

  private async serve(doc: DocumentRecord, version: number | null, conditions: FileConditions): Promise<FileResponse> {
    const file = version === null || version === doc.version ? doc : await this.repository.version(doc.id, version);
    if (!file) throw new NotFoundException('Version');
    const etag = `"${file.sha256}"`;
    const common = {
      ETag: etag,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "sandbox; default-src 'none'",
      'Accept-Ranges': 'bytes',
    };
    if (conditions.ifNoneMatch && conditions.ifNoneMatch.split(',').some((t) => t.trim() === etag)) {
      return { status: 304, headers: common };
    }
    const range =
      conditions.range && (!conditions.ifRange || conditions.ifRange.trim() === etag)
        ? parseRange(conditions.range, file.size)
        : null;
    const opened = await this.store.open(file.fileKey, range ?? undefined);
    if (!opened) throw new NotFoundException('File');
    await recordAudit(this.ds.manager, {
      action: 'download',
      resource: RESOURCE,
      resourceId: doc.id,
      employee: doc.employeeId,
      after: {
        version: version ?? doc.version,
        file_name: file.fileName,
        ...(range ? { range: `${range.start}-${range.end}` } : {}),
      },
    });
    const headers: Record<string, string> = {
      ...common,
      'Content-Type': file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType,
      'Content-Disposition': attachmentDisposition(file.fileName),
      'Content-Length': String(range ? range.end - range.start + 1 : file.size),
    };
    if (range) headers['Content-Range'] = `bytes ${range.start}-${range.end}/${file.size}`;
    return { body: opened.body, status: range ? 206 : 200, headers };
  }

  /** The current file of a document the service made (a payslip PDF to attach), read whole: it is small. */
  async generatedContent(employeeId: number, id: number): Promise<{ content: Buffer; fileName: string; contentType: string }> {
    const doc = await this.repository.one(employeeId, id);
    const opened = doc && (await this.store.open(doc.fileKey));
    if (!doc || !opened) throw new NotFoundException('Document');
    const chunks: Buffer[] = [];
    for await (const chunk of opened.body) chunks.push(chunk as Buffer);
    return { content: Buffer.concat(chunks), fileName: doc.fileName, contentType: doc.contentType };
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
  async removeFilesSoon(): Promise<void> {
    await this.jobs.add(REMOVE_DOCUMENT_FILES_JOB, {});
  }

  private async checkFields(
    fields: Record<string, string>,
    type: typeof CreateDocumentFieldsDto | typeof NewVersionFieldsDto,
  ): Promise<object> {
    return (await FIELDS_PIPE.transform(formValues(fields), { type: 'body', metatype: type })) as object;
  }

  /** Runs `work` with the stored file; when it fails, the file is removed (no row points to it). */
  private async keepingFileOnSuccess<T>(file: ReceivedFile, work: (file: ReceivedFile) => Promise<T>): Promise<T> {
    try {
      return await work(file);
    } catch (err) {
      await this.store.remove(file.key);
      throw err;
    }
  }

  private async addVersionRow(em: EntityManager, doc: DocumentRecord): Promise<void> {
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
interface Validity {
  validFrom: string | null;
  validUntil: string | null;
}

function fileFields(
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
function checkValidity(type: DocumentType, validFrom: string | null, validUntil: string | null): Validity {
  if (type.expires && !validUntil)
    throw ValidationException.field('valid_until', `is required: documents of type ${type.name} expire`);
  if (validFrom && validUntil && validUntil < validFrom)
    throw ValidationException.field('valid_until', 'must not be before valid_from');
  return { validFrom, validUntil };
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n` (RFC 9110), clamped to the file; null
 * for a header we answer with the whole file (several ranges, another unit, garbage). 416 when the
 * range starts past the end.
 */
export function parseRange(header: string, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) throw unsatisfiable(size);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size) throw unsatisfiable(size);
  return { start, end };
}

function unsatisfiable(size: number): DomainException {
  return new DomainException('RANGE_NOT_SATISFIABLE', `The range is outside the file (${size} bytes)`, undefined, {
    'Content-Range': `bytes */${size}`,
  });
}
