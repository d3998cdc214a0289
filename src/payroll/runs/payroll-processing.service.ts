import { ARREARS_INPUT } from '../config/payroll.payroll-inputs';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { recordEvent } from '../../common/outbox/outbox';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { ReferenceService } from '../../reference/reference.service';
import { PayrollEmployeeRowDto } from '../dto/payroll-run.dto';
import { computePayrollYielding, EngineResult, planColumns } from '../engine/payroll-engine';
import { EmployeeSalary } from '../entities/payroll-config.entities';
import { Payroll, PayrollCell, PayrollStatus } from '../entities/payroll-run.entities';
import { PayrollRunsRepository, Selection } from './payroll-runs.repository';
import { engineColumnOf, toColumnDto } from '../config/payroll-columns';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';
import { employeeInputs, engineEmployeeOf, hookValuesOf, RunInputs, cellsOf, storedWorkingDays } from './run-inputs';
import { EmployeeInputs, StoredHook } from '../engine/stored-inputs';
import { tableNamesOf } from '../config/payroll-columns';
import { BY_NAME, PayrollGridService, selectionRow } from './payroll-grid.service';
import { PAYROLL_STATES } from './payroll.states';
import '../payroll.events';
import { PayrollInputsService } from './payroll-inputs.service';
import { PayrollArrearsService } from './payroll-arrears.service';
import { PayrollTablesService, ResolvedTable } from '../config/payroll-tables.service';
import { internalFailure, isCurrentClaim, payrollJobId, PayrollJobData } from './payroll.jobs';

class PlanFailure extends Error {
  constructor(
    message: string,
    readonly errors: Array<{ employee: number | null; column: number | null; message: string }>,
  ) {
    super(message);
  }
}

/**
 * Processing a payroll (the PAYROLL_PROCESS_JOB's body): the selection, the engine over every
 * employee, the cells and errors written in one transaction, the outcome and its events. Also the
 * computation POST .../data uses for the rows it edits.
 */
