import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { findPage, ListRequest } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { EmployeeScope } from '../../employees/core/employee-access.service';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { dateOnly } from '../engine/calendar';
import { LeaveDay, LeavePeriod, LeaveType } from '../entities/leave.entities';
import { LeaveLedgerEntry, LeavePolicy, LeavePolicyAssignment } from '../entities/leave-ledger.entities';
import { AssignmentRule, EmployeeFacts, Entry, LedgerKind, Period, PolicyRule, toH, toRule } from '../engine/accrual-engine';

/** A ledger row to insert (days in days, not hundredths). */
export type NewLedgerEntry = Omit<LeaveLedgerEntry, 'id' | 'createdAt'>;

const SAMPLE_SCOPE: EmployeeScope = { kind: 'departments', departmentIds: [1, 2] };
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The leave ledger's reads and its one write (issue 31): what the accrual engine needs, in a few queries per 1 000 employees. */
@Injectable()
export class LeaveLedgerRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /** The employees' dates, targets of assignments (department with its ancestors) and pay frequency. */
  @RecordSql([1, 2])
  async facts(employeeIds: number[], em: EntityManager | null = null): Promise<EmployeeFacts[]> {
    if (!employeeIds.length) return [];
    const read = (em ?? this.ds.manager)
      .createQueryBuilder()
      .select(['e.id AS id', 'e.joined_date AS joined', 'e.termination_date AS termination'])
      .addSelect([
        'e.department_id AS department',
        'e.employment_status_id AS status',
        'e.pay_grade_id AS grade',
        'f.name AS frequency',
      ])
      .from('employees', 'e')
      .leftJoin('payroll_employees', 'pe', 'pe.employee_id = e.id')
      .leftJoin('pay_frequencies', 'f', 'f.id = pe.pay_frequency_id')
      .where('e.id IN (:...employeeIds)', { employeeIds })
      .getRawMany<Record<string, unknown>>();
    const [rows, parents, dated] = await Promise.all([
      read,
      this.departmentParents(em),
      this.employees.datedFactsOf(em, employeeIds),
    ]);
    const path = (d: number | null) => {
      const out: number[] = [];
      for (let x = d; x !== null && x !== undefined && !out.includes(x); x = parents.get(x) ?? null) out.push(x);
      return out;
    };
    return rows.map((r) => ({
      id: Number(r.id),
      joined: dateOnly(r.joined as string),
      termination: r.termination ? dateOnly(r.termination as string) : null,
      departments: path(num(r.department)),
      employmentStatusId: num(r.status),
      payGradeId: num(r.grade),
      payFrequency: (r.frequency as string | null) ?? null,
      dated: dated.get(Number(r.id))?.map((d) => ({
        from: d.from,
        departments: path(d.departmentId),
        employmentStatusId: d.employmentStatusId,
        payGradeId: d.payGradeId,
      })),
    }));
  }

  private async departmentParents(em: EntityManager | null): Promise<Map<number, number | null>> {
    const rows = await (em ?? this.ds.manager)
      .createQueryBuilder()
      .select(['d.id AS id', 'd.parent_id AS parent'])
      .from('departments', 'd')
      .getRawMany();
    return new Map(rows.map((r: { id: unknown; parent: unknown }) => [Number(r.id), num(r.parent)]));
  }

  /** Every employee id, ascending, from `after` on, `limit` at a time (the accrual job's chunks). */
  @RecordSql(0, 1000)
  async employeeIds(after: number, limit: number): Promise<number[]> {
    return this.idsAfter(this.ds.createQueryBuilder().from('employees', 'x'), after, limit);
  }

  /**
   * The ids of the employees of `scope` (the employee list's rule; an Employee itself) employed
   * on `day` (joined by then, not terminated before), ascending from `after`, `limit` at a time.
   */
  @RecordSql(SAMPLE_SCOPE, '2026-12-31', 0, 1000)
  async employedIds(scope: EmployeeScope, day: string, after: number, limit: number): Promise<number[]> {
    const qb = this.ds
      .createQueryBuilder()
      .from('employees', 'x')
      .where('x.joined_date <= :day', { day })
      .andWhere('(x.termination_date IS NULL OR x.termination_date >= :day)', { day });
    this.employees.restrictToScope(qb, 'x.id', scope, scope.kind === 'self' ? 'records' : 'list');
    return this.idsAfter(qb, after, limit);
  }

  private async idsAfter(qb: SelectQueryBuilder<ObjectLiteral>, after: number, limit: number): Promise<number[]> {
    const rows = await qb
      .select('x.id', 'id')
      .andWhere('x.id > :after', { after })
      .orderBy('x.id')
      .limit(limit)
      .getRawMany<{ id: unknown }>();
    return rows.map((r) => Number(r.id));
  }

  /** The policies of these ids (those the assignments at hand name). */
  @RecordSql([1, 2])
  async policies(ids: number[], em: EntityManager | null = null): Promise<Map<number, PolicyRule>> {
    const unique = [...new Set(ids)];
    const rows = unique.length
      ? await (em ?? this.ds.manager).getRepository(LeavePolicy).find({ where: { id: In(unique) } })
      : [];
    return new Map(rows.map((p) => [p.id, toRule(p)]));
  }

  /** The assignments that do not name an employee, and those that name one of `employeeIds`. */
  @RecordSql([1, 2])
  async assignments(employeeIds: number[], em: EntityManager | null = null): Promise<AssignmentRule[]> {
    const qb = (em ?? this.ds.manager)
      .getRepository(LeavePolicyAssignment)
      .createQueryBuilder('a')
      .where(
        new Brackets((w) => {
          w.where('a.employee_id IS NULL');
          if (employeeIds.length) w.orWhere('a.employee_id IN (:...employeeIds)', { employeeIds });
        }),
      );
    return (await qb.getMany()).map((a) => ({ ...a }));
  }

  @RecordSql()
  async periods(em: EntityManager | null = null): Promise<Period[]> {
    const rows = await (em ?? this.ds.manager).getRepository(LeavePeriod).find({ order: { dateStart: 'ASC' } });
    return rows.map((p) => ({ id: p.id, start: dateOnly(p.dateStart), end: dateOnly(p.dateEnd) }));
  }

  @RecordSql()
  async leaveTypes(em: EntityManager | null = null): Promise<LeaveType[]> {
    return (em ?? this.ds.manager).getRepository(LeaveType).find({ order: { id: 'ASC' } });
  }

  /** The ledger entries of the employees dated from `from` (to `to`), by employee and leave type; days in hundredths. */
  @RecordSql(SAMPLE_MANAGER, [1, 2], '2026-01-01', '2026-12-31')
  async entries(em: EntityManager | null, employeeIds: number[], from: string, to: string | null): Promise<Map<string, Entry[]>> {
    const out = new Map<string, Entry[]>();
    if (!employeeIds.length) return out;
    const qb = (em ?? this.ds.manager)
      .getRepository(LeaveLedgerEntry)
      .createQueryBuilder('x')
      .select(['x.employeeId', 'x.leaveTypeId', 'x.date', 'x.kind', 'x.days', 'x.entryKey'])
      .where('x.employee_id IN (:...employeeIds)', { employeeIds })
      .andWhere('x.date >= :from', { from })
      .orderBy('x.id');
    if (to) qb.andWhere('x.date <= :to', { to });
    for (const x of await qb.getMany()) {
      const k = `${x.employeeId}:${x.leaveTypeId}`;
      const list = out.get(k) ?? [];
      list.push({ date: dateOnly(x.date), kind: x.kind, days: toH(x.days), key: x.entryKey });
      out.set(k, list);
    }
    return out;
  }

  /**
   * The entries of one kind of one leave type dated in [from, to] (1 000 employees a query), with
   * their days in hundredths; entries that lower the balance count negative.
   */
  @RecordSql([1, 2], 'encashment', 1, '2026-03-01', '2026-03-31')
  async entriesOfKind(
    employeeIds: number[],
    kind: LedgerKind,
    leaveType: number,
    from: string,
    to: string,
  ): Promise<Array<{ id: number; employee: number; hundredths: number }>> {
    const out: Array<{ id: number; employee: number; hundredths: number }> = [];
    for (let i = 0; i < employeeIds.length; i += 1000) {
      const rows = await this.ds
        .getRepository(LeaveLedgerEntry)
        .createQueryBuilder('x')
        .select('x.id', 'id')
        .addSelect('x.employee_id', 'employee')
        .addSelect('x.days', 'days')
        .where('x.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + 1000) })
        .andWhere('x.leave_type_id = :leaveType AND x.kind = :kind', { leaveType, kind })
        .andWhere('x.date BETWEEN :from AND :to', { from, to })
        .orderBy('x.id')
        .getRawMany<{ id: unknown; employee: unknown; days: unknown }>();
      for (const r of rows) out.push({ id: Number(r.id), employee: Number(r.employee), hundredths: toH(Number(r.days)) });
    }
    return out;
  }

  /** Days of the employees' pending requests dated in [from, to], by `employee:leave type`, in hundredths. */
  @RecordSql(SAMPLE_MANAGER, [1, 2], '2026-01-01', '2026-12-31')
  async pendingDays(
    em: EntityManager | null,
    employeeIds: number[],
    from: string,
    to: string | null,
  ): Promise<Map<string, number>> {
    if (!employeeIds.length) return new Map();
    const qb = (em ?? this.ds.manager)
      .getRepository(LeaveDay)
      .createQueryBuilder('d')
      .select('d.employee_id', 'employee')
      .addSelect('d.leave_type_id', 'type')
      .addSelect('SUM(d.days)', 'days')
      .where('d.employee_id IN (:...employeeIds)', { employeeIds })
      .andWhere("d.status = 'Pending'")
      .andWhere('d.date >= :from', { from })
      .groupBy('d.employee_id')
      .addGroupBy('d.leave_type_id');
    if (to) qb.andWhere('d.date <= :to', { to });
    const rows = await qb.getRawMany<{ employee: unknown; type: unknown; days: unknown }>();
    return new Map(rows.map((r) => [`${Number(r.employee)}:${Number(r.type)}`, toH(Number(r.days))]));
  }

  /** The leave days of a request (for its taken and reversal entries). */
  @RecordSql(SAMPLE_MANAGER, 1)
  requestDays(em: EntityManager, requestId: number): Promise<LeaveDay[]> {
    return em.getRepository(LeaveDay).find({ where: { requestId }, order: { date: 'ASC' } });
  }

  /** A page of the employee's ledger (GET /employees/{id}/leave-ledger). */
  page(employeeId: number, req: ListRequest): Promise<Page<LeaveLedgerEntry>> {
    const qb = this.ds
      .getRepository(LeaveLedgerEntry)
      .createQueryBuilder('x')
      .where('x.employee_id = :employeeId', { employeeId });
    return findPage(qb, req);
  }

  /** Whether the row of an assignment's target exists (employees, departments, employment_statuses, pay_grades). */
  @RecordSql('departments', 1)
  async exists(table: 'employees' | 'departments' | 'employment_statuses' | 'pay_grades', id: number): Promise<boolean> {
    const found: unknown = await this.ds
      .createQueryBuilder()
      .select('t.id')
      .from(table, 't')
      .where('t.id = :id', { id })
      .getRawOne();
    return found !== undefined && found !== null;
  }

  policyExists(id: number): Promise<boolean> {
    return this.ds.getRepository(LeavePolicy).exists({ where: { id } });
  }

  /** Whether the employee has an entry of this key. */
  @RecordSql(SAMPLE_MANAGER, 1, 'open:1:2026-01-01')
  keyExists(em: EntityManager, employeeId: number, entryKey: string): Promise<boolean> {
    return em.getRepository(LeaveLedgerEntry).exists({ where: { employeeId, entryKey } });
  }

  /** The policy of this name, inserted with `values` unless it exists (whoever asks first); its id. */
  async ensurePolicy(em: EntityManager | null, values: Omit<LeavePolicy, 'id'>): Promise<number> {
    em ??= this.ds.manager;
    // updateEntity(false): MariaDB answers an ignored row with insertId 0, which TypeORM cannot map back.
    await em.createQueryBuilder().insert().into(LeavePolicy).values(values).orIgnore().updateEntity(false).execute();
    return (await em.getRepository(LeavePolicy).findOneByOrFail({ name: values.name })).id;
  }

  /** Appends entries; one whose (employee, entry_key) is written already is skipped, so a job or a retried approval writes each once. */
  async append(em: EntityManager | null, rows: NewLedgerEntry[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 500)
      await (em ?? this.ds.manager)
        .createQueryBuilder()
        .insert()
        .into(LeaveLedgerEntry)
        .values(rows.slice(i, i + 500))
        .orIgnore()
        .updateEntity(false)
        .execute();
  }
}
