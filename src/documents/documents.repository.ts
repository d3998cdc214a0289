import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThan } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { findPage, ListRequest, ListSpec, sampleListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { EmployeesRepository } from '../employees/core/employees.repository';
import {
  DOCUMENT_STATUSES,
  DocumentFileRemoval,
  DocumentRecord,
  DocumentReminder,
  DocumentStatus,
  DocumentVersion,
} from './entities/document.entities';

/** An employee's documents: newest first unless sorted otherwise. */
export const EMPLOYEE_DOCUMENT_LIST_SPEC: ListSpec = {
  idColumn: 'd.id',
  sortFields: { id: 'd.id', created_at: 'd.id', name: 'd.name', valid_until: 'd.valid_until' },
  defaultSort: { field: 'id', order: 'descend' },
  filterFields: {
    document_type: { column: 'd.document_type_id', type: 'int' },
    status: { column: 'd.status', type: 'string', values: DOCUMENT_STATUSES },
  },
  searchColumns: ['d.name', 'd.file_name'],
};

/** The company's documents, soonest to expire first: "what expires this quarter". */
export const DOCUMENT_LIST_SPEC: ListSpec = {
  ...EMPLOYEE_DOCUMENT_LIST_SPEC,
  defaultSort: { field: 'valid_until', order: 'ascend' },
  filterFields: {
    ...EMPLOYEE_DOCUMENT_LIST_SPEC.filterFields,
    employee: { column: 'd.employee_id', type: 'int' },
    valid_until_before: { column: 'd.valid_until', type: 'date', compare: 'atMost' },
  },
};

/** Rows per multi-row statement of the expiry job. */
const BATCH = 500;

/** What the expiry job reads of a document. */
export type ExpiryCandidate = Pick<
  DocumentRecord,
  'id' | 'employeeId' | 'documentTypeId' | 'name' | 'validUntil' | 'status' | 'version'
>;

/** The documents' SQL (issue 28): documents, their versions, reminders made and files to remove. */
@Injectable()
export class DocumentsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /** A page of the employee's documents, of `types` only when given (what a non-admin may read). */
  @RecordSql(1, [1, 2], sampleListRequest(EMPLOYEE_DOCUMENT_LIST_SPEC))
  ofEmployee(employeeId: number, types: number[] | null, request: ListRequest): Promise<Page<DocumentRecord>> {
    const qb = this.ds.getRepository(DocumentRecord).createQueryBuilder('d').where('d.employee_id = :employeeId', { employeeId });
    if (types) qb.andWhere(types.length ? 'd.document_type_id IN (:...types)' : '1 = 0', { types });
    return findPage(qb, request);
  }

  /** A document by its id alone: for the service's own reads (an e-mail's attachment), never a caller's. */
  @RecordSql(1)
  byId(id: number, em: EntityManager = this.ds.manager): Promise<DocumentRecord | null> {
    return em.getRepository(DocumentRecord).findOne({ where: { id } });
  }

  /**
   * A page of the company's documents, of employees in `departments` (null: all). A scoped page is
   * a deferred join: the scope's Expiring ids are sorted from ix_documents_employee alone (on
   * MariaDB, 7 500 of 1 000 000 documents: 28 ms, against 53 ms sorting whole rows).
   */
  @RecordSql(
    [1, 2],
    sampleListRequest(DOCUMENT_LIST_SPEC, { filters: '{"status":"Expiring","valid_until_before":"2027-01-01"}' }),
  )
  all(departments: number[] | null, request: ListRequest): Promise<Page<DocumentRecord>> {
    const qb = this.ds.getRepository(DocumentRecord).createQueryBuilder('d');
    const scope = this.employees.inDepartments('d.employee_id', departments);
    if (scope) qb.where(scope.sql, scope.params);
    return findPage(qb, request, undefined, scope !== null);
  }

  @RecordSql(1, 2)
  one(employeeId: number, id: number): Promise<DocumentRecord | null> {
    return this.ds.getRepository(DocumentRecord).findOne({ where: { id, employeeId } });
  }

  /** The document, its row locked on MariaDB until `em`'s transaction ends (a new version, an edit). */
  @RecordSql(SAMPLE_MANAGER, 1, 2)
  lockOne(em: EntityManager, employeeId: number, id: number): Promise<DocumentRecord | null> {
    const mysql = this.ds.options.type === 'mysql';
    return em
      .getRepository(DocumentRecord)
      .findOne({ where: { id, employeeId }, ...(mysql ? { lock: { mode: 'pessimistic_write' } } : {}) });
  }

  @RecordSql(1)
  versions(documentId: number): Promise<DocumentVersion[]> {
    return this.ds.getRepository(DocumentVersion).find({ where: { documentId }, order: { version: 'DESC' } });
  }

  @RecordSql(1, 1)
  version(documentId: number, version: number): Promise<DocumentVersion | null> {
    return this.ds.getRepository(DocumentVersion).findOne({ where: { documentId, version } });
  }

  /**
   * Queues the stored files of the documents chosen by `where` (a document, or an employee's) for
   * removal, in `em`'s transaction that deletes their rows: one INSERT ... SELECT, appended rows only.
   */
  @RecordSql(SAMPLE_MANAGER, { employee: 1 })
  async queueFileRemovals(
    em: EntityManager,
    where: { employee: number } | { document: number } | { documents: number[] },
  ): Promise<void> {
    const select =
      'SELECT v.file_key, 0, CURRENT_TIMESTAMP FROM document_versions v INNER JOIN documents d ON d.id = v.document_id';
    const insert = `INSERT INTO document_file_removals (file_key, attempts, created_at) ${select}`;
    if ('documents' in where) {
      for (let i = 0; i < where.documents.length; i += BATCH) {
        const ids = where.documents.slice(i, i + BATCH);
        await em.query(`${insert} WHERE d.id IN (${ids.map(() => '?').join(', ')})`, ids);
      }
      return;
    }
    const [column, value] = 'employee' in where ? ['d.employee_id', where.employee] : ['d.id', where.document];
    await em.query(`${insert} WHERE ${column} = ?`, [value]);
  }

  /** Deletes documents (their versions and reminders go with them), BATCH ids a statement. */
  @RecordSql(SAMPLE_MANAGER, [1, 2])
  async deleteMany(em: EntityManager, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH)
      await em.getRepository(DocumentRecord).delete({ id: In(ids.slice(i, i + BATCH)) });
  }

  /** Whether the employee has documents (its deletion queues their files only then). */
  @RecordSql(SAMPLE_MANAGER, 1)
  hasDocuments(em: EntityManager, employeeId: number): Promise<boolean> {
    return em.getRepository(DocumentRecord).exists({ where: { employeeId } });
  }

  /** Files waiting for removal, oldest first, after `afterId`. */
  @RecordSql(0, 100)
  pendingRemovals(afterId: number, limit: number): Promise<DocumentFileRemoval[]> {
    return this.ds
      .getRepository(DocumentFileRemoval)
      .find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take: limit });
  }

  @RecordSql([1, 2])
  async removalsDone(ids: number[]): Promise<void> {
    if (ids.length) await this.ds.getRepository(DocumentFileRemoval).delete({ id: In(ids) });
  }

  @RecordSql([1, 2])
  async removalsFailed(ids: number[]): Promise<void> {
    if (ids.length) await this.ds.getRepository(DocumentFileRemoval).increment({ id: In(ids) }, 'attempts', 1);
  }

  /** Whether another document version still holds the key (a file is never shared, but a removal must not guess). */
  @RecordSql('0123456789abcdef0123456789abcdef0123456789abcdef')
  keyInUse(key: string): Promise<boolean> {
    return this.ds.getRepository(DocumentVersion).exists({ where: { fileKey: key } });
  }

  /**
   * Documents that may need a status change or a reminder by `today`: those with a valid_until up
   * to `horizon` (today + the largest reminder) that are Valid or Expiring, after `afterId`, in
   * id order.
   */
  @RecordSql('2027-01-31', 0, 500)
  expiryCandidates(horizon: string, afterId: number, limit: number): Promise<ExpiryCandidate[]> {
    return this.ds
      .getRepository(DocumentRecord)
      .createQueryBuilder('d')
      .select(['d.id', 'd.employeeId', 'd.documentTypeId', 'd.name', 'd.validUntil', 'd.status', 'd.version'])
      .where("d.status IN ('Valid', 'Expiring')")
      .andWhere('d.valid_until <= :horizon', { horizon })
      .andWhere('d.id > :afterId', { afterId })
      .orderBy('d.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Documents marked Expiring whose valid_until moved beyond the window: back to Valid (a type's reminders shortened). */
  @RecordSql('2027-01-31', 0, 500)
  staleExpiring(horizon: string, afterId: number, limit: number): Promise<ExpiryCandidate[]> {
    return this.ds
      .getRepository(DocumentRecord)
      .createQueryBuilder('d')
      .select(['d.id', 'd.employeeId', 'd.documentTypeId', 'd.name', 'd.validUntil', 'd.status', 'd.version'])
      .where("d.status = 'Expiring'")
      .andWhere('(d.valid_until > :horizon OR d.valid_until IS NULL)', { horizon })
      .andWhere('d.id > :afterId', { afterId })
      .orderBy('d.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Sets the status of documents (one UPDATE per status and batch). */
  @RecordSql(SAMPLE_MANAGER, 'Expiring', [1, 2])
  async setStatus(em: EntityManager, status: DocumentStatus, ids: number[]): Promise<void> {
    for (let i = 0; i < ids.length; i += BATCH) {
      await em.getRepository(DocumentRecord).update({ id: In(ids.slice(i, i + BATCH)) }, { status });
    }
  }

  /**
   * Claims reminders for `run`: INSERT IGNORE of (document, version, mark), the unique index
   * keeping the one a concurrent run made first; returns the ids of the rows this run inserted.
   */
  @RecordSql(SAMPLE_MANAGER, 'run-1', [{ documentId: 1, version: 1, mark: 7 }])
  async claimReminders(
    em: EntityManager,
    run: string,
    reminders: ReadonlyArray<{ documentId: number; version: number; mark: number }>,
  ): Promise<DocumentReminder[]> {
    if (!reminders.length) return [];
    for (let i = 0; i < reminders.length; i += BATCH) {
      await em
        .createQueryBuilder()
        .insert()
        .into(DocumentReminder)
        .values(reminders.slice(i, i + BATCH).map((r) => ({ ...r, run })))
        .orIgnore()
        .updateEntity(false)
        .execute();
    }
    return em.getRepository(DocumentReminder).find({ where: { run }, order: { id: 'ASC' } });
  }

  /** The ids of the reminders made for the document (their tasks are done when it is renewed or deleted). */
  @RecordSql(1)
  async reminderIds(documentId: number, em: EntityManager = this.ds.manager): Promise<number[]> {
    return (await em.getRepository(DocumentReminder).find({ select: { id: true }, where: { documentId } })).map((r) => r.id);
  }
}
