import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { AuditService } from '../../audit/audit.service';
import { AuthUser } from '../../common/auth/auth-user';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { findPayrollInput } from '../../common/payroll-inputs/payroll-inputs';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { amountText, engineColumnOf } from '../config/payroll-columns';
import { CellExplanationDto, ExplainedCellDto, ExplainInputDto, ExplainProrationDto } from '../dto/payroll-explain.dto';
import { CellExplanation, explainCell, planColumns } from '../engine/payroll-engine';
import { SalaryComponent } from '../entities/payroll-config.entities';
import { PayrollCell } from '../entities/payroll-run.entities';
import { PayrollRunInputsRepository } from '../runs/payroll-run-inputs.repository';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PAYROLL_CELL_EDITS, PayrollRunsService } from '../runs/payroll-runs.service';
import { engineEmployeeOf, hookValuesOf, requireInputs } from '../runs/run-inputs';
import { EmployeeInputs } from '../engine/stored-inputs';
import { StoredProration } from '../engine/proration';
import { PayrollTablesService, ResolvedTable } from '../config/payroll-tables.service';

/**
 * Explains a run's cells (docs/api/decisions.md §18): the engine computes the cell again in its tracing mode from
 * the inputs stored with the run, so an explanation gives the stored value whatever changed since,
 * and names where each input came from. Scope as the grid's.
 */
@Injectable()
export class PayrollExplainService {
  constructor(
    private readonly runs: PayrollRunsService,
    private readonly repository: PayrollRunsRepository,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly audit: AuditService,
    private readonly tables: PayrollTablesService,
    @InjectRepository(PayrollCell) private readonly cells: Repository<PayrollCell>,
    @InjectRepository(SalaryComponent) private readonly components: Repository<SalaryComponent>,
  ) {}

  async explain(caller: AuthUser, payrollId: number, employeeId: number, columnId: number): Promise<CellExplanationDto> {
    const payroll = await this.runs.visible(caller, payrollId);
    const present = await this.repository.cellEmployees(payrollId, await this.runs.rowScope(caller), [employeeId]);
    if (!present.includes(employeeId)) throw new NotFoundException('Employee');
    const { columnSetId, inputsRevision } = requireInputs(payroll);
    const columns = await this.storedInputs.columnSet(columnSetId);
    const inputs = await this.storedInputs.inputsOf(payrollId, inputsRevision, [employeeId]);
    const stored = inputs.get(employeeId);
    const planned = columns && planColumns(columns.map(engineColumnOf)).plan;
    if (!columns || !stored || !planned)
      throw new DomainException(
        'INVALID_STATE',
        `Payroll ${payrollId} keeps no inputs for employee ${employeeId}: process it again`,
      );
    const byId = new Map(columns.map((c) => [c.id, c]));
    if (!byId.has(columnId)) throw new NotFoundException('Column');
    // The table versions the run read (issue 44).
    const tables = await this.tables.used(payroll.tableVersions ?? []);
    planned.tables = new Map([...tables].map(([name, t]) => [name, t.formula]));
    const editable = new Set(columns.filter((c) => c.editable).map((c) => c.id));
    const edits = new Map(
      (await this.cells.find({ where: { payrollId, revision: payroll.cellsRevision, employeeId, edited: true } }))
        .filter((c) => editable.has(c.columnId))
        .map((c) => [c.columnId, amountText(c.value ?? '0')]),
    );
    const employee = engineEmployeeOf(employeeId, stored);
    const hooks = hookValuesOf(inputs);
    const explainOne = (id: number) => explainCell(planned, employee, id, hooks, (c) => edits.get(c)) as CellExplanation;
    // The columns it reads, and those they read: each explained once.
    const byVariable = new Map(columns.map((c) => [c.variable, c]));
    const explained = new Map<number, CellExplanation>();
    const visit = (e: CellExplanation) => {
      for (const input of e.inputs) {
        const read = input.kind === 'column' ? byVariable.get(String(input.ref)) : undefined;
        if (read && !explained.has(read.id)) {
          explained.set(read.id, explainOne(read.id));
          visit(explained.get(read.id) as CellExplanation);
        }
      }
    };
    const top = explainOne(columnId);
    visit(top);
    const order = new Map(planned.order.map((c, i) => [c.id, i]));
    const dependencies = [...explained.values()].sort((a, b) => (order.get(a.column) ?? 0) - (order.get(b.column) ?? 0));
    const all = [top, ...dependencies];
    const componentIds = all.flatMap((e) => e.inputs.filter((i) => i.kind === 'salary_component').map((i) => Number(i.ref)));
    const names = new Map(
      componentIds.length
        ? (await this.components.find({ where: { id: In([...new Set(componentIds)]) }, select: { id: true, name: true } })).map(
            (c) => [c.id, c.name],
          )
        : [],
    );
    // Who made the edits among them: the newest of the payroll's latest 500 edit requests naming the cell.
    const editRequests = all.some((x) => x.rule === 'edit')
      ? await this.audit.entriesOf(PAYROLL_CELL_EDITS, [String(payrollId)], { take: 500 })
      : [];
    const editedBy = (column: number) => {
      const e = editRequests.find((x) => Object.hasOwn(x.changes, `employee ${employeeId} column ${column}`));
      return e ? { at: e.at, actorUserId: e.actorUserId } : null;
    };
    const dto = (e: CellExplanation): ExplainedCellDto => {
      const column = byId.get(e.column) as PayrollColumnDto;
      return {
        column: e.column,
        name: column.name,
        variable: column.variable,
        value: e.value,
        rule: e.rule,
        script: column.calculation_hook ? null : column.script,
        default_value: column.default_value,
        inputs: e.inputs.map((i) => this.inputDto(i, column, stored, byVariable, names, editedBy(column.id), tables)),
        steps: e.steps,
        rounding: e.rounding,
        error: e.error,
      };
    };
    return { payroll: payrollId, employee: employeeId, ...dto(top), depends_on: dependencies.map(dto) };
  }

