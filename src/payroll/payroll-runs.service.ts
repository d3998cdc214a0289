import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, LessThan, Repository, SelectQueryBuilder } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { AuthUser } from '../common/auth/auth-user';
import { recordAudit } from '../common/audit/audit-log';
import { recordEvent } from '../common/outbox/outbox';
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
import { computePayrollYielding, EngineEmployee, EngineResult, planColumns } from './engine/payroll-engine';
import { DeductionGroup, EmployeeSalary, PayFrequency, PayrollColumn, PayrollEmployee } from './entities/payroll-config.entities';
import { Payroll, PayrollCell, PayrollError, PayrollStatus, PayslipTemplate } from './entities/payroll-run.entities';
import { toEngineColumn } from './payroll-config.service';
import { CellWrite, updateCells } from './payroll-cells.repository';
import { EmployeeName, EmployeeScopeCondition, PayrollGridService, rowEmployee } from './payroll-grid.service';
import { PAYROLL_STATES } from './payroll.states';
import { PAYROLL_ERROR_LIST_SPEC, PAYROLL_LIST_SPEC } from './payroll-lists';
import { minorUnitOf } from '../common/money/currencies';
import { PAYROLL_FAILED_EVENT, PAYROLL_PROCESSED_EVENT, PayrollEvent } from './payroll.events';
import { PayrollInputsService } from './payroll-inputs.service';
import {
  internalFailure,
  isCurrentClaim,
  JOB_STATES,
  JobRunState,
  PAYROLL_PROCESS_JOB,
  payrollJobId,
  PayrollJobData,
} from './payroll.jobs';

const BATCH = 1000;

/** GET .../{id}/employees: by employee id unless sortField says otherwise (API.md §6). */
export const SELECTION_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: { id: 'e.id', employee_id: 'e.employee_id', first_name: 'e.first_name', last_name: 'e.last_name' },
  defaultSort: { field: 'id', order: 'ascend' },
};