@Injectable()
export class PayrollProcessingService {
  private readonly logger = new Logger('PayrollRuns');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    @InjectRepository(PayrollCell) private readonly cells: Repository<PayrollCell>,
    @InjectRepository(EmployeeSalary) private readonly salaries: Repository<EmployeeSalary>,
    private readonly employees: EmployeesRepository,
    private readonly repository: PayrollRunsRepository,
    private readonly reference: ReferenceService,
    private readonly inputs: PayrollInputsService,
    private readonly grid: PayrollGridService,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly arrears: PayrollArrearsService,
    private readonly tables: PayrollTablesService,
  ) {}

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
      const inputs = await this.liveInputs(payroll, ids);
      // The inputs are written while the engine computes (the database works, this process computes);
      // the cells' transaction makes their revision the payroll's.
      const revision = (payroll.inputsRevision ?? 0) + 1;
      const written = this.storedInputs.write(this.dataSource.manager, payrollId, revision, inputs.employees);
      const computed = Promise.all([this.computeFrom(inputs, ids, edited), this.storedInputs.columnSetOf(inputs.columns)]);
      // Both settle before anything else happens: a failed computation leaves no write running.
      await Promise.allSettled([written, computed]);
      const [result, columnSetId] = await computed;
      await written;
      await this.payrolls.update({ id: payrollId, status: 'Processing' }, { progress: 60 });
      const tableVersions = [...(inputs.tables?.values() ?? [])].map((t) => t.used);
      const kept = { columnSetId, inputsRevision: revision, tableVersions };
      // Concurrent runs of other payrolls insert beside these rows: no gap locks, and a deadlock
      // victim writes again.
      await transaction(
        this.dataSource,
        async (em) => {
          await em.delete(PayrollCell, { payrollId });
          await this.repository.insertCells(em, payrollId, cellsOf(result, edited));
          await this.repository.replaceErrors(em, payrollId, result.errors);
          await em.update(Payroll, { id: payrollId }, { ...kept, revision: () => 'revision + 1' });
        },
        SET_REPLACEMENT,
      );
      await this.storedInputs.dropOlder(payrollId, revision);
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
        await transaction(this.dataSource, (em) => this.repository.replaceErrors(em, payrollId, err.errors), SET_REPLACEMENT);
        await this.finish(payroll, 'Failed', err.message, 0, err.errors.length);
        return;
      }
      const job = payrollJobId('Processing', payrollId, data.claim ?? 'unclaimed');
      this.logger.error(`payroll ${payrollId} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.finish(payroll, 'Failed', internalFailure('processing', job), 0, 0);
    }
  }

  /**
   * The inputs of a run as they are now: the payroll's columns, and per employee the salary
   * amounts, payroll-employee settings, formula fields and hook values with their records.
   * `columns`: compute with these definitions instead (a stored run's snapshot).
   */
  async liveInputs(payroll: Payroll, employeeIds: number[], columns?: PayrollColumnDto[]): Promise<RunInputs> {
    columns ??= await this.currentColumns(payroll);
    // Each employee's working days, read once: for working_days proration and kept with the inputs.
    const working = await this.inputs.workingDaysOf(employeeIds, payroll.dateStart, payroll.dateEnd);
    // The salaries over the period from the employment history, prorated; the current salary for
    // an employee without history then.
    const prorated = await this.inputs.proratedSalaries(
      employeeIds,
      payroll.dateStart,
      payroll.dateEnd,
      await this.inputs.prorationOf(payroll),
      undefined,
      working,
    );
    const current = employeeIds.filter((id) => !prorated.has(id));
    const salaries = new Map<number, Map<number, string>>();
    for (const [id, p] of prorated) salaries.set(id, new Map(Object.entries(p.salary).map(([c, amount]) => [Number(c), amount])));
    for (let i = 0; i < current.length; i += 1000) {
      for (const s of await this.salaries.find({ where: { employeeId: In(current.slice(i, i + 1000)) } })) {
        const map = salaries.get(s.employeeId) ?? new Map<number, string>();
        map.set(s.componentId, s.amount);
        salaries.set(s.employeeId, map);
      }
    }
    const settings = await this.grid.payrollEmployeesOf(employeeIds, {
      employeeId: true,
      payFrequencyId: true,
      currency: true,
      deductionGroupId: true,
    });
    const fields = await this.inputs.engineFields(employeeIds, payroll.dateEnd);
    const hookColumns = columns
      .filter((c) => c.calculation_hook)
      .map((c) => ({ id: c.id, hook: c.calculation_hook as string, args: c.calculation_hook_args }));
    const hooks = await this.inputs.hookInputs(hookColumns, employeeIds, payroll.dateStart, payroll.dateEnd, fields);
    const arrears = hookColumns.filter((c) => c.hook === ARREARS_INPUT);
    for (const [column, values] of await this.arrears.hookInputs(payroll, arrears, employeeIds)) hooks.set(column, values);
    const employees = new Map<number, EmployeeInputs>();
    for (const id of employeeIds) {
      const p = settings.get(id);
      const stored: Record<string, StoredHook> = {};
      for (const c of hookColumns) {
        const hook = hooks.get(c.id)?.get(id);
        if (hook) stored[String(c.id)] = hook;
      }
      employees.set(
        id,
        employeeInputs(
          {
            pay_frequency: p?.payFrequencyId ?? null,
            currency: p?.currency ?? null,
            deduction_group: p?.deductionGroupId ?? null,
          },
          salaries.get(id),
          fields.get(id),
          stored,
          prorated.get(id) ?? null,
          working.has(id) ? storedWorkingDays(working.get(id)!) : null,
        ),
      );
    }
    return { columns, employees, tables: await this.tables.inForce(tableNamesOf(columns), payroll.dateEnd) };
  }

  /** The table versions a run computes with (PayrollTablesService.forRun). */
  tablesOf(payroll: Payroll, columns: PayrollColumnDto[]): Promise<Map<string, ResolvedTable>> {
    return this.tables.forRun(payroll, tableNamesOf(columns));
  }

  /** The columns a run's cells follow: its snapshot, or (a run computed before snapshots) the payroll's current ones. */
  async columnsFor(payroll: Payroll): Promise<PayrollColumnDto[]> {
    const stored = payroll.columnSetId === null ? null : await this.storedInputs.columnSet(payroll.columnSetId);
    return stored ?? (await this.currentColumns(payroll));
  }

  private async currentColumns(payroll: Payroll): Promise<PayrollColumnDto[]> {
    const current = await this.grid.columnsOf(payroll);
    if (current.length !== payroll.columns.length) throw new PlanFailure('a column of the payroll no longer exists', []);
    return current.map(toColumnDto);
  }

  /**
   * Some rows of a run computed again (a grid edit) from the run's inputs and its `columns`
   * (columnsFor), not today's: an edit changes what it edits and what follows from it, nothing
   * else. Inputs read live for want of stored ones (a run computed before runs kept them, or an
   * employee without them) are kept with the run when it keeps inputs. Bumps the payroll's revision.
   */
  async recompute(
    em: EntityManager,
    payroll: Payroll,
    columns: PayrollColumnDto[],
    employeeIds: number[],
    edited: PayrollCell[],
  ): Promise<EngineResult> {
    const revision = payroll.inputsRevision;
    const stored =
      revision === null ? new Map<number, EmployeeInputs>() : await this.storedInputs.inputsOf(payroll.id, revision, employeeIds);
    const missing = employeeIds.filter((id) => !stored.has(id));
    const fresh = missing.length
      ? (await this.liveInputs(payroll, missing, columns)).employees
      : new Map<number, EmployeeInputs>();
    const tables = await this.tablesOf(payroll, columns);
    const result = await this.computeFrom({ columns, employees: new Map([...stored, ...fresh]), tables }, employeeIds, edited);
    if (revision !== null && fresh.size) await this.storedInputs.upsert(em, payroll.id, revision, fresh);
    await em.update(Payroll, { id: payroll.id }, { revision: () => 'revision + 1' });
    return result;
  }

  /** Every cell of these employees from a run's inputs (edited cells of editable columns kept as they are). */
  async computeFrom(inputs: RunInputs, employeeIds: number[], edited: PayrollCell[]): Promise<EngineResult> {
    const { plan, errors } = planColumns(inputs.columns.map(engineColumnOf));
    if (!plan) {
      throw new PlanFailure(
        'the payroll columns cannot be computed: see /errors',
        errors.map((e) => ({ employee: null, column: e.columnId, message: e.message })),
      );
    }
    const editable = new Set(inputs.columns.filter((c) => c.editable).map((c) => c.id));
    const fixed = new Map(
      edited.filter((c) => editable.has(c.columnId)).map((c) => [`${c.employeeId}:${c.columnId}`, c.value ?? '0']),
    );
    plan.tables = new Map([...(inputs.tables ?? new Map<string, ResolvedTable>())].map(([name, t]) => [name, t.formula]));
    const engineEmployees = employeeIds.map((id) => engineEmployeeOf(id, inputs.employees.get(id) as EmployeeInputs));
    return computePayrollYielding(plan, engineEmployees, hookValuesOf(inputs.employees), (columnId, employeeId) =>
      fixed.get(`${employeeId}:${columnId}`),
    );
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
    if (res)
      this.logger.log(`payroll ${payroll.id} ${status} (claim ${payroll.claim}): ${employees} employees, ${errors} errors`);
  }

  /**
   * The payroll employees a payroll selects (what it processes and GET .../{id}/employees lists):
   * the pay frequency, and deduction group when set; employed on some day of the period (joiners
   * and leavers within it included, issue 44); in the department or below on its last day.
   */
  async selectionOf(payroll: Payroll): Promise<Selection> {
    return {
      payFrequency: payroll.payPeriod,
      deductionGroup: payroll.deductionGroupId,
      departments: await this.reference.subtree([payroll.departmentId]),
      period: { from: payroll.dateStart, to: payroll.dateEnd },
    };
  }

  private async selection(payroll: Payroll): Promise<PayrollEmployeeRowDto[]> {
    const selected = await this.repository.selected(await this.selectionOf(payroll));
    const names = await this.employees.namesOf(selected.map((p) => p.employeeId));
    return selected.map((p) => selectionRow(names, p)).sort((a, b) => BY_NAME(a.name, b.name) || a.id - b.id);
  }
}
