import { CURRENCIES, CurrencyDto } from '../../common/money/currencies';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not, Repository } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { ReferenceCrud } from '../../common/crud/crud';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { ListSpec, pageOf, parseListQuery, findTablePage } from '../../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import {
  describePayrollInput,
  findPayrollInput,
  PayrollInputDescription,
  payrollInputs,
} from '../../common/payroll-inputs/payroll-inputs';
import { ARREARS_INPUT } from './payroll.payroll-inputs';
import {
  DeductionGroupDto,
  PayrollColumnDto,
  SalaryComponentDto,
  SavePayrollColumnDto,
  ValidateScriptResultDto,
} from '../dto/payroll-config.dto';
import { planColumns } from '../engine/payroll-engine';
import {
  DeductionGroup,
  EmployeeSalary,
  PayrollColumn,
  PayrollEmployee,
  SalaryComponent,
} from '../entities/payroll-config.entities';
import { Payroll } from '../entities/payroll-run.entities';
import { compileFormula } from '../formula/formula';
import { COLUMN_LIST_SPEC } from '../entities/payroll-lists';
import { hookProblems, snakeCase, toColumnDto, toEngineColumn } from './payroll-columns';
import { PayrollTestsService } from './payroll-tests.service';

/** The columns whose script reads `variable`. */
function scriptReaders(columns: PayrollColumn[], variable: string): PayrollColumn[] {
  return columns.filter((c) => c.script && compileFormula(c.script).formula?.variables.includes(variable));
}

/** Payroll columns' resource in the audit log. */
export const PAYROLL_COLUMNS = 'payroll_config/payroll-columns';

const inUse = (what: string, users: string[]): never => {
  throw new DomainException(
    'IN_USE',
    `${what} is in use by ${users.slice(0, 10).join(', ')}${users.length > 10 ? ` and ${users.length - 10} more` : ''}`,
    users.slice(0, 50).map((u) => ({ field: 'id', message: `used by ${u}` })),
  );
};

/** Salary components filter by type (the controller documents the same). */
export const SALARY_COMPONENT_LIST: Partial<ListSpec> = {
  filterFields: { component_type: { column: 'r.component_type', type: 'string' } },
};

