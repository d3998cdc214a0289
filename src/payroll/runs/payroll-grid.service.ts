import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsSelect, In, Repository } from 'typeorm';
import { RecentResults } from '../../common/cache/recent-results';
import { minorUnitOf } from '../../common/money/currencies';
import { DECIMAL_TEXT_COLUMN, toFixedText } from '../../common/money/money';
import { PageQueryDto } from '../../common/paging/list-query.dto';
import { pageOf } from '../../common/paging/list-request';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { EmployeeName, EmployeesRepository } from '../../employees/core/employees.repository';
import { PayrollDataDto, PayrollEmployeeRowDto } from '../dto/payroll-run.dto';
import { PayrollColumn, PayrollEmployee } from '../entities/payroll-config.entities';
import { Payroll } from '../entities/payroll-run.entities';
import { PayrollRunsRepository, RowScope } from './payroll-runs.repository';

/** Names in the order String#localeCompare gives them, through one collator (10 000 names sort in 12 ms against 20). */
export const BY_NAME = new Intl.Collator().compare;
/** A grid row's employee; one deleted since the run is "Employee <id>". */
export function rowEmployee(names: Map<number, EmployeeName>, id: number): EmployeeName {
  return names.get(id) ?? { id, employee_id: '', name: `Employee ${id}` };
}

/** A payroll employee of a payroll's selection, with its employee's name. */
export function selectionRow(names: Map<number, EmployeeName>, p: PayrollEmployee): PayrollEmployeeRowDto {
  return { ...rowEmployee(names, p.employeeId), payroll_employee: p.id, currency: p.currency };
}

/**
 * The data grid's read model (issue 26): what GET .../data shows a caller and what the payslip job
 * renders, from the same code. Access is the caller's business: the runs service checks the
 * payroll and passes the caller's employee scope; the job passes none (every row).
 */
@Injectable()
export class PayrollGridService {
  /** The row order per run (see page()). */
  private readonly rows: RecentResults<number[]>;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(PayrollColumn) private readonly columns: Repository<PayrollColumn>,
    @InjectRepository(PayrollEmployee) private readonly payrollEmployees: Repository<PayrollEmployee>,
    private readonly employees: EmployeesRepository,
    private readonly repository: PayrollRunsRepository,
  ) {
    this.rows = new RecentResults(config.listTotalsCacheMs, 20);
  }

  /**
   * A page of a payroll's grid: columns in colorder, rows by employee name. `scope` restricts the
   * rows to a Restricted Admin's employees; null: every row (an Admin, or the payslip job). The order of a run's rows
   * (its employees, sorted by name: a DISTINCT over every cell and every name, 160-300 ms at
   * 12 500 employees × 30 columns on MariaDB) is reused for LIST_TOTALS_CACHE_MS by the requests
   * that page it. The key holds the run's claim, status and processing time, so a new run's rows
   * (written under a new claim, then a new status) are never served from an older one's; edits
   * change values, never the rows. Names and cells are read for each page, so a renamed employee
   * shows its new name at once and its new place within the time to live.
   */
  async page(payroll: Payroll, query: PageQueryDto, scope: RowScope): Promise<PayrollDataDto> {
    const id = payroll.id;
    // A Restricted Admin's rows follow where its employees are now: read each time, not reused
    // (an employee moved out of its departments must leave the grid at once, its total too).
    const key = `${id}:${payroll.claim ?? ''}:${payroll.status}:${payroll.processedAt?.getTime() ?? ''}`;
    const ordered = scope ? await this.rowOrder(id, scope) : await this.rows.get(key, () => this.rowOrder(id, null));
    const rowPage = pageOf(ordered, query); // rows are by employee name (descend: reversed)
    return {
      ...(await this.rowsOf(payroll, rowPage.items)),
      total: rowPage.total,
      page: rowPage.page,
      limit: rowPage.limit,
      nextPage: rowPage.nextPage,
    };
  }

  /** The grid's rows of these employees, in this order (a payslip chunk's), with the payroll's columns. */
  async rowsOf(payroll: Payroll, employeeIds: number[]): Promise<Pick<PayrollDataDto, 'columns' | 'rows'>> {
    const columns = await this.columnsOf(payroll);
    const names = await this.employees.namesOf(employeeIds);
    const cells = await this.repository.cellValues(payroll.id, employeeIds);
    const currencies = await this.currenciesOf(employeeIds);
    const digits = new Map(employeeIds.map((e) => [e, minorUnitOf(currencies.get(e) ?? '')]));
    const byEmployee = new Map<number, Map<number, string | null>>();
    for (const [employee, col, value] of cells) {
      const text = DECIMAL_TEXT_COLUMN.from(value as string | number | null);
      let values = byEmployee.get(employee);
      if (!values) byEmployee.set(employee, (values = new Map<number, string | null>()));
      values.set(col, text === null ? null : toFixedText(text, digits.get(employee) ?? 2));
    }
    return {
      columns: columns.map((c) => ({ id: c.id, name: c.name, editable: c.editable })),
      rows: employeeIds.map((id) => ({
        employee: rowEmployee(names, id),
        values: Object.fromEntries(columns.map((c) => [String(c.id), byEmployee.get(id)?.get(c.id) ?? null])),
      })),
    };
  }

  /** The employees with cells in the payroll that the caller may see, by name (then id). */
  private async rowOrder(id: number, scope: RowScope): Promise<number[]> {
    const employeeIds = await this.repository.cellEmployees(id, scope);
    const names = await this.employees.namesOf(employeeIds);
    return employeeIds
      .map((e) => rowEmployee(names, e))
      .sort((a, b) => BY_NAME(a.name, b.name) || a.id - b.id)
      .map((e) => e.id);
  }

  /** The payroll's columns in colorder. */
  columnsOf(payroll: Payroll): Promise<PayrollColumn[]> {
    return this.columns.find({ where: { id: In(payroll.columns) }, order: { colorder: 'ASC', id: 'ASC' } });
  }

  /** Each employee's payroll currency (its minor unit rounds its cells). */
  async currenciesOf(employeeIds: number[]): Promise<Map<number, string>> {
    const records = await this.payrollEmployeesOf(employeeIds, { employeeId: true, currency: true });
    return new Map([...records].map(([id, p]) => [id, p.currency]));
  }

  /** The employees' payroll records (at most one each), 1 000 ids a query; `select` narrows the columns read. */
  async payrollEmployeesOf(
    employeeIds: number[],
    select?: FindOptionsSelect<PayrollEmployee>,
  ): Promise<Map<number, PayrollEmployee>> {
    const out = new Map<number, PayrollEmployee>();
    for (let i = 0; i < employeeIds.length; i += 1000)
      for (const p of await this.payrollEmployees.find({ select, where: { employeeId: In(employeeIds.slice(i, i + 1000)) } }))
        out.set(p.employeeId, p);
    return out;
  }
}
