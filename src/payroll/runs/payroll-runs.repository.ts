import { Injectable } from '@nestjs/common';
import { CURRENT_CELLS } from './current-cells';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { findPage, ListRequest, ListSpec, sampleListRequest } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { EmployeesRepository, JOINED_EMPLOYEE } from '../../employees/core/employees.repository';
import { PayrollEmployee } from '../entities/payroll-config.entities';
import { Payroll, PayrollCell, PayrollError, Payslip, PayslipTemplate } from '../entities/payroll-run.entities';
import {
  EMPLOYEE_PAYSLIP_LIST_SPEC,
  PAYROLL_ERROR_LIST_SPEC,
  PAYROLL_LIST_SPEC,
  PAYROLL_PAYSLIP_LIST_SPEC,
  TEMPLATE_LIST_SPEC,
} from '../entities/payroll-lists';

/** GET .../{id}/employees: by employee id unless sortField says otherwise (docs/api/decisions.md §6). */
export const SELECTION_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: {
    id: JOINED_EMPLOYEE.id,
    employee_id: JOINED_EMPLOYEE.employeeId,
    first_name: JOINED_EMPLOYEE.firstName,
    last_name: JOINED_EMPLOYEE.lastName,
  },
  defaultSort: { field: 'id', order: 'ascend' },
};

/** A cell to write: its new value, and whether it becomes an edited cell (kept when the payroll runs again). */
export interface CellWrite {
  employee: number;
  column: number;
  value: string | null;
  edited?: boolean;
}

/** An error of a payroll: a cell's (employee and column), a column's, or a payslip's (employee). */
export interface ErrorWrite {
  employee: number | null;
  column: number | null;
  message: string;
}

/**
 * What selects a payroll's employees: its pay frequency, deduction group, department subtree (on
 * the period's last day) and period (employed on some day of it).
 */
export interface Selection {
  payFrequency: number;
  deductionGroup: number | null;
  departments: number[];
  period: { from: string; to: string };
}

/**
 * The departments whose employees' rows a caller reads (a Restricted Admin's subtree), or null for
 * every row (an Admin, or a job working as the system).
 */
export type RowScope = number[] | null;

/** Cells per UPDATE: three parameters each, well under SQLite's 32 766 and MariaDB's 65 535. */
const CELLS_PER_UPDATE = 2000;
/** Rows per INSERT (cells: five parameters each; errors and payslips through TypeORM's insert). */
const ROWS_PER_INSERT = 1000;
const PAYSLIPS_PER_INSERT = 200;

const SAMPLE_SCOPE: RowScope = [1, 2];
const SAMPLE_SELECTION: Selection = {
  payFrequency: 1,
  deductionGroup: 1,
  departments: [1, 2],
  period: { from: '2026-06-01', to: '2026-06-30' },
};

/**
 * The payroll runs' SQL (issue 26): payrolls, their cells, errors and payslips, the selection of
 * employees a payroll processes, and the grid's row order. Services keep the rules (states,
 * access, the engine) and call these; employees are reached through EmployeesRepository.
 */
