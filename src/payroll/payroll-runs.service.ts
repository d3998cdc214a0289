import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, IsNull, LessThan, Repository } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { AuthUser } from '../common/auth/auth-user';
import { recordAudit } from '../common/audit/audit-log';
import { SET_REPLACEMENT, transaction } from '../common/database/transaction';
import { ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { findPage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { JobQueue } from '../common/queue/job-queue.service';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService } from '../employees/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { ReferenceService } from '../reference/reference.service';
import {
  PayrollDataDto,
  PayrollDataUpdateDto,
  PayrollDto,
  PayrollEmployeeRowDto,
  PayrollErrorDto,
  SavePayrollDto,
} from './dto/payroll-run.dto';
import { DeductionGroup, PayFrequency, PayrollColumn } from './entities/payroll-config.entities';
import { Payroll, PayrollCell, PayrollError, PayslipTemplate } from './entities/payroll-run.entities';
import { CellWrite, updateCells } from './payroll-cells.repository';
import { EmployeeScopeCondition, PayrollGridService, selectionRow } from './payroll-grid.service';
import { PAYROLL_STATES } from './payroll.states';
import { PayrollProcessingService } from './payroll-processing.service';
import { PAYROLL_ERROR_LIST_SPEC, PAYROLL_LIST_SPEC } from './payroll-lists';
import { JOB_STATES, JobRunState, PAYROLL_PROCESS_JOB, payrollJobId } from './payroll.jobs';

/** GET .../{id}/employees: by employee id unless sortField says otherwise (API.md §6). */
export const SELECTION_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: { id: 'e.id', employee_id: 'e.employee_id', first_name: 'e.first_name', last_name: 'e.last_name' },
  defaultSort: { field: 'id', order: 'ascend' },
};

/** The payrolls' resource in the audit log. */
export const PAYROLLS = 'payroll_config/payrolls';

