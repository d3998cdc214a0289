import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { recordEvent } from '../common/outbox/outbox';
import { AuthUser } from '../common/auth/auth-user';
import { transaction } from '../common/database/transaction';
import { toWholeSecond } from '../common/time/instants';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { SearchableListQueryDto } from '../common/paging/list-query.dto';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { createValidationPipe } from '../common/validation/validation-pipe';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { DocumentAccessService } from './document-access.service';
import { DocumentTypesService } from './document-types.service';
import { MultipartRequest, receiveUpload } from './document-upload';
import { documentStatus } from './document-status';
import { auditView, DOCUMENTS_RESOURCE, toDocumentDto, toVersionDto } from './document-views';
import { checkValidity, DocumentWriterService, fileFields } from './document-writer.service';
import { DOCUMENT_LIST_SPEC, DocumentsRepository, EMPLOYEE_DOCUMENT_LIST_SPEC } from './documents.repository';
import './documents.events';
import {
  CreateDocumentFieldsDto,
  DocumentDto,
  DocumentVersionDto,
  NewVersionFieldsDto,
  UpdateDocumentDto,
} from './dto/document.dto';
import { DocumentRecord, DocumentVersion } from './entities/document.entities';

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
 * Employee documents (docs/api/decisions.md §14): their metadata, uploads streamed into the file store and their
 * versions. Who may do what: DocumentAccessService; the files served: DocumentFilesService; files
 * the service makes: GeneratedDocumentsService.
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
    private readonly documentAccess: DocumentAccessService,
    private readonly writer: DocumentWriterService,
    private readonly employees: EmployeesService,
    private readonly clock: CompanyClock,
  ) {}

  onModuleInit(): void {
    // An employee's deletion queues its documents' files for removal, in the deleting transaction.
    this.employees.onRemove(async (em, employeeId) => {
      if (!(await this.repository.hasDocuments(em, employeeId))) return;
      await this.repository.queueFileRemovals(em, { employee: employeeId });
      return () => this.writer.removeFilesSoon();
    });
  }

  async ofEmployee(caller: AuthUser, employeeId: number, query: SearchableListQueryDto): Promise<Page<DocumentDto>> {
    const access = await this.documentAccess.accessTo(caller, employeeId);
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
    return toDocumentDto((await this.documentAccess.readable(caller, employeeId, id)).doc);
  }

  async versions(caller: AuthUser, employeeId: number, id: number): Promise<DocumentVersionDto[]> {
    const { doc } = await this.documentAccess.readable(caller, employeeId, id);
    return (await this.repository.versions(doc.id)).map(toVersionDto);
  }

  /** POST /employees/{id}/documents: the file stored first, then the rows; a failure removes the file. */
  async upload(caller: AuthUser, employeeId: number, request: MultipartRequest): Promise<DocumentDto> {
    const access = await this.documentAccess.accessTo(caller, employeeId);
    if (!access.admin && !access.self) throw new DomainException('FORBIDDEN', "Only HR uploads an employee's documents");
    const received = await receiveUpload(this.store, request, this.config.documents);
    return this.writer.keepingFileOnSuccess(received.file, async () => {
      const fields = (await this.checkFields(received.fields, CreateDocumentFieldsDto)) as CreateDocumentFieldsDto;
      const type = await this.types.byId(fields.document_type);
      if (!type) throw ValidationException.field('document_type', 'does not exist');
      if (!access.admin && !type.employeeMayUpload) {
        throw new DomainException('FORBIDDEN', 'Documents of this type are uploaded by HR');
      }
      const validity = checkValidity(type, fields.valid_from ?? null, fields.valid_until ?? null);
      return this.writer.insertDocument(employeeId, type, received.file, {
        name: fields.name ?? type.name,
        notes: fields.notes ?? null,
        validity,
        uploadedBy: caller.id,
      });
    });
  }

  /** POST .../versions: a renewed file becomes the current one; the old ones stay readable. */
  async addVersion(caller: AuthUser, employeeId: number, id: number, request: MultipartRequest): Promise<DocumentDto> {
    const { doc: found, access } = await this.documentAccess.readable(caller, employeeId, id);
    const type = await this.types.byId(found.documentTypeId);
    if (!access.admin && !(access.self && type?.employeeMayUpload)) {
      throw new DomainException('FORBIDDEN', 'Documents of this type are uploaded by HR');
    }
    const received = await receiveUpload(this.store, request, this.config.documents);
    return this.writer.keepingFileOnSuccess(received.file, async () => {
      const fields = (await this.checkFields(received.fields, NewVersionFieldsDto)) as NewVersionFieldsDto;
      const validity = checkValidity(type!, fields.valid_from ?? null, fields.valid_until ?? null);
      return transaction(this.ds, async (em) => {
        const doc = await this.repository.lockOne(em, employeeId, id);
        if (!doc) throw new NotFoundException('Document');
        const before = auditView(doc);
        Object.assign(doc, fileFields(received.file, validity, caller.id), {
          version: doc.version + 1,
          status: documentStatus(validity.validUntil, type!, await this.clock.today()),
          updatedAt: toWholeSecond(),
          ...(fields.notes !== undefined ? { notes: fields.notes } : {}),
        });
        await em.getRepository(DocumentRecord).save(doc);
        await this.writer.addVersionRow(em, doc);
        await recordAudit(em, {
          action: 'new-version',
          resource: DOCUMENTS_RESOURCE,
          event: 'document.uploaded',
          resourceId: doc.id,
          employee: employeeId,
          before,
          after: auditView(doc),
        });
        await this.settle(em, doc.id, await this.repository.reminderIds(doc.id, em));
        return toDocumentDto(doc);
      });
    });
  }

  /** PUT: the metadata; a type or dates that change recompute the status. */
  async update(caller: AuthUser, employeeId: number, id: number, dto: UpdateDocumentDto): Promise<DocumentDto> {
    await this.documentAccess.writable(caller, employeeId, id);
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
        status: documentStatus(validity.validUntil, type, await this.clock.today()),
      });
      const after = auditView(doc);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        doc.updatedAt = toWholeSecond();
        await em.getRepository(DocumentRecord).save(doc);
        // The current version's row follows its validity.
        await em
          .getRepository(DocumentVersion)
          .update({ documentId: doc.id, version: doc.version }, { validFrom: doc.validFrom, validUntil: doc.validUntil });
        await recordAudit(em, {
          action: 'update',
          resource: DOCUMENTS_RESOURCE,
          resourceId: doc.id,
          employee: employeeId,
          before,
          after,
        });
      }
      return toDocumentDto(doc);
    });
  }

  /** DELETE: the document and its versions now, their files by a job (retried until they are gone). */
  async remove(caller: AuthUser, employeeId: number, id: number): Promise<{ id: number }> {
    const doc = await this.documentAccess.writable(caller, employeeId, id);
    const reminders = await this.repository.reminderIds(doc.id);
    await transaction(this.ds, async (em) => {
      await this.repository.queueFileRemovals(em, { document: doc.id });
      await em.getRepository(DocumentRecord).delete({ id: doc.id });
      await recordAudit(em, {
        action: 'delete',
        resource: DOCUMENTS_RESOURCE,
        resourceId: doc.id,
        employee: employeeId,
        before: auditView(doc),
      });
      await this.settle(em, doc.id, reminders);
    });
    await this.writer.removeFilesSoon();
    return { id: doc.id };
  }

  /** The reminder tasks of a renewed or deleted document are done (documents.reactions.ts), with the change. */
  private async settle(em: EntityManager, documentId: number, reminderIds: number[]): Promise<void> {
    if (reminderIds.length) await recordEvent(em, 'document.settled', { document: documentId, reminders: reminderIds });
  }

  private async checkFields(
    fields: Record<string, string>,
    type: typeof CreateDocumentFieldsDto | typeof NewVersionFieldsDto,
  ): Promise<object> {
    return (await FIELDS_PIPE.transform(formValues(fields), { type: 'body', metatype: type })) as object;
  }
}
