import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { Condition, findPage, findRowsPage, ListRequest, sampleListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { ChainSubject } from './approval-chain';
import { DELEGATION_LIST_SPEC, PENDING_LIST_SPEC } from './approval-views';
import { ApprovalDelegation, ApprovalPolicy, ApprovalKind } from './entities/approval.entities';

const marks = (ids: readonly unknown[]) => ids.map(() => '?').join(', ');
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * The chains' SQL (docs/ARCHITECTURE.md: a module's statements live in its repository, recorded in
 * sql/): what chains read besides their own tables, with the caller's entity manager inside the
 * employee's lock (departments with their heads, the employee's roles, supervisors, delegations on a
 * day, the policies of a kind), the inbox's page and the delegations'. Who is away on a day is the
 * Leave module's to say (ApprovalAbsences).
 */
@Injectable()
export class ApprovalsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Every department's parent and head. */
  @RecordSql(SAMPLE_MANAGER)
  async departmentsOf(em: EntityManager | null): Promise<Map<number, { parent: number | null; head: number | null }>> {
    const rows = await (em ?? this.ds.manager).query<Array<Record<string, unknown>>>(
      'SELECT id, parent_id, head_id FROM departments',
    );
    return new Map(
      rows.map((r) => [
        Number(r.id),
        { parent: r.parent_id === null ? null : Number(r.parent_id), head: r.head_id === null ? null : Number(r.head_id) },
      ]),
    );
  }

  /** Of `ids`, who delegates to whom on `day`. */
  @RecordSql(SAMPLE_MANAGER, [1, 2], '2026-03-02')
  async delegatesOn(em: EntityManager | null, ids: number[], day: string): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await (em ?? this.ds.manager).getRepository(ApprovalDelegation).find({
      where: { delegatorId: In(ids), dateStart: LessThanOrEqual(day), dateEnd: MoreThanOrEqual(day) },
      order: { id: 'ASC' },
    });
    return new Map(rows.map((d) => [d.delegatorId, d.delegateId]));
  }

  /** The policies of a kind, oldest first. */
  @RecordSql(SAMPLE_MANAGER, 'leave')
  policiesOf(em: EntityManager | null, kind: ApprovalKind): Promise<ApprovalPolicy[]> {
    return (em ?? this.ds.manager).getRepository(ApprovalPolicy).find({ where: { appliesTo: kind }, order: { id: 'ASC' } });
  }

  /** The request's employee as the roles read it. */
  @RecordSql(SAMPLE_MANAGER, 1)
  async subjectOf(em: EntityManager | null, id: number): Promise<ChainSubject> {
    const [r] = await (em ?? this.ds.manager).query<Array<Record<string, unknown>>>(
      'SELECT id, department_id, supervisor_id, approver1_id, approver2_id, approver3_id FROM employees WHERE id = ?',
      [id],
    );
    if (!r) throw new Error(`employee ${id} is gone`);
    return {
      id: Number(r.id),
      departmentId: num(r.department_id),
      supervisorId: num(r.supervisor_id),
      approver1Id: num(r.approver1_id),
      approver2Id: num(r.approver2_id),
      approver3Id: num(r.approver3_id),
    };
  }

  /** The supervisors of some employees: employee → its supervisor (none: left out). */
  @RecordSql(SAMPLE_MANAGER, [1, 2])
  async supervisorsOf(em: EntityManager | null, ids: number[]): Promise<Map<number, number>> {
    if (!ids.length) return new Map();
    const rows = await (em ?? this.ds.manager).query<Array<Record<string, unknown>>>(
      `SELECT id, supervisor_id FROM employees WHERE id IN (${marks(ids)}) AND supervisor_id IS NOT NULL`,
      ids,
    );
    return new Map(rows.map((r) => [Number(r.id), Number(r.supervisor_id)]));
  }

  /** Of some employees, those who have left by `day` (their termination date is that day or earlier). */
  @RecordSql(SAMPLE_MANAGER, [1, 2], '2026-06-30')
  async leftBy(em: EntityManager, ids: number[], day: string): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await em.query<Array<Record<string, unknown>>>(
      `SELECT id FROM employees WHERE id IN (${marks(ids)}) AND termination_date IS NOT NULL AND termination_date <= ?`,
      [...ids, day],
    );
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Employees' names: id → "First Last". */
  @RecordSql([1, 2])
  async namesOf(ids: number[]): Promise<Map<number, string>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const rows = await this.ds.query<Array<Record<string, unknown>>>(
      `SELECT id, first_name, last_name FROM employees WHERE id IN (${marks(unique)})`,
      unique,
    );
    return new Map(rows.map((r) => [Number(r.id), `${String(r.first_name)} ${String(r.last_name)}`]));
  }

  /** Of `ids`, those missing from `table` (employees, departments, leave_types: what policies and delegations name). */
  @RecordSql('departments', [1, 2])
  async missingIds(table: 'employees' | 'departments' | 'leave_types', ids: number[]): Promise<number[]> {
    const unique = [...new Set(ids)];
    if (!unique.length) return [];
    const rows = await this.ds.query<Array<{ id: number | string }>>(
      `SELECT id FROM ${table} WHERE id IN (${marks(unique)})`,
      unique,
    );
    const found = new Set(rows.map((r) => Number(r.id)));
    return unique.filter((x) => !found.has(x));
  }

  /** A page of delegations: all of them (`self` null, the Admin), or those `self` made or received. */
  @RecordSql(1, sampleListRequest(DELEGATION_LIST_SPEC))
  delegationsPage(self: number | null, req: ListRequest): Promise<Page<ApprovalDelegation>> {
    const qb = this.ds.getRepository(ApprovalDelegation).createQueryBuilder('d');
    if (self !== null)
      qb.andWhere(new Brackets((w) => w.where('d.delegator_id = :self', { self }).orWhere('d.delegate_id = :self')));
    return findPage(qb, req);
  }

  /**
   * A page of the open steps a caller decides (the inbox): its own approver rows, and for an Admin
   * the Admins' rows of steps it is no approver of; never its own requests nor steps it has decided.
   * Rows: kind, request id, employee, first and last name, current step, steps (JSON), summary, requested at.
   */
  @RecordSql({ employeeId: 1, userId: 1, admin: true }, sampleListRequest(PENDING_LIST_SPEC))
  pendingApprovalRows(
    caller: { employeeId: number | null; userId: number; admin: boolean },
    req: ListRequest,
  ): Promise<Page<unknown[]>> {
    const me = caller.employeeId ?? 0;
    const mine = 'aa.employee_id = :me';
    const admins =
      'aa.employee_id IS NULL AND NOT EXISTS (SELECT 1 FROM approval_approvers x WHERE x.approval_id = aa.approval_id AND x.employee_id = :me)';
    const where: Condition[] = [
      { sql: caller.admin ? `${mine} OR (${admins})` : mine, params: { me } },
      { sql: 'a.employee_id <> :me', params: { me } },
      {
        sql: 'NOT EXISTS (SELECT 1 FROM approval_decisions d WHERE d.approval_id = a.id AND d.user_id = :user)',
        params: { user: caller.userId },
      },
    ];
    return findRowsPage(
      this.ds,
      {
        from: 'approval_approvers aa JOIN approvals a ON a.id = aa.approval_id JOIN employees e ON e.id = a.employee_id',
        select: [
          'a.kind',
          'a.request_id',
          'a.employee_id',
          'e.first_name',
          'e.last_name',
          'a.current_step',
          'a.steps',
          'a.summary',
          'a.requested_at',
        ],
      },
      req,
      where,
    );
  }
}
