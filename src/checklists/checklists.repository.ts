import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { findPage, ListRequest, ListSpec, sampleListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { EmployeeScope } from '../employees/core/employee-access.service';
import { Checklist, CHECKLIST_STATUSES, CHECKLIST_TRIGGERS } from './entities/checklist.entities';

/** GET /checklists: newest first unless sorted otherwise. */
export const CHECKLIST_LIST_SPEC: ListSpec = {
  idColumn: 'c.id',
  sortFields: { id: 'c.id', effective_date: 'c.effective_date' },
  defaultSort: { field: 'id', order: 'descend' },
  filterFields: {
    employee: { column: 'c.employee_id', type: 'int' },
    status: { column: 'c.status', type: 'string', values: CHECKLIST_STATUSES },
    trigger: { column: 'c.trigger_kind', type: 'string', values: CHECKLIST_TRIGGERS },
  },
};

/** The employee as a checklist reads it when it starts: its dated facts, dates and supervisor. */
export interface ChecklistEmployee {
  id: number;
  departmentId: number | null;
  jobTitleId: number | null;
  employmentStatusId: number | null;
  supervisorId: number | null;
  joinedDate: string;
  terminationDate: string | null;
}

/** A recorded dated change as a checklist reads it: what it sets, when, and what became of it. */
export interface RecordedChange {
  id: number;
  employeeId: number;
  effectiveDate: string;
  /** The dated fields it sets, with their values (`salary`: set). */
  fields: Record<string, unknown>;
  status: string;
  corrects: number | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const day = (v: unknown) => (v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'string' ? v.slice(0, 10) : null);

/**
 * The checklists' SQL (issue 67): the list by the caller's scope, and the read-only facts a
 * checklist starts from (the employee, the departments' tree and heads, a recorded change), read
 * in the transaction that starts it.
 */
@Injectable()
export class ChecklistsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** A page of checklists of the employees in `scope` (newest first unless sorted otherwise), of one employee, in one status. */
  @RecordSql({ kind: 'departments', departmentIds: [1, 2] }, sampleListRequest(CHECKLIST_LIST_SPEC), {
    employee: 3,
    status: 'Open',
  })
  async page(
    scope: EmployeeScope,
    req: ListRequest,
    only: { employee?: number; status?: string } = {},
  ): Promise<Page<Checklist>> {
    const qb = this.ds.getRepository(Checklist).createQueryBuilder('c');
    if (only.employee !== undefined) qb.andWhere('c.employee_id = :employee', { employee: only.employee });
    if (only.status !== undefined) qb.andWhere('c.status = :status', { status: only.status });
    if (scope.kind !== 'all') {
      qb.innerJoin('employees', 'e', 'e.id = c.employee_id');
      if (scope.kind === 'departments')
        qb.andWhere(scope.departmentIds.length ? 'e.department_id IN (:...scopeDepartments)' : '1 = 0', {
          scopeDepartments: scope.departmentIds,
        });
      else if (scope.kind === 'team')
        qb.andWhere(new Brackets((w) => w.where('e.supervisor_id = :self', { self: scope.selfId }).orWhere('e.id = :self')));
      else if (scope.kind === 'self') qb.andWhere('e.id = :self', { self: scope.selfId });
      else qb.andWhere('1 = 0');
    }
    return findPage(qb, req);
  }

  /** The employee's facts, or null when it is gone. */
  @RecordSql(SAMPLE_MANAGER, 1)
  async employee(em: EntityManager, id: number): Promise<ChecklistEmployee | null> {
    const [r] = await em.query<Array<Record<string, unknown>>>(
      'SELECT id, department_id, job_title_id, employment_status_id, supervisor_id, joined_date, termination_date FROM employees WHERE id = ?',
      [id],
    );
    return r
      ? {
          id: Number(r.id),
          departmentId: num(r.department_id),
          jobTitleId: num(r.job_title_id),
          employmentStatusId: num(r.employment_status_id),
          supervisorId: num(r.supervisor_id),
          joinedDate: day(r.joined_date)!,
          terminationDate: day(r.termination_date),
        }
      : null;
  }

  /** Every department's parent and head (a company has hundreds at most). */
  @RecordSql(SAMPLE_MANAGER)
  async departments(em: EntityManager): Promise<Map<number, { parent: number | null; head: number | null }>> {
    const rows = await em.query<Array<Record<string, unknown>>>('SELECT id, parent_id, head_id FROM departments');
    return new Map(rows.map((r) => [Number(r.id), { parent: num(r.parent_id), head: num(r.head_id) }]));
  }

  /** Whether the employee exists (a template's `employee:<id>` assignee). */
  @RecordSql(1)
  async employeeExists(id: number): Promise<boolean> {
    return (await this.ds.query<unknown[]>('SELECT 1 FROM employees WHERE id = ?', [id])).length > 0;
  }

  /** Whether the document type exists (a template item's document_type). */
  @RecordSql(1)
  async documentTypeExists(id: number): Promise<boolean> {
    return (await this.ds.query<unknown[]>('SELECT 1 FROM document_types WHERE id = ?', [id])).length > 0;
  }

  /** A document's employee and type, or null when it is gone. */
  @RecordSql(SAMPLE_MANAGER, 1)
  async document(em: EntityManager, id: number): Promise<{ employeeId: number; documentTypeId: number } | null> {
    const [r] = await em.query<Array<Record<string, unknown>>>(
      'SELECT employee_id, document_type_id FROM documents WHERE id = ?',
      [id],
    );
    return r ? { employeeId: Number(r.employee_id), documentTypeId: Number(r.document_type_id) } : null;
  }

  /** A recorded dated change, or null. */
  @RecordSql(SAMPLE_MANAGER, 1)
  async change(em: EntityManager, id: number): Promise<RecordedChange | null> {
    const [r] = await em.query<Array<Record<string, unknown>>>(
      'SELECT id, employee_id, effective_date, fields, salary, status, corrects FROM employment_changes WHERE id = ?',
      [id],
    );
    if (!r) return null;
    const fields = JSON.parse(String(r.fields)) as Record<string, unknown>;
    if (r.salary !== null && r.salary !== undefined) fields.salary = 'set';
    return {
      id: Number(r.id),
      employeeId: Number(r.employee_id),
      effectiveDate: day(r.effective_date)!,
      fields,
      status: String(r.status),
      corrects: num(r.corrects),
    };
  }
}
