import { Injectable, OnModuleInit } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import Decimal from 'decimal.js';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { withEmployeeLock } from '../../employees/core/employee-lock';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { ListSpec } from '../../common/paging/list-request';
import { SearchableListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { EmployeesRepository, RecordList } from '../../employees/core/employees.repository';
import { EmployeesService } from '../../employees/employees.service';
import { EmploymentHistoryWriter } from '../../employees/history/employment-history.writer';
import { SalaryLine } from '../../employees/history/employment-history';
import {
  PayrollEmployeeDto,
  PayrollStatusEmployeeDto,
  PutSalaryDto,
  SalaryItemDto,
  SavePayrollEmployeeDto,
} from '../dto/payroll-config.dto';
import {
  DeductionGroup,
  EmployeeSalary,
  PayFrequency,
  PayrollEmployee,
  SalaryComponent,
} from '../entities/payroll-config.entities';
import { minorUnitOf } from '../../common/money/currencies';

/** Employee salaries' resource in the audit log: a change per component ("component 3"). */
export const SALARIES = 'employees/salary';

export const PAYROLL_EMPLOYEE_SPEC: ListSpec = {
  idColumn: 'p.id',
  sortFields: { id: 'p.id', employee: 'p.employee_id', currency: 'p.currency' },
  filterFields: {
    employee: { column: 'p.employee_id', type: 'int' },
    pay_frequency: { column: 'p.pay_frequency_id', type: 'int' },
    deduction_group: { column: 'p.deduction_group_id', type: 'int' },
    currency: { column: 'p.currency', type: 'string' },
  },
};

function toPayrollEmployeeDto(p: PayrollEmployee): PayrollEmployeeDto {
  return {
    id: p.id,
    employee: p.employeeId,
    pay_frequency: p.payFrequencyId,
    currency: p.currency,
    deduction_group: p.deductionGroupId,
  };
}

/**
 * The employee side of payroll configuration: salaries (GET/PUT /employees/{id}/salary), payroll
 * employees, and every employee in scope with its payroll status. Admins for everybody, Restricted
 * Admins for the employees of their departments; anybody else sees nothing (404).
 */
@Injectable()
export class PayrollEmployeesService implements OnModuleInit {
  readonly list: RecordList<PayrollEmployeeDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayrollEmployee) private readonly payrollEmployees: Repository<PayrollEmployee>,
    @InjectRepository(EmployeeSalary) private readonly salaries: Repository<EmployeeSalary>,
    @InjectRepository(SalaryComponent) private readonly components: Repository<SalaryComponent>,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
    @InjectRepository(DeductionGroup) private readonly groups: Repository<DeductionGroup>,
    private readonly access: EmployeeAccessService,
    employeeRecords: EmployeesRepository,
    private readonly employees: EmployeesService,
    private readonly history: EmploymentHistoryWriter,
    private readonly clock: CompanyClock,
  ) {
    this.list = employeeRecords.recordList(payrollEmployees, 'p', PAYROLL_EMPLOYEE_SPEC, toPayrollEmployeeDto);
  }

  /**
   * The employee's salary: one amount per component, in its payroll currency's minor unit (2 when
   * not configured); with `asOf`, the salary in force that day from the employment history.
   */
  async salary(caller: AuthUser, employeeId: number, asOf?: string): Promise<SalaryItemDto[]> {
    await this.administered(caller, employeeId);
    if (asOf === undefined) return this.salaryOf(employeeId);
    const segment = await this.history.segmentOn(employeeId, asOf);
    if (!segment) throw new DomainException('NOT_FOUND', `Employee ${employeeId} had not joined by ${asOf}`);
    return this.salaryOf(employeeId, JSON.parse(segment.salary) as SalaryLine[]);
  }

  /**
   * Replaces the employee's salary with `items` (one per component; components must exist): a
   * change effective today in its history, or from its joined date for its first salary.
   */
  async setSalary(caller: AuthUser, employeeId: number, dto: PutSalaryDto): Promise<SalaryItemDto[]> {
    await this.administered(caller, employeeId);
    const problem = await this.checkLines(dto.items);
    if (problem) throw ValidationException.field('items', problem);
    const joined = (await this.access.employee(employeeId))?.joinedDate ?? '';
    const today = await this.clock.today();
    // Replaces the employee's set: its row lock orders writers of the same salary, and no gap
    // lock is taken where other employees' salaries go (SET_REPLACEMENT).
    await withEmployeeLock(
      this.dataSource,
      employeeId,
      async (em) => {
        // An employee's first salary is its salary from the day it joined (setting one up is not
        // a raise: past payrolls pay it); a later one is a change effective today.
        const { changes, hasSalary } = await this.history.salaryHistory(em, employeeId);
        const effectiveDate = !hasSalary || joined > today ? joined : today;
        await this.writeSalary(em, employeeId, dto.items);
        await this.history.recordIn(em, employeeId, { effectiveDate, reason: null, fields: {}, salary: dto.items }, caller.id, {
          applied: 'salary',
          existing: changes,
        });
      },
      SET_REPLACEMENT,
    );
    return this.salaryOf(employeeId);
  }

  /** The employment history's salary keeper: payroll checks components and writes today's amounts. */
  onModuleInit(): void {
    this.history.keepSalaries({
      check: (lines) => this.checkLines(lines),
      apply: (em, employeeId, lines) => this.writeSalary(em, employeeId, lines),
    });
  }

  private async checkLines(lines: ReadonlyArray<{ component: number }>): Promise<string | null> {
    const ids = lines.map((i) => i.component);
    if (new Set(ids).size !== ids.length) return 'names a component twice';
    if (ids.length && (await this.components.count({ where: { id: In(ids) } })) !== ids.length)
      return 'names a salary component that does not exist';
    return null;
  }

  /** Makes `lines` the employee's salary of today with `em`, audited per component. */
  private async writeSalary(em: EntityManager, employeeId: number, lines: SalaryLine[]): Promise<void> {
    const before = await em.find(EmployeeSalary, { where: { employeeId } });
    await em.delete(EmployeeSalary, { employeeId });
    if (lines.length)
      await em.insert(
        EmployeeSalary,
        lines.map((i) => ({ employeeId, componentId: i.component, amount: i.amount })),
      );
    // One field per component ("component 3"), amounts as decimal strings: before and after.
    const view = (items: Array<{ componentId: number; amount: string }>) =>
      Object.fromEntries(items.map((i) => [`component ${i.componentId}`, new Decimal(i.amount).toFixed()]));
    await recordAudit(em, {
      action: 'update',
      resource: SALARIES,
      resourceId: employeeId,
      employee: employeeId,
      before: view(before),
      after: view(lines.map((i) => ({ componentId: i.component, amount: i.amount }))),
    });
  }

  /** Creates a payroll employee, or with `id` updates that one; one per employee (409 DUPLICATE). */
  async save(caller: AuthUser, dto: SavePayrollEmployeeDto): Promise<PayrollEmployeeDto> {
    await this.administered(caller, dto.employee);
    let record: PayrollEmployee;
    if (dto.id !== undefined) {
      const existing = await this.payrollEmployees.findOne({ where: { id: dto.id } });
      if (!existing || !(await this.access.administersId(caller, existing.employeeId)))
        throw new NotFoundException('Payroll employee');
      if (existing.employeeId !== dto.employee)
        throw ValidationException.field('employee', 'cannot be changed; delete and create instead');
      record = existing;
    } else {
      record = this.payrollEmployees.create({ employeeId: dto.employee });
    }
    if (!(await this.frequencies.exists({ where: { id: dto.pay_frequency } }))) {
      throw ValidationException.field('pay_frequency', 'must be an id from /payroll_config/pay-frequencies');
    }
    if (dto.deduction_group != null && !(await this.groups.exists({ where: { id: dto.deduction_group } }))) {
      throw ValidationException.field('deduction_group', 'does not exist');
    }
    const before = record.id ? toPayrollEmployeeDto(record) : null;
    record.payFrequencyId = dto.pay_frequency;
    record.currency = dto.currency;
    if (dto.deduction_group !== undefined || record.deductionGroupId === undefined)
      record.deductionGroupId = dto.deduction_group ?? null;
    try {
      return await transaction(this.dataSource, async (em) => {
        const view = toPayrollEmployeeDto(await em.getRepository(PayrollEmployee).save(record));
        await recordAudit(em, {
          action: before ? 'update' : 'create',
          resource: 'payroll_config/payroll-employees',
          event: 'payroll_employee.changed',
          resourceId: view.id,
          employee: record.employeeId,
          before,
          after: view,
        });
        return view;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw this.duplicate(dto.employee);
      throw err;
    }
  }

  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const existing = await this.payrollEmployees.findOne({ where: { id } });
    if (!existing || !(await this.access.administersId(caller, existing.employeeId)))
      throw new NotFoundException('Payroll employee');
    await transaction(this.dataSource, async (em) => {
      await em.delete(PayrollEmployee, { id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'payroll_config/payroll-employees',
        event: 'payroll_employee.changed',
        resourceId: id,
        employee: existing.employeeId,
        before: toPayrollEmployeeDto(existing),
      });
    });
    return { id };
  }

  /** The employee's payroll currency; null without a payroll record (what another module's amounts of the employee are kept in). */
  async currencyOf(employeeId: number): Promise<string | null> {
    const record = await this.payrollEmployees.findOne({ where: { employeeId }, select: { id: true, currency: true } });
    return record?.currency ?? null;
  }

  /** GET /payroll_config/employees: the employees list of the caller's scope, each with its payroll record (one extra query per page). */
  async withStatus(caller: AuthUser, query: SearchableListQueryDto): Promise<Page<PayrollStatusEmployeeDto>> {
    const page = await this.employees.list(caller, query);
    const ids = page.items.map((e) => e.id);
    const records = ids.length ? await this.payrollEmployees.find({ where: { employeeId: In(ids) } }) : [];
    const byEmployee = new Map(records.map((r) => [r.employeeId, r]));
    return page.map((e) => {
      const p = byEmployee.get(e.id);
      return {
        id: e.id,
        employee_id: e.employee_id,
        first_name: e.first_name,
        last_name: e.last_name,
        department: e.department,
        configured: !!p,
        payroll_employee: p?.id ?? null,
        pay_frequency: p?.payFrequencyId ?? null,
        currency: p?.currency ?? null,
        deduction_group: p?.deductionGroupId ?? null,
      };
    });
  }

  /** Today's salary, or `lines` (a day's from the history), in the payroll currency's minor unit. */
  private async salaryOf(employeeId: number, lines?: SalaryLine[]): Promise<SalaryItemDto[]> {
    const record = await this.payrollEmployees.findOne({ where: { employeeId }, select: { id: true, currency: true } });
    const places = record ? minorUnitOf(record.currency) : 2;
    const rows =
      lines?.map((l) => ({ componentId: l.component, amount: l.amount })) ??
      (await this.salaries.find({ where: { employeeId }, order: { componentId: 'ASC' } }));
    return rows.map((r) => ({ component: r.componentId, amount: new Decimal(r.amount).toFixed(places, Decimal.ROUND_HALF_UP) }));
  }

  /** 404 unless the caller sees the employee and administers it (Admin, or Restricted Admin in scope). */
  private async administered(caller: AuthUser, employeeId: number): Promise<void> {
    if (!(await this.access.administersId(caller, employeeId))) throw new NotFoundException('Employee');
  }

  private duplicate(employeeId: number): DomainException {
    return new DomainException(
      'DUPLICATE',
      `Employee ${employeeId} already has a payroll employee record; send its id to update it`,
      [{ field: 'employee', message: 'already configured' }],
    );
  }
}
