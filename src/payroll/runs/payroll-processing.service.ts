import { ARREARS_INPUT } from '../config/payroll.payroll-inputs';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { ReferenceService } from '../../reference/reference.service';
import { computePayrollYielding, EngineResult, planColumns, PlannedPlan } from '../engine/payroll-engine';
import { EmployeeSalary } from '../entities/payroll-config.entities';
import { Payroll, PayrollCell } from '../entities/payroll-run.entities';
import { PayrollRunsRepository, Selection } from './payroll-runs.repository';
import { engineColumnOf, tableNamesOf, toColumnDto } from '../config/payroll-columns';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';
import { employeeInputs, engineEmployeeOf, hookValuesOf, RunInputs, storedWorkingDays } from './run-inputs';
import { EmployeeInputs, StoredHook } from '../engine/stored-inputs';
import { PayrollGridService } from './payroll-grid.service';
import { PayrollInputsService } from './payroll-inputs.service';
import { PayrollArrearsService } from './payroll-arrears.service';
import { PayrollTablesService, ResolvedTable } from '../config/payroll-tables.service';

/** A run whose columns cannot be computed at all (a cycle, an unknown variable): Failed before any chunk, with the columns' errors. */
export class PlanFailure extends Error {
  constructor(
    message: string,
    readonly errors: Array<{ employee: number | null; column: number | null; message: string }>,
  ) {
    super(message);
  }
}

/**
 * The computation of a payroll's cells: a run's inputs as they are now, the engine over some
 * employees, the selection. A run's chunks (PayrollChunksService) and the rows POST .../data edits
 * (recompute) compute with it.
 */
@Injectable()
export class PayrollProcessingService {
  constructor(
    @InjectRepository(EmployeeSalary) private readonly salaries: Repository<EmployeeSalary>,
    private readonly repository: PayrollRunsRepository,
    private readonly reference: ReferenceService,
    private readonly inputs: PayrollInputsService,
    private readonly grid: PayrollGridService,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly arrears: PayrollArrearsService,
    private readonly tables: PayrollTablesService,
  ) {}

  /**
   * The inputs of a run as they are now: the payroll's columns, and per employee the salary
   * amounts, payroll-employee settings, formula fields and hook values with their records.
   * `columns`: compute with these definitions instead (a stored run's snapshot).
   */
  async liveInputs(
    payroll: Payroll,
    employeeIds: number[],
    columns?: PayrollColumnDto[],
    tables?: Map<string, ResolvedTable>,
  ): Promise<RunInputs> {
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
    return { columns, employees, tables: tables ?? (await this.tables.inForce(tableNamesOf(columns), payroll.dateEnd)) };
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

  /** The payroll's columns as they are now; PlanFailure when one of them is gone. */
  async currentColumns(payroll: Payroll): Promise<PayrollColumnDto[]> {
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
    const plan = this.plan(inputs.columns);
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

  /** The engine's plan of these columns; PlanFailure with the columns' errors when they cannot be computed. */
  plan(columns: PayrollColumnDto[]): PlannedPlan {
    const { plan, errors } = planColumns(columns.map(engineColumnOf));
    if (!plan)
      throw new PlanFailure(
        'the payroll columns cannot be computed: see /errors',
        errors.map((e) => ({ employee: null, column: e.columnId, message: e.message })),
      );
    return plan;
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

  /** The ids of the employees a payroll selects, ascending: what a run cuts into chunks. */
  async selectedIds(payroll: Payroll): Promise<number[]> {
    return this.repository.selectedIds(await this.selectionOf(payroll));
  }
}