function toPayrollDto(p: Payroll): PayrollDto {
  return {
    id: p.id,
    name: p.name,
    pay_period: p.payPeriod,
    department: p.departmentId,
    deduction_group: p.deductionGroupId,
    date_start: p.dateStart,
    date_end: p.dateEnd,
    columns: p.columns,
    payslip_template: p.payslipTemplateId,
    status: p.status,
    progress: p.progress,
    error: p.error,
    processed_at: p.processedAt ? p.processedAt.toISOString() : null,
    completed_at: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

/**
 * Payroll runs (API.md §10): payrolls and their state machine, processing as a job that computes
 * every cell with the engine and writes them in batched inserts in one transaction, the data grid
 * and edits of editable cells. Admins; Restricted Admins for payrolls of their departments.
 */
@Injectable()
export class PayrollRunsService {
  private readonly logger = new Logger('PayrollRuns');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    @InjectRepository(PayrollCell) private readonly cells: Repository<PayrollCell>,
    @InjectRepository(PayrollError) private readonly errors: Repository<PayrollError>,
    @InjectRepository(PayrollColumn) private readonly columns: Repository<PayrollColumn>,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
    @InjectRepository(DeductionGroup) private readonly groups: Repository<DeductionGroup>,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesService,
    private readonly reference: ReferenceService,
    private readonly jobs: JobQueue,
    private readonly grid: PayrollGridService,
    private readonly processing: PayrollProcessingService,
  ) {}

  async list(caller: AuthUser, query: ListQueryDto): Promise<Page<PayrollDto>> {
    const qb = this.payrolls.createQueryBuilder('p');
    const departments = await this.departmentsOf(caller);
    if (departments) qb.where(departments.length ? 'p.department_id IN (:...departments)' : '1 = 0', { departments });
    return (await findPage(qb, parseListQuery(query, PAYROLL_LIST_SPEC))).map(toPayrollDto);
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
    if (dto.id !== undefined) PAYROLL_STATES.assert('change', payroll.status);
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
    if (problems.length) throw new ValidationException(problems);
    const before = dto.id === undefined ? null : toPayrollDto(payroll);
    Object.assign(payroll, {
      name: dto.name,
      payPeriod: dto.pay_period,
      departmentId: dto.department,
      deductionGroupId: dto.deduction_group ?? null,
      dateStart: dto.date_start,
      dateEnd: dto.date_end,
      columns: columnIds,
      payslipTemplateId: dto.payslip_template ?? null,
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
    const page = await findPage(
      await this.processing.selectionQuery(await this.visible(caller, id)),
      parseListQuery(query, SELECTION_SPEC),
    );
    const names = await this.employees.namesOf(page.items.map((p) => p.employeeId));
    return page.map((p) => selectionRow(names, p));
  }

  async errorsOf(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<PayrollErrorDto>> {
    await this.visible(caller, id);
    const qb = this.errors.createQueryBuilder('x').where('x.payroll_id = :id', { id });
    const scope = await this.employeeScope(caller, 'x.employee_id');
    if (scope) qb.andWhere(`(x.employee_id IS NULL OR ${scope.sql})`, scope.params);
    const page = await findPage(qb, parseListQuery(query, PAYROLL_ERROR_LIST_SPEC));
    return page.map((e) => ({ employee: e.employeeId, column: e.columnId, message: e.message }));
  }

  /**
   * Claims Processing with one conditional UPDATE (two concurrent calls: one wins, the other gets
   * 409), then queues the job; answers at once. The job id is the claim's, so a retry never doubles.
   */
  async process(caller: AuthUser, id: number): Promise<PayrollDto> {
    const payroll = await this.visible(caller, id);
    const claim = await this.claim(id, 'process');
    if (claim === null)
      throw PAYROLL_STATES.invalid('process', (await this.payrolls.findOneOrFail({ where: { id } }).catch(() => payroll)).status);
    await this.jobs.add(PAYROLL_PROCESS_JOB, { payrollId: id, claim }, { jobId: payrollJobId('Processing', id, claim) });
    return toPayrollDto(await this.payrolls.findOneOrFail({ where: { id } }));
  }

  /**
   * Moves the payroll to a job-run state by `action` (process: Processing; generate-payslips:
   * Completing) with one conditional UPDATE (of concurrent claims one wins) and returns the claim's
   * token, or null when the payroll was not in a state the action starts from.
   */
  async claim(id: number, action: 'process' | 'generate-payslips'): Promise<string | null> {
    const claim = randomUUID();
    return transaction(this.dataSource, async (em) => {
      const before = await em.findOne(Payroll, { where: { id }, select: { id: true, status: true } });
      const moved = await PAYROLL_STATES.move(em, Payroll, { id }, action, {
        progress: 0,
        error: null,
        claimedAt: new Date(),
        claim,
      });
      if (!moved) return null;
      // The caller's request to run the job (the job's own outcome is the service's).
      await recordAudit(em, {
        action,
        resource: PAYROLLS,
        resourceId: id,
        before: { status: before?.status ?? null },
        after: { status: PAYROLL_STATES.transitions[action].to },
      });
      return claim;
    });
  }

  /** GET .../data: a page of the grid of a payroll the caller may read, with the rows of the employees it may see. */
  async data(caller: AuthUser, id: number, query: PageQueryDto): Promise<PayrollDataDto> {
    const payroll = await this.visible(caller, id);
    return this.grid.page(payroll, query, await this.employeeScope(caller, 'c.employee_id'));
  }

  /**
   * POST .../data: sets cells of editable columns (kept by later processing) and recomputes the
   * other cells of the edited employees at once. Draft or Processed payrolls only.
   */
  async update(caller: AuthUser, id: number, dto: PayrollDataUpdateDto): Promise<PayrollDataDto> {
    const payroll = await this.visible(caller, id);
    PAYROLL_STATES.assert('edit', payroll.status);
    const columns = new Map((await this.grid.columnsOf(payroll)).map((c) => [c.id, c]));
    const employeeIds = [...new Set(dto.values.map((v) => v.employee))];
    // Employees outside the caller's scope are not in the payroll for it (the same answer as absent ones).
    const presentQuery = this.cells
      .createQueryBuilder('c')
      .select('DISTINCT c.employee_id', 'employee')
      .where('c.payroll_id = :id', { id })
      .andWhere('c.employee_id IN (:...employeeIds)', { employeeIds });
    const scope = await this.employeeScope(caller, 'c.employee_id');
    if (scope) presentQuery.andWhere(scope.sql, scope.params);
    const present = new Set((await presentQuery.getRawMany<{ employee: number | string }>()).map((r) => Number(r.employee)));
    const problems: ErrorDetail[] = [];
    dto.values.forEach((v, i) => {
      const column = columns.get(v.column);
      if (!column) problems.push({ field: `values[${i}].column`, message: 'is not a column of this payroll' });
      else if (!column.editable) problems.push({ field: `values[${i}].column`, message: `${column.name} is not editable` });
      if (!present.has(v.employee)) problems.push({ field: `values[${i}].employee`, message: 'is not in this payroll' });
    });
    if (problems.length) throw new ValidationException(problems);
    await transaction(
      this.dataSource,
      async (em) => {
        const previous = await em.getRepository(PayrollCell).find({
          where: { payrollId: id, employeeId: In(employeeIds) },
          select: { employeeId: true, columnId: true, value: true, edited: true },
        });
        const old = new Map(previous.map((c) => [`${c.employeeId}:${c.columnId}`, c.value]));
        // The edited cells, "employee 7 column 3": before and after (recomputed cells follow from them).
        await recordAudit(em, {
          action: 'update',
          resource: 'payroll_config/payrolls/data',
          resourceId: id,
          before: Object.fromEntries(
            dto.values.map((v) => [`employee ${v.employee} column ${v.column}`, old.get(`${v.employee}:${v.column}`) ?? null]),
          ),
          after: Object.fromEntries(dto.values.map((v) => [`employee ${v.employee} column ${v.column}`, v.amount])),
        });
        // The edits (a cell named twice: its later value), the rows' earlier edits kept, then
        // everything they change in those rows: one statement (per 2 000 cells).
        const edits = new Map(dto.values.map((v) => [`${v.employee}:${v.column}`, v]));
        const edited = [
          ...previous.filter((c) => c.edited && !edits.has(`${c.employeeId}:${c.columnId}`)),
          ...[...edits.values()].map((v) =>
            Object.assign(new PayrollCell(), { employeeId: v.employee, columnId: v.column, value: v.amount }),
          ),
        ];
        const kept = new Set(edited.map((c) => `${c.employeeId}:${c.columnId}`));
        const result = await this.processing.compute(payroll, employeeIds, edited);
        const writes: CellWrite[] = [...edits.values()].map((v) => ({
          employee: v.employee,
          column: v.column,
          value: v.amount,
          edited: true,
        }));
        for (const row of result.rows)
          for (const [k, column] of result.columns.entries())
            if (!kept.has(`${row.employee}:${column}`)) writes.push({ employee: row.employee, column, value: row.values[k] });
        await updateCells(em, id, writes);
      },
      SET_REPLACEMENT,
    );
    return this.data(caller, id, Object.assign(new PageQueryDto(), { page: 1, limit: 500 }));
  }

  /**
   * A payroll left in Processing or Completing past PAYROLL_RUN_TIMEOUT whose job is no longer
   * live (its worker died and no stalled-job check took it up, or the queue lost it) goes to Failed
   * (Processing) or back to Processed (Completing), with an error saying so. A job still waiting
   * for a worker, or running with its lock held, is left alone however long it takes.
   */
  async failStalled(): Promise<number> {
    const cutoff = new Date(Date.now() - this.config.payrollRunTimeoutSec * 1000);
    const stale = await this.payrolls.find({
      select: { id: true, status: true, claim: true },
      where: { status: In(Object.keys(JOB_STATES)), claimedAt: LessThan(cutoff) },
    });
    let reset = 0;
    for (const p of stale) {
      const state = p.status as JobRunState;
      // A claim without a token predates tokens: its job cannot be looked up, the timeout decides.
      if (p.claim && (await this.jobs.isLive(JOB_STATES[state].job, payrollJobId(state, p.id, p.claim)))) continue;
      const moved = await PAYROLL_STATES.move(
        this.payrolls.manager,
        Payroll,
        { id: p.id, claim: p.claim ?? IsNull() },
        JOB_STATES[state].recover,
        {
          error:
            state === 'Processing'
              ? 'processing did not finish in time and its job is gone (the worker stopped?); process it again'
              : 'generating payslips did not finish in time and its job is gone (the worker stopped?); generate them again',
        },
      );
      if (moved) {
        this.logger.warn(
          `payroll ${p.id}: ${state} past PAYROLL_RUN_TIMEOUT without a live job, now ${PAYROLL_STATES.transitions[JOB_STATES[state].recover].to}`,
        );
        reset++;
      }
    }
    return reset;
  }

  /**
   * The rows of a payroll a caller reads (cells, errors, payslips) follow their employee, as
   * /employees/{id}/payslips does (API.md §5): a Restricted Admin reads those of employees now in
   * its departments, so an employee moved out of them is out of every payroll route too. Null for
   * an Admin. `column` is the SQL column holding the employee id.
   */
  async employeeScope(caller: AuthUser, column: string): Promise<EmployeeScopeCondition | null> {
    const departments = await this.departmentsOf(caller);
    if (departments === null) return null;
    if (!departments.length) return { sql: '1 = 0', params: {} };
    return {
      sql: `${column} IN (SELECT scope_e.id FROM employees scope_e WHERE scope_e.department_id IN (:...scopeDepartments))`,
      params: { scopeDepartments: departments },
    };
  }

  /** Admin: null (all); Restricted Admin: its department subtree. */
  private async departmentsOf(caller: AuthUser): Promise<number[] | null> {
    const scope = await this.access.scopeOf(caller);
    return scope.kind === 'departments' ? scope.departmentIds : scope.kind === 'all' ? null : [];
  }

  private async visible(caller: AuthUser, id: number): Promise<Payroll> {
    const payroll = await this.payrolls.findOne({ where: { id } });
    const departments = payroll && (await this.departmentsOf(caller));
    if (!payroll || (departments && !departments.includes(payroll.departmentId))) throw new NotFoundException('Payroll');
    return payroll;
  }
}
