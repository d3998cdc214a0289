import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, LessThanOrEqual, MoreThan, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { RecordSql, RecordSqlAs, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { insertRows } from '../../common/database/insert-rows';
import {
  Condition,
  findKeyedRowsPage,
  findPage,
  findRowsPage,
  KeyedOrder,
  ListRequest,
  ListSpec,
  parseListQuery,
  RowsSource,
  sampleListRequest,
  updatedSinceCondition,
} from '../../common/paging/list-request';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { TotalsCache } from '../../common/paging/totals-cache';
import { EmployeeAccessService, EmployeeScope } from './employee-access.service';
import { Employee, EMPLOYEE_STATUSES } from '../entities/employee.entity';
import { EmploymentSegment } from '../entities/employment-history.entities';

/** A list of one kind of employee-owned record: all the caller may list (its own included), or one employee's it may see. */
export type RecordList<D> = (caller: AuthUser, query: ListQueryDto, employeeId?: number) => Promise<Page<D>>;

/** GET /employees: documented sort and filter fields (docs/api/decisions.md §6, issue 3). */
export const EMPLOYEE_LIST_SPEC: ListSpec = {
  idColumn: 'e.id',
  sortFields: {
    id: 'e.id',
    employee_id: 'e.employee_id',
    first_name: 'e.first_name',
    last_name: 'e.last_name',
    joined_date: 'e.joined_date',
    department: 'e.department_id',
  },
  filterFields: {
    status: { column: 'e.status', type: 'string', values: EMPLOYEE_STATUSES },
    department: { column: 'e.department_id', type: 'int' },
    job_title: { column: 'e.job_title_id', type: 'int' },
    employment_status: { column: 'e.employment_status_id', type: 'int' },
    supervisor: { column: 'e.supervisor_id', type: 'int' },
  },
  fullText: {
    columns: ['e.first_name', 'e.middle_name', 'e.last_name', 'e.employee_id', 'e.work_email'],
    sqliteTable: 'employees_search',
  },
};

/** An employee's status on the day `:asOf` (terminated from its termination date on). */
const STATUS_AS_OF =
  "CASE WHEN e.termination_date IS NOT NULL AND e.termination_date <= :asOf THEN 'Terminated' ELSE 'Active' END";

/**
 * GET /employees?as_of (issue 43): the same list with the dated fields in force on `:asOf`, from
 * the employment segment of that day (joined as `s`); the scope stays today's (docs/api/decisions.md §19).
 */
export const EMPLOYEE_LIST_AS_OF_SPEC: ListSpec = {
  ...EMPLOYEE_LIST_SPEC,
  idColumn: 's.employee_id',
  sortFields: { ...EMPLOYEE_LIST_SPEC.sortFields, id: 's.employee_id', department: 's.department_id' },
  filterFields: {
    status: { column: STATUS_AS_OF, type: 'string', values: EMPLOYEE_STATUSES },
    department: { column: 's.department_id', type: 'int' },
    job_title: { column: 's.job_title_id', type: 'int' },
    employment_status: { column: 's.employment_status_id', type: 'int' },
    supervisor: { column: 's.supervisor_id', type: 'int' },
  },
};

/**
 * The joined employee's columns, for the list specs of queries joined with joinEmployee() (sort by
 * name, say): the alias is this module's, so a query elsewhere never spells it.
 */
export const JOINED_EMPLOYEE = {
  id: 'je.id',
  employeeId: 'je.employee_id',
  firstName: 'je.first_name',
  lastName: 'je.last_name',
} as const;

/** The columns of the employees table (alias `e`) the scope conditions use. */
const SCOPE = { id: 'e.id', department: 'e.department_id', supervisor: 'e.supervisor_id' };

/** GET /employees reads these columns as rows of values (findRowsPage). */
const LIST_SOURCE: RowsSource = {
  from: 'employees e',
  select: [
    'e.id',
    'e.employee_id',
    'e.first_name',
    'e.last_name',
    'e.work_email',
    'e.job_title_id',
    'e.department_id',
    'e.status',
  ],
};

/**
 * LIST_SOURCE on a day: employees who had joined by `:asOf`, each with its segment of that day.
 * The join starts from the segments (forced: MariaDB's STRAIGHT_JOIN, SQLite's CROSS JOIN) in the
 * as-of spec's order, the segment's employee id: a page walks the segments' primary key, or their
 * department index with a department filter, and stops at its end (MariaDB, 100 000 employees, a
 * department of 10 000: 0.6 ms a page against 2.1 when it walked the employees and looked up each
 * one's segments; the count 70 ms against 155).
 */
function listAsOfSource(mysql: boolean): RowsSource {
  return {
    from:
      `employment_segments s ${mysql ? 'STRAIGHT_JOIN' : 'CROSS JOIN'} employees e ON s.employee_id = e.id ` +
      'AND s.effective_from <= :asOf AND (s.effective_to IS NULL OR s.effective_to >= :asOf)',
    select: [
      'e.id',
      'e.employee_id',
      'e.first_name',
      'e.last_name',
      'e.work_email',
      's.job_title_id',
      's.department_id',
      STATUS_AS_OF,
    ],
  };
}

/** What other modules add to the employee list's query (EmployeeExtension's list terms): joins onto `e` and conditions. */
export interface ListExtras {
  joins: string[];
  conditions: Condition[];
  keyed?: KeyedOrder;
}
const NO_EXTRAS: ListExtras = { joins: [], conditions: [] };

function withJoins(source: RowsSource, extra: ListExtras): RowsSource {
  return extra.joins.length ? { ...source, from: `${source.from} ${extra.joins.join(' ')}` } : source;
}

/** An employee as a payslip shows it; references are ids. */
/** An employee as a payslip's delivery sees it (deliveryFieldsOf). */
export interface DeliveryFields {
  id: number;
  employeeId: string;
  name: string;
  /** YYYY-MM-DD */
  birthday: string | null;
  workEmail: string | null;
  privateEmail: string | null;
}

export interface PayslipFields {
  id: number;
  employee_id: string;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  joined_date: string;
  work_email: string | null;
  job_title: number | null;
  department: number | null;
  pay_grade: number | null;
}

export type EmployeeName = { id: number; employee_id: string; name: string };

/**
 * The condition over employees `e` for the employee list: a Manager's list holds its direct
 * reports only; an Employee's list is empty (docs/api/decisions.md §5). Null sql: no restriction.
 */
export function employeeListCondition(scope: EmployeeScope): Condition | null {
  switch (scope.kind) {
    case 'all':
      return null;
    case 'departments':
      return scope.departmentIds.length
        ? { sql: `${SCOPE.department} IN (:...scopeDepartments)`, params: { scopeDepartments: scope.departmentIds } }
        : { sql: '1 = 0', params: {} };
    case 'team':
      return { sql: `${SCOPE.supervisor} = :scopeSelf`, params: { scopeSelf: scope.selfId } };
    case 'self':
    case 'none':
      return { sql: '1 = 0', params: {} };
  }
}

/**
 * The condition over employees `e` for employee-owned records (attendance, leave, timesheets):
 * the employees the caller can see, its own records included (a Manager: itself and its direct
 * reports; an Employee: itself), unlike the employee list.
 */
export function employeeRecordsCondition(scope: EmployeeScope): Condition | null {
  switch (scope.kind) {
    case 'team':
      return { sql: `(${SCOPE.supervisor} = :scopeSelf OR ${SCOPE.id} = :scopeSelf)`, params: { scopeSelf: scope.selfId } };
    case 'self':
      return { sql: `${SCOPE.id} = :scopeSelf`, params: { scopeSelf: scope.selfId } };
    case 'all':
    case 'departments':
    case 'none':
      return employeeListCondition(scope);
  }
}

/** The employee list's own conditions: the caller's scope, and `updated_since` (to the second, as `updated_at` holds it). */
function listConditions(scope: EmployeeScope, updatedSince?: Date): Condition[] {
  const out: Condition[] = [];
  const condition = employeeListCondition(scope);
  if (condition) out.push(condition);
  if (updatedSince) out.push(updatedSinceCondition('e.updated_at', updatedSince));
  return out;
}

/** An employee's department, employment status and pay grade from a day on (the employment history). */
export interface DatedFact {
  from: string;
  departmentId: number | null;
  employmentStatusId: number | null;
  payGradeId: number | null;
}

/** Employees counted per department. */
export type DepartmentCounts = Array<{ department: number | null; count: number }>;

const SAMPLE_SCOPE: EmployeeScope = { kind: 'departments', departmentIds: [1, 2] };

/**
 * The employees table as other queries reach it (issue 26): the employee list, names and payslip
 * fields in bulk, and the caller's scope applied to any query with an employee column. Other
 * modules join employees only through here.
 */
@Injectable()
export class EmployeesRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: EmployeeAccessService,
  ) {}

  /** A page of the employee list in `scope` (rows of LIST_SOURCE's columns). */
  @RecordSql(SAMPLE_SCOPE, sampleListRequest(EMPLOYEE_LIST_SPEC, { sortField: 'last_name', filters: '{"status":"Active"}' }))
  @RecordSqlAs(
    'updated since',
    SAMPLE_SCOPE,
    sampleListRequest(EMPLOYEE_LIST_SPEC, {}),
    undefined,
    new Date('2026-11-27T10:00:00.500Z'),
  )
  listPage(
    scope: EmployeeScope,
    request: ListRequest,
    totals?: TotalsCache,
    updatedSince?: Date,
    extra: ListExtras = NO_EXTRAS,
  ): Promise<Page<unknown[]>> {
    const where = [...listConditions(scope, updatedSince), ...extra.conditions];
    // Sorted by another module's key (a custom field): read from that key's index.
    if (extra.keyed) return findKeyedRowsPage(this.ds, LIST_SOURCE, extra.keyed, request, where, totals);
    return findRowsPage(this.ds, withJoins(LIST_SOURCE, extra), request, where, totals);
  }

  /** A page of the employee list in `scope` as it was on `asOf` (LIST_AS_OF_SOURCE). */
  @RecordSql(
    SAMPLE_SCOPE,
    sampleListRequest(EMPLOYEE_LIST_AS_OF_SPEC, { filters: '{"department":[3],"status":"Active"}' }),
    '2026-06-30',
  )
  listPageAsOf(
    scope: EmployeeScope,
    request: ListRequest,
    asOf: string,
    totals?: TotalsCache,
    updatedSince?: Date,
    extra: ListExtras = NO_EXTRAS,
  ): Promise<Page<unknown[]>> {
    const day: Condition = { sql: 'e.joined_date <= :asOf', params: { asOf } };
    return findRowsPage(
      this.ds,
      withJoins(listAsOfSource(this.ds.options.type === 'mysql'), extra),
      request,
      [...listConditions(scope, updatedSince), day, ...extra.conditions],
      totals,
    );
  }

  /** The employees with these employee_ids (whole rows: an import updates them or points to them). */
  @RecordSql(SAMPLE_MANAGER, ['E001', 'E002'])
  byEmployeeIds(em: EntityManager, employeeIds: readonly string[]): Promise<Employee[]> {
    return employeeIds.length
      ? em.getRepository(Employee).find({ where: { employeeId: In([...employeeIds]) } })
      : Promise.resolve([]);
  }

  /** employee_id of the employees using these work e-mails (the uniqueness check of an import's batch). */
  @RecordSql(SAMPLE_MANAGER, ['a@example.com'])
  async workEmailOwners(em: EntityManager, emails: readonly string[]): Promise<Map<string, string>> {
    if (!emails.length) return new Map();
    const rows = await em
      .getRepository(Employee)
      .find({ select: { employeeId: true, workEmail: true }, where: { workEmail: In([...emails]) } });
    return new Map(rows.map((r) => [r.workEmail!.toLowerCase(), r.employeeId]));
  }

  /** Inserts new employees in multi-row INSERTs; their ids by employee_id. */
  @RecordSql(SAMPLE_MANAGER, [{ employeeId: 'E9', firstName: 'A', lastName: 'B', joinedDate: '2024-01-01', status: 'Active' }])
  async insertMany(em: EntityManager, rows: ReadonlyArray<Partial<Employee>>): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (let i = 0; i < rows.length; i += 200) {
      const chunk = rows.slice(i, i + 200);
      await insertRows(em, Employee, chunk);
      const saved = await em
        .getRepository(Employee)
        .find({ select: { id: true, employeeId: true }, where: { employeeId: In(chunk.map((r) => r.employeeId!)) } });
      for (const r of saved) ids.set(r.employeeId, r.id);
    }
    return ids;
  }

  /**
   * Active employees whose `field` falls on a day (reminders, issue 30): `monthDays` ('MM-DD') for
   * a birthday or a work anniversary (any year), or `date` ('YYYY-MM-DD') for the end of probation
   * or of a contract. Read once a day: a scan of the employees, plain rows.
   */
  @RecordSql('birthday', { monthDays: ['02-28', '02-29'] })
  async withDateOn(
    field: 'birthday' | 'joined_date' | 'confirmation_date' | 'termination_date',
    on: { monthDays: string[] } | { date: string },
  ): Promise<Array<{ id: number; name: string; department: number | null; supervisor: number | null; date: string }>> {
    const qb = this.ds
      .getRepository(Employee)
      .createQueryBuilder('e')
      .select([
        'e.id AS id',
        'e.first_name AS first',
        'e.last_name AS last',
        'e.department_id AS department',
        'e.supervisor_id AS supervisor',
        `e.${field} AS date`,
      ])
      .where("e.status = 'Active'")
      .orderBy('e.id', 'ASC');
    if ('date' in on) qb.andWhere(`e.${field} = :date`, { date: on.date });
    else qb.andWhere(`SUBSTR(e.${field}, 6, 5) IN (:...monthDays)`, { monthDays: on.monthDays });
    const rows = await qb.getRawMany<{
      id: number | string;
      first: string;
      last: string;
      department: number | string | null;
      supervisor: number | string | null;
      date: string | Date;
    }>();
    return rows.map((r) => ({
      id: Number(r.id),
      name: `${r.first} ${r.last}`,
      department: r.department === null ? null : Number(r.department),
      supervisor: r.supervisor === null ? null : Number(r.supervisor),
      date: r.date instanceof Date ? r.date.toISOString().slice(0, 10) : String(r.date).slice(0, 10),
    }));
  }

  /** Active employees whose termination date has come by `day` (the daily job terminates them), lowest id first. */
  @RecordSql('2026-12-01', 200)
  async terminationsDue(day: string, limit: number): Promise<number[]> {
    const rows = await this.ds
      .getRepository(Employee)
      .createQueryBuilder('e')
      .select('e.id', 'id')
      .where("e.status = 'Active'")
      .andWhere('e.termination_date <= :day', { day })
      .orderBy('e.id', 'ASC')
      .limit(limit)
      .getRawMany<{ id: number | string }>();
    return rows.map((r) => Number(r.id));
  }

  /**
   * The department, employment status and pay grade of these employees from each day they changed
   * on, from the employment history (issue 43), oldest first: what the leave ledger reads per day.
   */
  @RecordSql(null, [1, 2])
  async datedFactsOf(em: EntityManager | null, ids: number[]): Promise<Map<number, DatedFact[]>> {
    const out = new Map<number, DatedFact[]>();
    if (!ids.length) return out;
    const rows = await (em ?? this.ds.manager)
      .createQueryBuilder()
      .select(['s.employee_id AS employee', 's.effective_from AS day', 's.department_id AS department'])
      .addSelect(['s.employment_status_id AS status', 's.pay_grade_id AS grade'])
      .from('employment_segments', 's')
      .where('s.employee_id IN (:...ids)', { ids })
      .orderBy('s.employee_id', 'ASC')
      .addOrderBy('s.effective_from', 'ASC')
      .getRawMany<Record<'employee' | 'day' | 'department' | 'status' | 'grade', string | number | Date | null>>();
    const id = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    for (const r of rows) {
      const from = r.day instanceof Date ? r.day.toISOString().slice(0, 10) : String(r.day).slice(0, 10);
      const list = out.get(Number(r.employee)) ?? [];
      const fact = { from, departmentId: id(r.department), employmentStatusId: id(r.status), payGradeId: id(r.grade) };
      const last = list[list.length - 1];
      // Only the days these three change on: a transfer of approver leaves them as they were.
      if (
        !last ||
        last.departmentId !== fact.departmentId ||
        last.employmentStatusId !== fact.employmentStatusId ||
        last.payGradeId !== fact.payGradeId
      )
        list.push(fact);
      out.set(Number(r.employee), list);
    }
    return out;
  }

  /**
   * Headcount on `day` by the department of that day (issue 43): the employees of `scope` (the
   * insights' rule) who had joined and not yet left, each counted under its segment of that day.
   */
  @RecordSql(SAMPLE_SCOPE, '2026-06-30')
  async headcountOn(scope: EmployeeScope, day: string): Promise<DepartmentCounts> {
    return this.countBySegmentDepartment(scope, (qb) =>
      qb
        .where('s.effective_from <= :day AND (s.effective_to IS NULL OR s.effective_to >= :day)', { day })
        .andWhere('e.joined_date <= :day AND (e.termination_date IS NULL OR e.termination_date > :day)', { day }),
    );
  }

  /**
   * Leavers of `scope` whose termination date falls in [from, to] (from null: any day up to `to`),
   * by their department on that day (issue 43).
   */
  @RecordSql(SAMPLE_SCOPE, '2026-01-01', '2026-06-30')
  async leaversBetween(scope: EmployeeScope, from: string | null, to: string): Promise<DepartmentCounts> {
    return this.countBySegmentDepartment(scope, (qb) => {
      qb.where('e.termination_date <= :to', { to }).andWhere(
        's.effective_from <= e.termination_date AND (s.effective_to IS NULL OR s.effective_to >= e.termination_date)',
      );
      return from ? qb.andWhere('e.termination_date >= :from', { from }) : qb;
    });
  }

  /** Segments `s` joined with their employees `e` in `scope` (the insights' rule), as `where` selects them, counted per department. */
  private async countBySegmentDepartment(
    scope: EmployeeScope,
    where: (qb: SelectQueryBuilder<ObjectLiteral>) => SelectQueryBuilder<ObjectLiteral>,
  ): Promise<DepartmentCounts> {
    const qb = this.ds
      .createQueryBuilder()
      .select('s.department_id', 'department')
      .addSelect('COUNT(*)', 'count')
      .from('employment_segments', 's')
      .groupBy('s.department_id');
    where(qb);
    this.restrictToScope(qb, 's.employee_id', scope, scope.kind === 'self' ? 'records' : 'list', true);
    return (await qb.getRawMany<{ department: number | string | null; count: number | string }>()).map((r) => ({
      department: r.department === null ? null : Number(r.department),
      count: Number(r.count),
    }));
  }

  /** Ids, employee ids and names of many employees (deleted ones are simply absent), plain rows 1 000 at a time. */
  @RecordSql([1, 2, 3])
  async namesOf(ids: number[]): Promise<Map<number, EmployeeName>> {
    const out = new Map<number, EmployeeName>();
    // Plain rows, not entities: a payroll's data grid names every employee of the run (12 500 at a time).
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.ds
        .getRepository(Employee)
        .createQueryBuilder('e')
        .select(['e.id AS id', 'e.employee_id AS code', 'e.first_name AS first', 'e.last_name AS last'])
        .where('e.id IN (:...ids)', { ids: ids.slice(i, i + 1000) })
        .getRawMany<{ id: number | string; code: string; first: string; last: string }>();
      for (const e of rows) out.set(Number(e.id), { id: Number(e.id), employee_id: e.code, name: `${e.first} ${e.last}` });
    }
    return out;
  }

  /** Joined and termination dates of many employees (the payroll diff's joined and left causes), 1 000 at a time. */
  @RecordSql([1, 2, 3])
  async employmentDatesOf(ids: number[]): Promise<Map<number, { joined: string; terminated: string | null }>> {
    const out = new Map<number, { joined: string; terminated: string | null }>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.ds.getRepository(Employee).find({
        where: { id: In(ids.slice(i, i + 1000)) },
        select: { id: true, joinedDate: true, terminationDate: true },
      });
      for (const e of rows) out.set(e.id, { joined: e.joinedDate, terminated: e.terminationDate });
    }
    return out;
  }

  /**
   * Leavers (Terminated, their termination date on or before `before`) after `afterId`, `limit` at a
   * time in id order: the candidates of the retention policies (issue 69).
   */
  async leavers(before: string, afterId: number, limit: number): Promise<Array<{ id: number; terminated: string }>> {
    const rows = await this.ds.getRepository(Employee).find({
      where: { status: 'Terminated', terminationDate: LessThanOrEqual(before), id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
      select: { id: true, terminationDate: true },
    });
    return rows.map((e) => ({ id: e.id, terminated: e.terminationDate! }));
  }

  /**
   * What a payslip's delivery needs of employees (issue 29): the code and birthday a PDF password is
   * made of, the name and the addresses an e-mail goes to. Plain rows, 1 000 at a time.
   */
  @RecordSql([1, 2, 3])
  async deliveryFieldsOf(ids: number[]): Promise<Map<number, DeliveryFields>> {
    const out = new Map<number, DeliveryFields>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.ds
        .getRepository(Employee)
        .createQueryBuilder('e')
        .select(['e.id AS id', 'e.employee_id AS code', 'e.first_name AS first', 'e.last_name AS last', 'e.birthday AS birthday'])
        .addSelect(['e.work_email AS work', 'e.private_email AS private'])
        .where('e.id IN (:...ids)', { ids: ids.slice(i, i + 1000) })
        .getRawMany<{
          id: number | string;
          code: string;
          first: string;
          last: string;
          birthday: string | Date | null;
          work: string | null;
          private: string | null;
        }>();
      for (const e of rows)
        out.set(Number(e.id), {
          id: Number(e.id),
          employeeId: e.code,
          name: `${e.first} ${e.last}`,
          birthday:
            e.birthday === null
              ? null
              : e.birthday instanceof Date
                ? e.birthday.toISOString().slice(0, 10)
                : String(e.birthday).slice(0, 10),
          workEmail: e.work,
          privateEmail: e.private,
        });
    }
    return out;
  }

  /** The dated values of other modules' properties (EmploymentSegment.extra) of these employees on `day`: an as-of list page's. */
  @RecordSql([1, 2], '2026-06-30')
  async extraOn(ids: number[], day: string): Promise<Map<number, string | null>> {
    const rows = await this.ds
      .getRepository(EmploymentSegment)
      .createQueryBuilder('s')
      .select(['s.employee_id AS id', 's.extra AS extra'])
      .where('s.employee_id IN (:...ids)', { ids })
      .andWhere('s.effective_from <= :day AND (s.effective_to IS NULL OR s.effective_to >= :day)', { day })
      .getRawMany<{ id: number | string; extra: string | null }>();
    return new Map(rows.map((r) => [Number(r.id), r.extra]));
  }

  /** What a payslip shows of employees (issue 25): names, dates, e-mail and reference ids, plain rows 1 000 at a time. */
  @RecordSql([1, 2, 3])
  async payslipFieldsOf(ids: number[]): Promise<Map<number, PayslipFields>> {
    const out = new Map<number, PayslipFields>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await this.ds
        .getRepository(Employee)
        .createQueryBuilder('e')
        .select(['e.id AS id', 'e.employee_id AS employee_id', 'e.first_name AS first_name', 'e.middle_name AS middle_name'])
        .addSelect(['e.last_name AS last_name', 'e.joined_date AS joined_date', 'e.work_email AS work_email'])
        .addSelect(['e.job_title_id AS job_title', 'e.department_id AS department', 'e.pay_grade_id AS pay_grade'])
        .where('e.id IN (:...ids)', { ids: ids.slice(i, i + 1000) })
        .getRawMany<Record<keyof PayslipFields, string | number | null>>();
      const id = (v: string | number | null) => (v === null ? null : Number(v));
      for (const r of rows)
        out.set(Number(r.id), {
          id: Number(r.id),
          employee_id: String(r.employee_id),
          first_name: String(r.first_name),
          middle_name: r.middle_name === null ? null : String(r.middle_name),
          last_name: String(r.last_name),
          joined_date: String(r.joined_date),
          work_email: r.work_email === null ? null : String(r.work_email),
          job_title: id(r.job_title),
          department: id(r.department),
          pay_grade: id(r.pay_grade),
        });
    }
    return out;
  }

  /** The supervisor and everyone above it, in one recursive query. */
  @RecordSql(1)
  async supervisorChain(supervisorId: number): Promise<number[]> {
    const rows = await this.ds.query<Array<{ id: number | string }>>(
      `WITH RECURSIVE chain (id, sup, depth) AS (
         SELECT id, supervisor_id, 0 FROM employees WHERE id = ?
         UNION ALL SELECT e.id, e.supervisor_id, c.depth + 1 FROM employees e JOIN chain c ON e.id = c.sup WHERE c.depth < 1000
       ) SELECT id FROM chain`,
      [supervisorId],
    );
    return rows.map((r) => Number(r.id));
  }

  /**
   * The condition "the employee in `column` is now in one of `departments`" (null: no restriction),
   * as a subquery: for a Restricted Admin's payroll rows, which follow their employee (docs/api/decisions.md §5).
   */
  inDepartments(column: string, departments: number[] | null): Condition | null {
    if (departments === null) return null;
    if (!departments.length) return { sql: '1 = 0', params: {} };
    return {
      sql: `${column} IN (SELECT scope_e.id FROM employees scope_e WHERE scope_e.department_id IN (:...scopeDepartments))`,
      params: { scopeDepartments: departments },
    };
  }

  /**
   * Joins the employee of `employeeColumn` (its columns: JOINED_EMPLOYEE), optionally only those
   * employed on some day of `employed` (joined by its end, not terminated before its start: a payroll's
   * joiners and leavers) and in `departments` on its last day (the department in force then, from
   * the employment history; today's for an employee without one).
   */
  joinEmployee<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    employeeColumn: string,
    where: { employed?: { from: string; to: string }; departments?: number[] } = {},
  ): SelectQueryBuilder<T> {
    qb.innerJoin(Employee, 'je', `je.id = ${employeeColumn}`);
    const employed = where.employed;
    if (employed)
      // Terminated without a termination date (data from before the rule that sets one): gone.
      qb.andWhere(
        "je.joined_date <= :employedTo AND (je.termination_date >= :employedFrom OR (je.termination_date IS NULL AND je.status = 'Active'))",
        {
          employedFrom: employed.from,
          employedTo: employed.to,
        },
      );
    if (where.departments && where.departments.length && employed) {
      qb.leftJoin(
        EmploymentSegment,
        'jg',
        'jg.employee_id = je.id AND jg.effective_from <= :employedTo AND (jg.effective_to IS NULL OR jg.effective_to >= :employedTo)',
      );
      qb.andWhere('CASE WHEN jg.employee_id IS NULL THEN je.department_id ELSE jg.department_id END IN (:...joinedDepartments)', {
        joinedDepartments: where.departments,
      });
    } else if (where.departments)
      qb.andWhere(where.departments.length ? 'je.department_id IN (:...joinedDepartments)' : '1 = 0', {
        joinedDepartments: where.departments,
      });
    return qb;
  }

  /**
   * Restricts a query with an employee column to the employees of `scope`: `records` (attendance,
   * leave, timesheets: a Manager itself and its direct reports, an Employee itself) or the
   * employee list's rule (`list`). The employee is joined as `e`; not for an Admin unless
   * `alwaysJoin` (a query that reads the employee's columns).
   */
  restrictToScope<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    employeeColumn: string,
    scope: EmployeeScope,
    rule: 'records' | 'list' = 'records',
    alwaysJoin = false,
  ): SelectQueryBuilder<T> {
    const condition = rule === 'records' ? employeeRecordsCondition(scope) : employeeListCondition(scope);
    if (condition || alwaysJoin) qb.innerJoin(Employee, 'e', `e.id = ${employeeColumn}`);
    if (condition) qb.andWhere(condition.sql, condition.params);
    return qb;
  }

  /** restrictToScope with the caller's scope, by the records rule (docs/api/decisions.md §5, §9). */
  async restrictToRecordScope<T extends ObjectLiteral>(
    caller: AuthUser,
    qb: SelectQueryBuilder<T>,
    employeeColumn: string,
  ): Promise<SelectQueryBuilder<T>> {
    return this.restrictToScope(qb, employeeColumn, await this.access.scopeOf(caller));
  }

  /**
   * A page of employee-owned records: one employee's, when the caller may see it (404 otherwise),
   * or all the caller may list. Paging, sort, filters and the date range come from the spec.
   */
  async recordsPage<T extends ObjectLiteral, D>(
    caller: AuthUser,
    qb: SelectQueryBuilder<T>,
    opts: { employeeColumn: string; employeeId?: number; query: ListQueryDto; spec: ListSpec; map: (row: T) => D },
  ): Promise<Page<D>> {
    if (opts.employeeId === undefined) await this.restrictToRecordScope(caller, qb, opts.employeeColumn);
    else {
      await this.access.visible(caller, opts.employeeId);
      qb.andWhere(`${opts.employeeColumn} = :recordsOf`, { recordsOf: opts.employeeId });
    }
    return (await findPage(qb, parseListQuery(opts.query, opts.spec))).map(opts.map);
  }

  /**
   * The list of one kind of employee-owned record, for a service to expose as `list`: alias
   * `alias` of `repo`, its employee column `<alias>.employee_id`, the endpoint's spec and mapper.
   */
  recordList<T extends ObjectLiteral, D>(repo: Repository<T>, alias: string, spec: ListSpec, map: (row: T) => D): RecordList<D> {
    return (caller, query, employeeId) =>
      this.recordsPage(caller, repo.createQueryBuilder(alias), {
        employeeColumn: `${alias}.employee_id`,
        employeeId,
        query,
        spec,
        map,
      });
  }
}