/** A payroll employee of a payroll's selection, with its employee's name. */
function selectionRow(names: Map<number, EmployeeName>, p: PayrollEmployee): PayrollEmployeeRowDto {
  return { ...rowEmployee(names, p.employeeId), payroll_employee: p.id, currency: p.currency };
}

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
    @InjectRepository(PayrollEmployee) private readonly payrollEmployees: Repository<PayrollEmployee>,
    @InjectRepository(EmployeeSalary) private readonly salaries: Repository<EmployeeSalary>,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
    @InjectRepository(DeductionGroup) private readonly groups: Repository<DeductionGroup>,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesService,
    private readonly reference: ReferenceService,
    private readonly inputs: PayrollInputsService,
    private readonly jobs: JobQueue,
    private readonly events: EventEmitter2,
    private readonly grid: PayrollGridService,
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
    const page = await findPage(await this.selectionQuery(await this.visible(caller, id)), parseListQuery(query, SELECTION_SPEC));
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

  /** The job: computes every cell and writes them in one transaction; Processed, or Failed with the errors. */
  async run(data: PayrollJobData): Promise<void> {
    const payrollId = data.payrollId;
    const payroll = await this.payrolls.findOne({ where: { id: payrollId } });
    // Done already, deleted, or claimed again since this job was queued (that claim has its own job).
    if (!payroll || !isCurrentClaim(data, payroll, 'Processing')) return;
    try {
      const selection = await this.selection(payroll);
      await this.payrolls.update({ id: payrollId, status: 'Processing' }, { progress: 20 });
      const ids = selection.map((s) => s.id);
      const edited = await this.cells.find({ where: { payrollId, edited: true } });
      const result = await this.compute(payroll, ids, edited);
      await this.payrolls.update({ id: payrollId, status: 'Processing' }, { progress: 60 });
      // Concurrent runs of other payrolls insert beside these rows: no gap locks, and a deadlock
      // victim writes again.
      await transaction(
        this.dataSource,
        async (em) => {
          await em.delete(PayrollCell, { payrollId });
          await this.writeCells(em, payrollId, result, edited);
          await this.replaceErrors(em, payrollId, result.errors);
        },
        SET_REPLACEMENT,
      );
      const failed = result.errors.length > 0;
      await this.finish(
        payroll,
        failed ? 'Failed' : 'Processed',
        failed ? `${result.errors.length} cells could not be computed: see /errors` : null,
        ids.length,
        result.errors.length,
      );
    } catch (err) {
      if (err instanceof PlanFailure) {
        await transaction(this.dataSource, (em) => this.replaceErrors(em, payrollId, err.errors), SET_REPLACEMENT);
        await this.finish(payroll, 'Failed', err.message, 0, err.errors.length);
        return;
      }
      const job = payrollJobId('Processing', payrollId, data.claim ?? 'unclaimed');
      this.logger.error(`payroll ${payrollId} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.finish(payroll, 'Failed', internalFailure('processing', job), 0, 0);
    }
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
          select: { employeeId: true, columnId: true, value: true },
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
        // The edits, then everything they change in those rows: one statement (per 2 000 cells).
        const editedBefore = await em
          .getRepository(PayrollCell)
          .find({ where: { payrollId: id, employeeId: In(employeeIds), edited: true } });
        const edits = new Map(dto.values.map((v) => [`${v.employee}:${v.column}`, v.amount]));
        const edited = [
          ...editedBefore.filter((c) => !edits.has(`${c.employeeId}:${c.columnId}`)),
          ...dto.values.map((v) =>
            Object.assign(new PayrollCell(), {
              payrollId: id,
              employeeId: v.employee,
              columnId: v.column,
              value: v.amount,
              edited: true,
            }),
          ),
        ];
        const kept = new Set(edited.map((c) => `${c.employeeId}:${c.columnId}`));
        const result = await this.compute(payroll, employeeIds, edited);
        const writes: CellWrite[] = dto.values.map((v) => ({
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

  private async compute(payroll: Payroll, employeeIds: number[], edited: PayrollCell[]): Promise<EngineResult> {
    const columns = await this.grid.columnsOf(payroll);
    if (columns.length !== payroll.columns.length) throw new PlanFailure('a column of the payroll no longer exists', []);
    const { plan, errors } = planColumns(columns.map(toEngineColumn));
    if (!plan) {
      throw new PlanFailure(
        'the payroll columns cannot be computed: see /errors',
        errors.map((e) => ({ employee: null, column: e.columnId, message: e.message })),
      );
    }
    const salaries = new Map<number, Map<number, string>>();
    for (let i = 0; i < employeeIds.length; i += 1000) {
      for (const s of await this.salaries.find({ where: { employeeId: In(employeeIds.slice(i, i + 1000)) } })) {
        const map = salaries.get(s.employeeId) ?? new Map<number, string>();
        map.set(s.componentId, s.amount);
        salaries.set(s.employeeId, map);
      }
    }
    const currencies = await this.grid.currenciesOf(employeeIds);
    const fields = await this.inputs.engineFields(employeeIds, payroll.dateEnd);
    const hookColumns = columns
      .filter((c) => c.calculationHook)
      .map((c) => ({ id: c.id, hook: c.calculationHook as string, args: c.calculationHookArgs }));
    const hooks = await this.inputs.hookValues(hookColumns, employeeIds, payroll.dateStart, payroll.dateEnd);
    const editable = new Set(columns.filter((c) => c.editable).map((c) => c.id));
    const fixed = new Map(
      edited.filter((c) => editable.has(c.columnId)).map((c) => [`${c.employeeId}:${c.columnId}`, c.value ?? '0']),
    );
    const engineEmployees: EngineEmployee[] = employeeIds.map((id) => ({
      id,
      minorUnit: minorUnitOf(currencies.get(id) ?? ''),
      fields: fields.get(id) ?? {},
      salary: salaries.get(id) ?? new Map(),
    }));
    return computePayrollYielding(plan, engineEmployees, hooks, (columnId, employeeId) => fixed.get(`${employeeId}:${columnId}`));
  }

  /** Plain multi-row INSERTs (BATCH rows a statement): TypeORM's entity insert costs more than the engine. */
  private async writeCells(em: EntityManager, payrollId: number, result: EngineResult, edited: PayrollCell[]): Promise<void> {
    const editedKeys = new Set(edited.map((c) => `${c.employeeId}:${c.columnId}`));
    let params: unknown[] = [];
    let rows = 0;
    const flush = async () => {
      if (!rows) return;
      const values = Array.from({ length: rows }, () => '(?, ?, ?, ?, ?)').join(', ');
      await em.query(`INSERT INTO payroll_cells (payroll_id, employee_id, column_id, value, edited) VALUES ${values}`, params);
      params = [];
      rows = 0;
    };
    for (const row of result.rows) {
      for (const [k, columnId] of result.columns.entries()) {
        params.push(payrollId, row.employee, columnId, row.values[k], editedKeys.has(`${row.employee}:${columnId}`) ? 1 : 0);
        if (++rows === BATCH) await flush();
      }
    }
    await flush();
  }

  /** Replaces a payroll's error list: its cells' (processing), or payslips that could not be rendered. */
  async replaceErrors(
    em: EntityManager,
    payrollId: number,
    errors: Array<{ employee: number | null; column: number | null; message: string }>,
  ): Promise<void> {
    await em.delete(PayrollError, { payrollId });
    await this.writeErrors(em, payrollId, errors);
  }

  private async writeErrors(
    em: EntityManager,
    payrollId: number,
    errors: Array<{ employee: number | null; column: number | null; message: string }>,
  ): Promise<void> {
    const rows = errors
      .slice(0, 10_000)
      .map((e) => ({ payrollId, employeeId: e.employee, columnId: e.column, message: e.message.slice(0, 500) }));
    for (let i = 0; i < rows.length; i += BATCH)
      await em
        .createQueryBuilder()
        .insert()
        .into(PayrollError)
        .values(rows.slice(i, i + BATCH))
        .execute();
  }

  private async finish(
    payroll: Payroll,
    status: PayrollStatus,
    error: string | null,
    employees: number,
    errors: number,
  ): Promise<void> {
    // The outcome and its webhook event (payroll.processed or payroll.failed) in one transaction.
    const res = await transaction(this.dataSource, async (em) => {
      const moved = await PAYROLL_STATES.move(em, Payroll, { id: payroll.id }, status === 'Processed' ? 'processed' : 'fail', {
        progress: 100,
        error,
        processedAt: status === 'Processed' ? new Date() : payroll.processedAt,
      });
      if (moved)
        await recordEvent(em, status === 'Processed' ? 'payroll.processed' : 'payroll.failed', {
          id: payroll.id,
          status,
          employees,
          errors,
        });
      return moved;
    });
    if (res) {
      this.logger.log(`payroll ${payroll.id} ${status} (claim ${payroll.claim}): ${employees} employees, ${errors} errors`);
      // Awaited: the job ends only after its listeners (the review task) did, so a worker that
      // drains on SIGTERM does not close the database under them.
      await this.events.emitAsync(status === 'Processed' ? PAYROLL_PROCESSED_EVENT : PAYROLL_FAILED_EVENT, {
        payrollId: payroll.id,
        status,
        employees,
        errors,
      } satisfies PayrollEvent);
    }
  }

  /**
   * The payroll employees a payroll selects (what it processes and GET .../{id}/employees lists):
   * the pay frequency, and deduction group when set; Active; in the department or below.
   */
  private async selectionQuery(payroll: Payroll): Promise<SelectQueryBuilder<PayrollEmployee>> {
    const departments = await this.reference.subtree([payroll.departmentId]);
    const qb = this.payrollEmployees
      .createQueryBuilder('p')
      .innerJoin('employees', 'e', 'e.id = p.employee_id')
      .where('p.pay_frequency_id = :payPeriod', { payPeriod: payroll.payPeriod })
      .andWhere("e.status = 'Active'")
      .andWhere('e.department_id IN (:...departments)', { departments });
    if (payroll.deductionGroupId !== null) qb.andWhere('p.deduction_group_id = :group', { group: payroll.deductionGroupId });
    return qb;
  }

  /** The whole selection, by name (the grid's order). */
  private async selection(payroll: Payroll): Promise<PayrollEmployeeRowDto[]> {
    const selected = await (await this.selectionQuery(payroll)).getMany();
    const names = await this.employees.namesOf(selected.map((p) => p.employeeId));
    return selected.map((p) => selectionRow(names, p)).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
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

class PlanFailure extends Error {
  constructor(
    message: string,
    readonly errors: Array<{ employee: number | null; column: number | null; message: string }>,
  ) {
    super(message);
  }
}