@Injectable()
export class PayrollRunsRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /** A page of payrolls of `departments` (null: all). */
  @RecordSql(SAMPLE_SCOPE, sampleListRequest(PAYROLL_LIST_SPEC, { filters: '{"status":"Processed"}' }))
  payrolls(departments: RowScope, request: ListRequest): Promise<Page<Payroll>> {
    const qb = this.ds.getRepository(Payroll).createQueryBuilder('p');
    if (departments) qb.where(departments.length ? 'p.department_id IN (:...departments)' : '1 = 0', { departments });
    return findPage(qb, request);
  }

  /** A page of a payroll's errors: those of employees in `scope`, and those of no employee. */
  @RecordSql(1, SAMPLE_SCOPE, sampleListRequest(PAYROLL_ERROR_LIST_SPEC))
  errors(payrollId: number, scope: RowScope, request: ListRequest): Promise<Page<PayrollError>> {
    // Those of the payroll's last finished run (a run in chunks writes its own beside them).
    const qb = this.ds
      .getRepository(PayrollError)
      .createQueryBuilder('x')
      .innerJoin(Payroll, 'xr', 'xr.id = x.payroll_id AND xr.cells_revision = x.revision')
      .where('x.payroll_id = :id', { id: payrollId });
    const condition = this.employees.inDepartments('x.employee_id', scope);
    if (condition) qb.andWhere(`(x.employee_id IS NULL OR ${condition.sql})`, condition.params);
    return findPage(qb, request);
  }

  /** A page of a payroll's payslips of employees in `scope`. */
  @RecordSql(1, SAMPLE_SCOPE, sampleListRequest(PAYROLL_PAYSLIP_LIST_SPEC))
  payslipsOfPayroll(payrollId: number, scope: RowScope, request: ListRequest): Promise<Page<Payslip>> {
    const qb = this.ds.getRepository(Payslip).createQueryBuilder('s').where('s.payroll_id = :id', { id: payrollId });
    return findPage(this.within(qb, 's.employee_id', scope), request);
  }

  /** A page of an employee's payslips. */
  @RecordSql(1, sampleListRequest(EMPLOYEE_PAYSLIP_LIST_SPEC))
  payslipsOfEmployee(employeeId: number, request: ListRequest): Promise<Page<Payslip>> {
    const qb = this.ds.getRepository(Payslip).createQueryBuilder('s').where('s.employee_id = :employeeId', { employeeId });
    return findPage(qb, request);
  }

  @RecordSql(sampleListRequest(TEMPLATE_LIST_SPEC))
  templates(request: ListRequest): Promise<Page<PayslipTemplate>> {
    return findPage(this.ds.getRepository(PayslipTemplate).createQueryBuilder('t'), request);
  }

  /**
   * The employees with cells in the payroll, in `scope`; with `among`, only those of them (the
   * employees an edit names). Unordered.
   */
  @RecordSql(1, SAMPLE_SCOPE, [1, 2])
  async cellEmployees(payrollId: number, scope: RowScope, among?: number[]): Promise<number[]> {
    const qb = this.ds
      .getRepository(PayrollCell)
      .createQueryBuilder('c')
      .select('DISTINCT c.employee_id', 'employee')
      .innerJoin(Payroll, 'cr', 'cr.id = c.payroll_id AND cr.cells_revision = c.revision')
      .where('c.payroll_id = :id', { id: payrollId });
    if (among) qb.andWhere('c.employee_id IN (:...among)', { among });
    this.within(qb, 'c.employee_id', scope);
    return (await qb.getRawMany<{ employee: number | string }>()).map((r) => Number(r.employee));
  }

  /**
   * The cells of the employees' rows as [employee, column, value] arrays: 1 500 cells a page hydrated
   * as entities cost more than the rest of the request, and as objects 1.2 ms on SQLite against 0.7.
   */
  @RecordSql(1, [1, 2])
  async cellValues(payrollId: number, employeeIds: number[]): Promise<Array<[employee: number, column: number, value: unknown]>> {
    if (!employeeIds.length) return [];
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.column_id, c.value FROM ${CURRENT_CELLS} WHERE c.payroll_id = :id AND c.employee_id IN (:...employeeIds)`,
      { id: payrollId, employeeIds },
    );
    return rows.map(([employee, column, value]) => [Number(employee), Number(column), value]);
  }

  /**
   * The edited cells of these employees among the payroll's cells (a run keeps them). The range of
   * their ids bounds the scan: with a list of 2 000 ids MariaDB reads the payroll's whole key range
   * instead of 2 000 seeks, which grows with every chunk a run has written.
   */
  @RecordSql(1, [1, 2])
  async editedCells(payrollId: number, employeeIds: number[]): Promise<PayrollCell[]> {
    if (!employeeIds.length) return [];
    const rows = await DriverReader.of(this.ds).arrays(
      `SELECT c.employee_id, c.column_id, c.value FROM ${CURRENT_CELLS} WHERE c.payroll_id = :id ` +
        'AND c.employee_id BETWEEN :low AND :high AND c.employee_id IN (:...employeeIds) AND c.edited = :edited',
      { id: payrollId, low: Math.min(...employeeIds), high: Math.max(...employeeIds), employeeIds, edited: true },
    );
    return rows.map(([employee, column, value]) =>
      Object.assign(new PayrollCell(), {
        payrollId,
        employeeId: Number(employee),
        columnId: Number(column),
        value: value === null ? null : String(value as string | number),
        edited: true,
      }),
    );
  }

  /**
   * Writes cells of one payroll's existing rows: one UPDATE with a CASE per 2 000 cells (an edit of
   * a few employees' rows is one statement), not one statement per cell. A cell written twice gets
   * its later write, as two UPDATEs in a row would leave it (a CASE takes its first match). Run it at
   * READ COMMITTED (SET_REPLACEMENT): the WHERE reads a range of the primary key, which REPEATABLE
   * READ would lock with its gaps.
   */
  @RecordSql(SAMPLE_MANAGER, 1, [
    { employee: 1, column: 1, value: '10.00', edited: true },
    { employee: 1, column: 2, value: '20.00' },
  ])
  async updateCells(em: EntityManager | null, payrollId: number, writes: readonly CellWrite[]): Promise<void> {
    const manager = em ?? this.ds.manager;
    const q = (name: string) => manager.connection.driver.escape(name);
    const cells = [...new Map(writes.map((c) => [`${c.employee}:${c.column}`, c])).values()];
    for (let start = 0; start < cells.length; start += CELLS_PER_UPDATE) {
      const chunk = cells.slice(start, start + CELLS_PER_UPDATE);
      const params: Record<string, unknown> = { payrollId, employees: [...new Set(chunk.map((c) => c.employee))] };
      const values: string[] = [];
      const edited: string[] = [];
      chunk.forEach((c, i) => {
        Object.assign(params, { [`e${i}`]: c.employee, [`c${i}`]: c.column, [`v${i}`]: c.value });
        const cell = `${q('employee_id')} = :e${i} AND ${q('column_id')} = :c${i}`;
        values.push(`WHEN ${cell} THEN :v${i}`);
        if (c.edited) edited.push(`(${cell})`);
      });
      await manager
        .createQueryBuilder()
        .update(PayrollCell)
        .set({
          value: () => `CASE ${values.join(' ')} ELSE ${q('value')} END`,
          ...(edited.length ? { edited: () => `CASE WHEN ${edited.join(' OR ')} THEN 1 ELSE ${q('edited')} END` } : {}),
        })
        .where(
          `${q('payroll_id')} = :payrollId AND ${q('employee_id')} IN (:...employees) AND ${q('revision')} = ` +
            `(SELECT ${q('cells_revision')} FROM ${q('payrolls')} WHERE ${q('id')} = :payrollId)`,
        )
        .setParameters(params)
        .execute();
    }
  }

  /**
   * Inserts a payroll's cells, [employee, column, value, edited] each: plain multi-row INSERTs of
   * 1 000 rows (TypeORM's entity insert costs more than the engine).
   */
  @RecordSql(SAMPLE_MANAGER, 1, 3, [
    [1, 1, '10.00', false],
    [1, 2, '20.00', true],
  ])
  async insertCells(
    em: EntityManager | null,
    payrollId: number,
    revision: number,
    cells: Iterable<[employee: number, column: number, value: string | null, edited: boolean]>,
  ): Promise<void> {
    const manager = em ?? this.ds.manager;
    let params: unknown[] = [];
    let rows = 0;
    const flush = async () => {
      if (!rows) return;
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?)').join(', ');
      await manager.query(
        `INSERT INTO payroll_cells (payroll_id, revision, employee_id, column_id, value, edited) VALUES ${values}`,
        params,
      );
      params = [];
      rows = 0;
    };
    for (const [employee, column, value, edited] of cells) {
      params.push(payrollId, revision, employee, column, value, edited ? 1 : 0);
      if (++rows === ROWS_PER_INSERT) await flush();
    }
    await flush();
  }

  /** Replaces a payroll's errors of one revision ('current': those of its cells, which it shows) (insertErrors). */
  @RecordSql(SAMPLE_MANAGER, 1, 2, [{ employee: 1, column: 2, message: 'division by zero' }])
  async replaceErrors(
    em: EntityManager | null,
    payrollId: number,
    at: number | 'current',
    errors: readonly ErrorWrite[],
  ): Promise<void> {
    const manager = em ?? this.ds.manager;
    const revision =
      at === 'current'
        ? (await manager.findOneOrFail(Payroll, { where: { id: payrollId }, select: { id: true, cellsRevision: true } }))
            .cellsRevision
        : at;
    await manager.delete(PayrollError, { payrollId, revision });
    await this.insertErrors(em, payrollId, revision, errors);
  }

  /** Adds errors to a payroll's revision (the first 10 000, messages cut at 500 characters): a run's, or one chunk's. */
  @RecordSql(SAMPLE_MANAGER, 1, 2, [{ employee: 1, column: 2, message: 'division by zero' }])
  async insertErrors(
    em: EntityManager | null,
    payrollId: number,
    revision: number,
    errors: readonly ErrorWrite[],
  ): Promise<void> {
    const manager = em ?? this.ds.manager;
    const rows = errors
      .slice(0, 10_000)
      .map((e) => ({ payrollId, revision, employeeId: e.employee, columnId: e.column, message: e.message.slice(0, 500) }));
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
      await manager
        .createQueryBuilder()
        .insert()
        .into(PayrollError)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
  }

  /** Inserts rendered payslips, 200 a statement (their HTML is the bulk of a packet). */
  @RecordSql(SAMPLE_MANAGER, [{ payrollId: 1, employeeId: 1, html: '<p>1</p>' }])
  async insertPayslips(
    em: EntityManager | null,
    rows: ReadonlyArray<Pick<Payslip, 'payrollId' | 'employeeId' | 'html'>>,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += PAYSLIPS_PER_INSERT)
      await (em ?? this.ds.manager)
        .createQueryBuilder()
        .insert()
        .into(Payslip)
        .values(rows.slice(i, i + PAYSLIPS_PER_INSERT))
        .execute();
  }

  /**
   * The ids of the payroll employees a payroll selects (what it processes; GET .../{id}/employees
   * pages them with selectedPage): the pay frequency, and deduction group when set; employed in the
   * period; in the department subtree. Ascending, without their rows (a million of them is a run).
   */
  @RecordSql(SAMPLE_SELECTION)
  async selectedIds(selection: Selection): Promise<number[]> {
    const [sql, params] = this.selectionQuery(selection)
      .select('p.employee_id', 'employee')
      .orderBy('p.employee_id')
      .getQueryAndParameters();
    const rows = await DriverReader.of(this.ds).rows(sql, params);
    return rows.map(([id]) => Number(id));
  }

  /** A page of the payroll employees selectedIds() selects, as rows, sorted and paged by SELECTION_SPEC. */
  @RecordSql(SAMPLE_SELECTION, sampleListRequest(SELECTION_SPEC, { sortField: 'last_name' }))
  selectedPage(selection: Selection, request: ListRequest): Promise<Page<PayrollEmployee>> {
    return findPage(this.selectionQuery(selection), request);
  }

  private selectionQuery(selection: Selection): SelectQueryBuilder<PayrollEmployee> {
    const qb = this.ds
      .getRepository(PayrollEmployee)
      .createQueryBuilder('p')
      .where('p.pay_frequency_id = :payPeriod', { payPeriod: selection.payFrequency });
    if (selection.deductionGroup !== null) qb.andWhere('p.deduction_group_id = :group', { group: selection.deductionGroup });
    return this.employees.joinEmployee(qb, 'p.employee_id', { employed: selection.period, departments: selection.departments });
  }

  /** Restricts `qb` to rows whose employee (in `column`) is in `scope`. */
  private within<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, column: string, scope: RowScope): SelectQueryBuilder<T> {
    const condition = this.employees.inDepartments(column, scope);
    if (condition) qb.andWhere(condition.sql, condition.params);
    return qb;
  }
}
