import { Brackets, DataSource, EntityManager, In, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';
import { Condition, findPage, findRowsPage, ListRequest } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { ChainSubject } from './approval-chain';
import { ApprovalDelegation, ApprovalPolicy, ApprovalKind } from './entities/approval.entities';

/**
 * What chains read besides their own tables, with the caller's entity manager (inside the
 * employee's lock): departments (ancestors and heads), absences and delegations on a day, the
 * policies of a kind. Leave requests are read by table: the Leave module depends on this one.
 */
export async function departmentsOf(em: EntityManager): Promise<Map<number, { parent: number | null; head: number | null }>> {
  const rows = await em.query<Array<Record<string, unknown>>>('SELECT id, parent_id, head_id FROM departments');
  return new Map(
    rows.map((r) => [
      Number(r.id),
      { parent: r.parent_id === null ? null : Number(r.parent_id), head: r.head_id === null ? null : Number(r.head_id) },
    ]),
  );
}

/** The department and its ancestors, nearest first (a cycle stops the walk). */
export function ancestry(departments: ReadonlyMap<number, { parent: number | null }>, id: number | null): number[] {
  const out: number[] = [];
  for (let at = id; at !== null && !out.includes(at); at = departments.get(at)?.parent ?? null) out.push(at);
  return out;
}

/** The head of the employee's department: its own, else the nearest ancestor's; never the employee itself. */
export function headOf(
  departments: ReadonlyMap<number, { parent: number | null; head: number | null }>,
  departmentId: number | null,
  employeeId: number,
): number | null {
  for (const d of ancestry(departments, departmentId)) {
    const head = departments.get(d)?.head ?? null;
    if (head !== null && head !== employeeId) return head;
  }
  return null;
}

/** Of `ids`, those on approved leave on `day`. */
export async function awayOn(em: EntityManager, ids: number[], day: string): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await em.query<Array<{ employee_id: number | string }>>(
    `SELECT DISTINCT employee_id FROM leave_requests WHERE status = 'Approved' AND employee_id IN (${marks(ids)}) AND date_start <= ? AND date_end >= ?`,
    [...ids, day, day],
  );
  return new Set(rows.map((r) => Number(r.employee_id)));
}

/** Of `ids`, who delegates to whom on `day`. */
export async function delegatesOn(em: EntityManager, ids: number[], day: string): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await em.getRepository(ApprovalDelegation).find({
    where: { delegatorId: In(ids), dateStart: LessThanOrEqual(day), dateEnd: MoreThanOrEqual(day) },
    order: { id: 'ASC' },
  });
  return new Map(rows.map((d) => [d.delegatorId, d.delegateId]));
}

export function policiesOf(em: EntityManager, kind: ApprovalKind): Promise<ApprovalPolicy[]> {
  return em.getRepository(ApprovalPolicy).find({ where: { appliesTo: kind }, order: { id: 'ASC' } });
}

const marks = (ids: readonly unknown[]) => ids.map(() => '?').join(', ');
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The request's employee as the roles read it, with `em` (inside its lock). */
export async function subjectOf(em: EntityManager, id: number): Promise<ChainSubject> {
  const [r] = await em.query<Array<Record<string, unknown>>>(
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
export async function supervisorsOf(em: EntityManager, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await em.query<Array<Record<string, unknown>>>(
    `SELECT id, supervisor_id FROM employees WHERE id IN (${marks(ids)}) AND supervisor_id IS NOT NULL`,
    ids,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.supervisor_id)]));
}

/** Employees' names: id → "First Last". */
export async function namesOf(ds: DataSource, ids: number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (!unique.length) return new Map();
  const rows = await ds.query<Array<Record<string, unknown>>>(
    `SELECT id, first_name, last_name FROM employees WHERE id IN (${marks(unique)})`,
    unique,
  );
  return new Map(rows.map((r) => [Number(r.id), `${String(r.first_name)} ${String(r.last_name)}`]));
}

/** Of `ids`, those missing from `table` (employees, departments, leave_types: what policies and delegations name). */
export async function missingIds(
  ds: DataSource,
  table: 'employees' | 'departments' | 'leave_types',
  ids: number[],
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await ds.query<Array<{ id: number | string }>>(`SELECT id FROM ${table} WHERE id IN (${marks(unique)})`, unique);
  const found = new Set(rows.map((r) => Number(r.id)));
  return unique.filter((x) => !found.has(x));
}

/** A page of delegations: all of them (`self` null, the Admin), or those `self` made or received. */
export function delegationsPage(ds: DataSource, self: number | null, req: ListRequest): Promise<Page<ApprovalDelegation>> {
  const qb = ds.getRepository(ApprovalDelegation).createQueryBuilder('d');
  if (self !== null)
    qb.andWhere(new Brackets((w) => w.where('d.delegator_id = :self', { self }).orWhere('d.delegate_id = :self')));
  return findPage(qb, req);
}

/**
 * A page of the open steps a caller decides (the inbox): its own approver rows, and for an Admin
 * the Admins' rows of steps it is no approver of; never its own requests nor steps it has decided.
 * Rows: kind, request id, employee, first and last name, current step, steps (JSON), summary, requested at.
 */
export function pendingApprovalRows(
  ds: DataSource,
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
    ds,
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
