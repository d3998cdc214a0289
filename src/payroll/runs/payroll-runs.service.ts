import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { ErrorDetail, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { ReferenceService } from '../../reference/reference.service';
import {
  PayrollDataDto,
  PayrollDataUpdateDto,
  CellEditDto,
  PayrollDto,
  PayrollEmployeeRowDto,
  PayrollErrorDto,
  SavePayrollDto,
} from '../dto/payroll-run.dto';
import { DeductionGroup, PayFrequency, PayrollColumn } from '../entities/payroll-config.entities';
import { Payroll, PayrollCell, PayslipTemplate } from '../entities/payroll-run.entities';
import { PayrollGridService, selectionRow } from './payroll-grid.service';
import { onlyNetColumnOfCompleted, toPayrollDto } from './payroll-view';
import { CellWrite, PayrollRunsRepository, RowScope, SELECTION_SPEC } from './payroll-runs.repository';
import { PAYROLL_STATES } from './payroll.states';
import { PayrollProcessingService } from './payroll-processing.service';
import { PAYROLL_ERROR_LIST_SPEC, PAYROLL_LIST_SPEC } from '../entities/payroll-lists';

export { SELECTION_SPEC };

/** The payrolls' resource in the audit log. */
export const PAYROLLS = 'payroll_config/payrolls';
/** Their cell edits' resource: one entry per edit request, a change per cell ("employee 7 column 3"). */
export const PAYROLL_CELL_EDITS = 'payroll_config/payrolls/data';

export { toPayrollDto };

/**
 * Payroll runs (docs/api/decisions.md §10): payrolls (create, change, delete in the states that allow it), their
 * selection and errors, the data grid and edits of editable cells. Admins; Restricted Admins for
 * payrolls of their departments. Processing and payslips are started by PayrollTransitionsService.
 */
@Injectable()
export class PayrollRunsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    @InjectRepository(PayrollColumn) private readonly columns: Repository<PayrollColumn>,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
    @InjectRepository(DeductionGroup) private readonly groups: Repository<DeductionGroup>,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesRepository,
    private readonly repository: PayrollRunsRepository,
    private readonly reference: ReferenceService,
    private readonly grid: PayrollGridService,
    private readonly processing: PayrollProcessingService,
  ) {}

  async list(caller: AuthUser, query: ListQueryDto): Promise<Page<PayrollDto>> {
    const page = await this.repository.payrolls(await this.departmentsOf(caller), parseListQuery(query, PAYROLL_LIST_SPEC));
    return page.map(toPayrollDto);
  }

  async get(caller: AuthUser, id: number): Promise<PayrollDto> {
    return toPayrollDto(await this.visible(caller, id));
  }

  /** Creates a payroll (Draft), or with `id` changes one that is Draft, Processed or Failed. */
  async save(caller: AuthUser, dto: SavePayrollDto): Promise<PayrollDto> {
    const payroll =
      dto.id === undefined
        ? this.payrolls.create({ status: 'Draft', progress: 0, error: null })
        : await this.visible(caller, dto.id);
    if (dto.id !== undefined && !onlyNetColumnOfCompleted(payroll, dto)) PAYROLL_STATES.assert('change', payroll.status);
    const problems: ErrorDetail[] = [];
    if (dto.date_end < dto.date_start) problems.push({ field: 'date_end', message: 'must not be before date_start' });
    if (!(await this.frequencies.exists({ where: { id: dto.pay_period } })))
      problems.push({ field: 'pay_period', message: 'does not exist' });
    if (!(await this.reference.exists('departments', dto.department)))
      problems.push({ field: 'department', message: 'does not exist' });
    else {
      const departments = await this.departmentsOf(caller);
      if (departments && !departments.includes(dto.department))
        problems.push({ field: 'department', message: 'is outside your departments' });
    }
    if (dto.deduction_group != null && !(await this.groups.exists({ where: { id: dto.deduction_group } }))) {
      problems.push({ field: 'deduction_group', message: 'does not exist' });
    }
    if (
      dto.payslip_template != null &&
      !(await this.dataSource.getRepository(PayslipTemplate).exists({ where: { id: dto.payslip_template } }))
    ) {
      problems.push({ field: 'payslip_template', message: 'does not exist' });
    }
    const columnIds = [...new Set(dto.columns)];
    if ((await this.columns.count({ where: { id: In(columnIds) } })) !== columnIds.length) {
      problems.push({ field: 'columns', message: 'names a payroll column that does not exist' });
    }
    if (dto.net_column != null && !columnIds.includes(dto.net_column))
      problems.push({ field: 'net_column', message: 'must be one of the columns' });
    if (problems.length) throw new ValidationException(problems);
    const before = dto.id === undefined ? null : toPayrollDto(payroll);
    Object.assign(payroll, {
      name: dto.name,
      payPeriod: dto.pay_period,
      departmentId: dto.department,
      deductionGroupId: dto.deduction_group ?? null,
      dateStart: dto.date_start,
      dateEnd: dto.date_end,
      proration: dto.proration ?? null,
      columns: columnIds,
      payslipTemplateId: dto.payslip_template ?? null,
      netColumnId: dto.net_column ?? null,
    });
    return transaction(this.dataSource, async (em) => {
      const view = toPayrollDto(await em.getRepository(Payroll).save(payroll));
      await recordAudit(em, {
        action: before ? 'update' : 'create',
        resource: PAYROLLS,
        resourceId: view.id,
        before,
        after: view,
      });
      return view;
    });
  }

  /** Draft, Processed and Failed payrolls go with their cells; a Completed one keeps its payslips (409). */
  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const payroll = await this.visible(caller, id);
    await transaction(this.dataSource, async (em) => {
      const res = await em.delete(Payroll, { id, status: In([...PAYROLL_STATES.from('delete')]) });
      if (res.affected !== 1) throw PAYROLL_STATES.invalid('delete', payroll.status);
      await recordAudit(em, { action: 'delete', resource: PAYROLLS, resourceId: id, before: toPayrollDto(payroll) });
    });
    return { id };
  }

  /** GET .../{id}/employees: one page of the payroll employees the payroll selects, never the whole selection. */
  async employeesOf(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<PayrollEmployeeRowDto>> {
    const selection = await this.processing.selectionOf(await this.visible(caller, id));
    const page = await this.repository.selectedPage(selection, parseListQuery(query, SELECTION_SPEC));
    const names = await this.employees.namesOf(page.items.map((p) => p.employeeId));
    return page.map((p) => selectionRow(names, p));
  }

  async errorsOf(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<PayrollErrorDto>> {
    await this.visible(caller, id);
    const page = await this.repository.errors(id, await this.rowScope(caller), parseListQuery(query, PAYROLL_ERROR_LIST_SPEC));
    return page.map((e) => ({ employee: e.employeeId, column: e.columnId, message: e.message }));
  }

  /** GET .../data: a page of the grid of a payroll the caller may read, with the rows of the employees it may see. */
  async data(caller: AuthUser, id: number, query: PageQueryDto): Promise<PayrollDataDto> {
    const payroll = await this.visible(caller, id);
    return this.grid.page(payroll, query, await this.rowScope(caller));
  }

  /**
   * POST .../data: sets cells of editable columns (kept by later processing) and recomputes the
   * other cells of the edited employees at once. Draft or Processed payrolls only.
   */
  async update(caller: AuthUser, id: number, dto: PayrollDataUpdateDto): Promise<PayrollDataDto> {
    const problems = await this.editCells(caller, id, dto.values, false);
    if (problems.length)
      throw new ValidationException(problems.map((p) => ({ field: `values[${p.index}].${p.field}`, message: p.message })));
    return this.data(caller, id, Object.assign(new PageQueryDto(), { page: 1, limit: 500 }));
  }

  /** The payroll's columns, when the caller may read the payroll (an import names them). */
  async columnsOf(caller: AuthUser, id: number): Promise<PayrollColumn[]> {
    return this.grid.columnsOf(await this.visible(caller, id));
  }

  /**
   * Checks cell edits (editable columns of the payroll, employees in it and in the caller's scope)
   * and writes them with their recomputed rows: all or none, or with `partial` the valid ones (an
   * import's batch). The problems name the edit by its index.
   */
  async editCells(
    caller: AuthUser,
    id: number,
    values: CellEditDto[],
    partial: boolean,
  ): Promise<Array<ErrorDetail & { index: number }>> {
    const payroll = await this.visible(caller, id);
    PAYROLL_STATES.assert('edit', payroll.status);
    const runColumns = await this.processing.columnsFor(payroll);
    const columns = new Map(runColumns.map((c) => [c.id, c]));
    // Employees outside the caller's scope are not in the payroll for it (the same answer as absent ones).
    const present = new Set(
      await this.repository.cellEmployees(id, await this.rowScope(caller), [...new Set(values.map((v) => v.employee))]),
    );
    const problems: Array<ErrorDetail & { index: number }> = [];
    values.forEach((v, index) => {
      const column = columns.get(v.column);
      if (!column) problems.push({ index, field: 'column', message: 'is not a column of this payroll' });
      else if (!column.editable) problems.push({ index, field: 'column', message: `${column.name} is not editable` });
      if (!present.has(v.employee)) problems.push({ index, field: 'employee', message: 'is not in this payroll' });
    });
    const failed = new Set(problems.map((p) => p.index));
    const valid = values.filter((_, i) => !failed.has(i));
    if ((problems.length && !partial) || !valid.length) return problems;
    const employeeIds = [...new Set(valid.map((v) => v.employee))];
    await transaction(
      this.dataSource,
      async (em) => {
        const previous = await em.getRepository(PayrollCell).find({
          where: { payrollId: id, revision: payroll.cellsRevision, employeeId: In(employeeIds) },
          select: { employeeId: true, columnId: true, value: true, edited: true },
        });
        const old = new Map(previous.map((c) => [`${c.employeeId}:${c.columnId}`, c.value]));
        // The edited cells, "employee 7 column 3": before and after (recomputed cells follow from them).
        await recordAudit(em, {
          action: 'update',
          resource: PAYROLL_CELL_EDITS,
          resourceId: id,
          before: Object.fromEntries(
            valid.map((v) => [`employee ${v.employee} column ${v.column}`, old.get(`${v.employee}:${v.column}`) ?? null]),
          ),
          after: Object.fromEntries(valid.map((v) => [`employee ${v.employee} column ${v.column}`, v.amount])),
        });
        // The edits (a cell named twice: its later value), the rows' earlier edits kept, then
        // everything they change in those rows: one statement (per 2 000 cells).
        const edits = new Map(valid.map((v) => [`${v.employee}:${v.column}`, v]));
        const edited = [
          ...previous.filter((c) => c.edited && !edits.has(`${c.employeeId}:${c.columnId}`)),
          ...[...edits.values()].map((v) =>
            Object.assign(new PayrollCell(), { employeeId: v.employee, columnId: v.column, value: v.amount }),
          ),
        ];
        const kept = new Set(edited.map((c) => `${c.employeeId}:${c.columnId}`));
        const result = await this.processing.recompute(em, payroll, runColumns, employeeIds, edited);
        const writes: CellWrite[] = [...edits.values()].map((v) => ({
          employee: v.employee,
          column: v.column,
          value: v.amount,
          edited: true,
        }));
        for (const row of result.rows)
          for (const [k, column] of result.columns.entries())
            if (!kept.has(`${row.employee}:${column}`)) writes.push({ employee: row.employee, column, value: row.values[k] });
        await this.repository.updateCells(em, id, writes);
      },
      SET_REPLACEMENT,
    );
    return problems;
  }

  /**
   * The rows of a payroll a caller reads (cells, errors, payslips) follow their employee, as
   * /employees/{id}/payslips does (docs/api/decisions.md §5): a Restricted Admin reads those of employees now in
   * its departments, so an employee moved out of them is out of every payroll route too. Null for
   * an Admin.
   */
  /** A payroll's name and department, for whoever tells people about it (notifications); null when it is gone. */
  async summaryOf(id: number): Promise<{ name: string; department: number } | null> {
    const p = await this.payrolls.findOne({ where: { id }, select: { id: true, name: true, departmentId: true } });
    return p ? { name: p.name, department: p.departmentId } : null;
  }

  rowScope(caller: AuthUser): Promise<RowScope> {
    return this.departmentsOf(caller);
  }

  /** Admin: null (all); Restricted Admin: its department subtree. */
  private async departmentsOf(caller: AuthUser): Promise<number[] | null> {
    const scope = await this.access.scopeOf(caller);
    return scope.kind === 'departments' ? scope.departmentIds : scope.kind === 'all' ? null : [];
  }

  /** The payroll if the caller may read it (a Restricted Admin: of its departments); 404 otherwise. */
  async visible(caller: AuthUser, id: number): Promise<Payroll> {
    const payroll = await this.payrolls.findOne({ where: { id } });
    const departments = payroll && (await this.departmentsOf(caller));
    if (!payroll || (departments && !departments.includes(payroll.departmentId))) throw new NotFoundException('Payroll');
    return payroll;
  }
}