/** Payroll configuration (docs/api/decisions.md §10): currencies, deduction groups, salary components, columns, scripts. */
@Injectable()
export class PayrollConfigService {
  readonly groups: ReferenceCrud<DeductionGroup, DeductionGroupDto>;
  readonly components: ReferenceCrud<SalaryComponent, SalaryComponentDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayrollColumn) private readonly columns: Repository<PayrollColumn>,
    @InjectRepository(PayrollEmployee) private readonly payrollEmployees: Repository<PayrollEmployee>,
    @InjectRepository(EmployeeSalary) private readonly salaries: Repository<EmployeeSalary>,
    @InjectRepository(DeductionGroup) groups: Repository<DeductionGroup>,
    @InjectRepository(SalaryComponent) components: Repository<SalaryComponent>,
    private readonly payrollTests: PayrollTestsService,
  ) {
    this.groups = new ReferenceCrud<DeductionGroup, DeductionGroupDto>({
      label: 'Deduction group',
      resource: 'payroll_config/payroll-groups',
      repo: groups,
      fields: { name: 'name', description: 'description' },
      checkDelete: (id) => this.assertGroupUnused(id),
    });
    this.components = new ReferenceCrud<SalaryComponent, SalaryComponentDto>({
      label: 'Salary component',
      resource: 'payroll_config/salary-components',
      repo: components,
      fields: { name: 'name', component_type: 'componentType', details: 'details' },
      listSpec: SALARY_COMPONENT_LIST,
      checkDelete: (id) => this.assertComponentUnused(id),
    });
  }

  currencies(query: PageQueryDto): Page<CurrencyDto> {
    return pageOf([...CURRENCIES], query);
  }

  hooks(query: PageQueryDto): Page<PayrollInputDescription> {
    return pageOf(payrollInputs().map(describePayrollInput), query);
  }

  async listColumns(query: ListQueryDto): Promise<Page<PayrollColumnDto>> {
    const page = await findTablePage(this.columns, 'c', parseListQuery(query, COLUMN_LIST_SPEC));
    return page.map(toColumnDto);
  }

  async getColumn(id: number): Promise<PayrollColumnDto> {
    return toColumnDto(await this.findColumn(id));
  }

  /**
   * Creates a column, or with `id` updates it. The whole column set is planned with the change
   * (scripts compiled against the variables, references checked, no cycle): 400 with the script's
   * errors otherwise. `colorder` is kept 1..n: the column takes its position, later ones move down.
   */
  async saveColumn(dto: SavePayrollColumnDto): Promise<PayrollColumnDto> {
    return transaction(this.dataSource, async (em) => {
      const repo = em.getRepository(PayrollColumn);
      const { column, existing, before } = await this.proposed(em, dto);
      await this.payrollTests.check(em, column, dto.accept_test_changes === true);

      const others = await repo.find({ where: column.id ? { id: Not(column.id) } : {}, order: { colorder: 'ASC', id: 'ASC' } });
      const position = Math.min(dto.colorder ?? existing?.colorder ?? others.length + 1, others.length + 1);
      column.colorder = position;
      const saved = await repo.save(column);
      // Dense 1..n: the others keep their order around the saved column.
      let order = 1;
      for (const other of others) {
        if (order === position) order += 1;
        if (other.colorder !== order) await repo.update({ id: other.id }, { colorder: order });
        order += 1;
      }
      const view = toColumnDto(saved);
      await recordAudit(em, {
        action: before ? 'update' : 'create',
        resource: PAYROLL_COLUMNS,
        resourceId: saved.id,
        before,
        after: view,
      });
      return view;
    });
  }

  /** The column a save would write, checked as a save checks it (400, 404, 409), not saved (preview-change too). */
  async proposeColumn(dto: SavePayrollColumnDto): Promise<PayrollColumnDto> {
    return toColumnDto((await this.proposed(this.dataSource.manager, dto)).column);
  }

  private async proposed(
    em: EntityManager,
    dto: SavePayrollColumnDto,
  ): Promise<{ column: PayrollColumn; existing: PayrollColumn | null; before: PayrollColumnDto | null }> {
    const repo = em.getRepository(PayrollColumn);
    const existing = dto.id === undefined ? null : await repo.findOne({ where: { id: dto.id } });
    if (dto.id !== undefined && !existing) throw new NotFoundException('Payroll column');
    const before = existing && toColumnDto(existing);
    const column = existing ?? repo.create({ enabled: true, editable: false, calculationHookArgs: {} });
    column.name = dto.name;
    column.variable = dto.variable ?? (existing && existing.name === dto.name ? existing.variable : snakeCase(dto.name));
    if (before && column.variable !== before.variable) {
      // Scripts name columns by variable: a rename would break every script that reads the old name.
      const readers = scriptReaders(await repo.find({ where: { id: Not(before.id) } }), before.variable);
      if (readers.length)
        inUse(
          `Payroll column variable ${before.variable}`,
          readers.map((u) => `column ${u.variable}`),
        );
    }
    if (dto.enabled !== undefined) column.enabled = dto.enabled;
    if (dto.editable !== undefined) column.editable = dto.editable;
    if (dto.default_value !== undefined) column.defaultValue = dto.default_value;
    column.salaryComponents = [...new Set(dto.salary_components ?? existing?.salaryComponents ?? [])];
    column.addColumns = [...new Set(dto.add_columns ?? existing?.addColumns ?? [])];
    column.subColumns = [...new Set(dto.sub_columns ?? existing?.subColumns ?? [])];
    if (dto.calculation_hook !== undefined) column.calculationHook = dto.calculation_hook;
    if (dto.calculation_hook_args !== undefined)
      column.calculationHookArgs = dto.calculation_hook_args as Record<string, string | number>;
    if (dto.script !== undefined) column.script = dto.script === null || dto.script.trim() === '' ? null : dto.script;
    if (dto.deduction_group !== undefined) column.deductionGroupId = dto.deduction_group;
    column.calculationHook ??= null;
    column.script ??= null;
    column.defaultValue ??= null;
    column.deductionGroupId ??= null;
    await this.checkColumn(em, column);
    return { column, existing, before };
  }

  /** Deletes a column no other column uses (409 naming them); the rest close up to 1..n. */
  async removeColumn(id: number): Promise<{ id: number }> {
    return transaction(this.dataSource, async (em) => {
      const repo = em.getRepository(PayrollColumn);
      const column = await repo.findOne({ where: { id } });
      if (!column) throw new NotFoundException('Payroll column');
      const others = await repo.find({ where: { id: Not(id) }, order: { colorder: 'ASC', id: 'ASC' } });
      const readers = new Set(scriptReaders(others, column.variable));
      const users = others.filter((o) => o.addColumns.includes(id) || o.subColumns.includes(id) || readers.has(o));
      // Payrolls name their columns (a JSON list): the few payroll rows are read and checked here.
      const payrolls = (await em.getRepository(Payroll).find({ select: { id: true, columns: true } })).filter((p) =>
        p.columns.includes(id),
      );
      if (users.length || payrolls.length) {
        inUse(`Payroll column ${column.variable}`, [
          ...users.map((u) => `column ${u.variable}`),
          ...payrolls.map((p) => `payroll ${p.id}`),
        ]);
      }
      await repo.delete({ id });
      await recordAudit(em, {
        action: 'delete',
        resource: PAYROLL_COLUMNS,
        resourceId: id,
        before: toColumnDto(column),
      });
      for (const [i, other] of others.entries())
        if (other.colorder !== i + 1) await repo.update({ id: other.id }, { colorder: i + 1 });
      return { id };
    });
  }

  /** POST /payroll_config/validate-script: syntax, functions, employee fields and the current columns' variables. */
  async validateScript(script: string): Promise<ValidateScriptResultDto> {
    const variables = new Set((await this.columns.find({ select: { variable: true } })).map((c) => c.variable));
    const { formula, errors } = compileFormula(script, variables);
    return formula ? { valid: true, variables: formula.variables.sort() } : { valid: false, errors };
  }

  /** A column's references exist, its hook and arguments are known, and the set it joins plans. */
  private async checkColumn(em: EntityManager, column: PayrollColumn): Promise<void> {
    const problems: ErrorDetail[] = [];
    const all = await em.getRepository(PayrollColumn).find();
    if (all.some((c) => c.variable === column.variable && c.id !== column.id)) {
      throw new DomainException('DUPLICATE', `variable ${column.variable} is already used`, [
        { field: 'variable', message: 'already used' },
      ]);
    }
    if (column.salaryComponents.length) {
      const found = await em.getRepository(SalaryComponent).count({ where: { id: In(column.salaryComponents) } });
      if (found !== column.salaryComponents.length)
        problems.push({ field: 'salary_components', message: 'names a component that does not exist' });
    }
    if (
      column.deductionGroupId !== null &&
      !(await em.getRepository(DeductionGroup).exists({ where: { id: column.deductionGroupId } }))
    ) {
      problems.push({ field: 'deduction_group', message: 'does not exist' });
    }
    if (column.calculationHook !== null) {
      const hook = findPayrollInput(column.calculationHook);
      problems.push(...hookProblems(column.calculationHook, column.calculationHookArgs));
      const target = column.calculationHookArgs.column;
      if (
        hook?.code === ARREARS_INPUT &&
        typeof target === 'number' &&
        (target === column.id || !all.some((c) => c.id === target))
      )
        problems.push({ field: 'calculation_hook_args.column', message: 'must be another payroll column' });
    }
    if (problems.length) throw new ValidationException(problems);
    const set = [...all.filter((c) => c.id !== column.id), { ...column, id: column.id ?? 0 }].map(toEngineColumn);
    const { errors } = planColumns(set);
    const own = errors.filter((e) => e.columnId === (column.id ?? 0) || e.message.startsWith('dependency cycle'));
    if (own.length) {
      throw new ValidationException(
        own.map((e) => ({
          field: e.line === undefined ? (e.message.startsWith('column') ? 'add_columns' : 'script') : 'script',
          message: e.line === undefined ? e.message : `${e.message} (line ${e.line}, column ${e.column})`,
        })),
      );
    }
  }

  private async assertGroupUnused(id: number): Promise<void> {
    const employees = await this.payrollEmployees.find({
      where: { deductionGroupId: id },
      select: { employeeId: true },
      take: 51,
    });
    const columns = await this.columns.find({ where: { deductionGroupId: id }, select: { variable: true } });
    const users = [...employees.map((e) => `employee ${e.employeeId}`), ...columns.map((c) => `column ${c.variable}`)];
    if (users.length) inUse(`Deduction group ${id}`, users);
  }

  private async assertComponentUnused(id: number): Promise<void> {
    const salaries = await this.salaries.find({ where: { componentId: id }, select: { employeeId: true }, take: 51 });
    const columns = (await this.columns.find({ select: { variable: true, salaryComponents: true } })).filter((c) =>
      c.salaryComponents.includes(id),
    );
    const users = [...columns.map((c) => `column ${c.variable}`), ...salaries.map((s) => `employee ${s.employeeId}`)];
    if (users.length) inUse(`Salary component ${id}`, users);
  }

  private async findColumn(id: number): Promise<PayrollColumn> {
    const column = await this.columns.findOne({ where: { id } });
    if (!column) throw new NotFoundException('Payroll column');
    return column;
  }
}