  private inputDto(
    input: CellExplanation['inputs'][number],
    column: PayrollColumnDto,
    stored: EmployeeInputs,
    byVariable: Map<string, PayrollColumnDto>,
    components: Map<number, string>,
    editedBy: { at: Date; actorUserId: number | null } | null,
    tables: Map<string, ResolvedTable>,
  ): ExplainInputDto {
    const base = { value: input.value, ...(input.sign ? { sign: input.sign } : {}) };
    switch (input.kind) {
      case 'salary_component':
        return {
          ...base,
          kind: input.kind,
          name: components.get(Number(input.ref)) ?? `component ${input.ref}`,
          component: Number(input.ref),
          ...(stored.proration ? { proration: prorationDto(stored.proration, String(input.ref)) } : {}),
        };
      case 'column': {
        const read = byVariable.get(String(input.ref)) as PayrollColumnDto;
        return { ...base, kind: input.kind, name: read.name, column: read.id, variable: read.variable };
      }
      case 'hook':
        return {
          ...base,
          kind: input.kind,
          name: findPayrollInput(String(input.ref))?.name ?? String(input.ref),
          hook: String(input.ref),
          args: column.calculation_hook_args,
          source: findPayrollInput(String(input.ref))?.source as string,
          records: stored.hooks[String(column.id)]?.records ?? [],
          ...(stored.hooks[String(column.id)]?.arrears ? { arrears: stored.hooks[String(column.id)].arrears } : {}),
        };
      case 'employee_field':
        return { ...base, kind: input.kind, name: `employee.${input.ref}`, field: String(input.ref) };
      case 'table': {
        const t = tables.get(String(input.ref));
        return {
          ...base,
          kind: input.kind,
          name: String(input.ref),
          table: t?.used.table ?? 0,
          version: input.value,
          rows: t ? t.rows : [],
        };
      }
      case 'edit':
        return {
          ...base,
          kind: input.kind,
          name: column.name,
          column: column.id,
          edited_by: editedBy?.actorUserId ?? null,
          edited_at: editedBy ? editedBy.at.toISOString() : null,
        };
    }
  }
}

/** One component's share of a stored proration: each part's amount of it (0.00 where the salary lacked it). */
function prorationDto(p: StoredProration, component: string): ExplainProrationDto {
  return {
    rule: p.rule,
    period_days: p.period_days,
    segments: p.segments.map((x) => ({
      from: x.from,
      to: x.to,
      days: x.days,
      amount: amountText(x.salary[component] ?? '0'),
      change: x.change,
    })),
  };
}
