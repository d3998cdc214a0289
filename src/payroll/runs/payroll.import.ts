import { Injectable } from '@nestjs/common';
import { declareImportKind } from '../../common/import/import-kinds.constants';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { DomainException } from '../../common/errors/domain.exception';
import { ImportColumn, ImportKinds, ImportRun, ImportSession, RowDetail } from '../../common/import/import-kind';
import { idsByName, rowByRow } from '../../common/import/row-by-row';
import { createValidationPipe } from '../../common/validation/validation-pipe';
import { IsCalendarDate, IsRefId } from '../../common/validation/decorators';
import { EmploymentHistoryService } from '../../employees/history/employment-history.service';
import { IsOptional } from 'class-validator';
import { EmployeeLookup, EmployeeRowsKind } from '../../employees/core/employee-lookup';
import { CellEditDto } from '../dto/payroll-run.dto';
import { SalaryItemInputDto, SavePayrollEmployeeDto } from '../dto/payroll-config.dto';
import { DeductionGroup, PayFrequency, PayrollEmployee, SalaryComponent } from '../entities/payroll-config.entities';
import { PayrollEmployeesService } from '../config/payroll-employees.service';
import { PayrollRunsService } from './payroll-runs.service';

/** Declared when this file loads (common/import/import-kinds.constants.ts). */
const SALARIES_IMPORT = declareImportKind('salaries');
const PAYROLL_EMPLOYEES_IMPORT = declareImportKind('payroll-employees');
const PAYROLL_DATA_IMPORT = declareImportKind('payroll-data');

const EMPLOYEE: ImportColumn = {
  field: 'employee',
  label: 'Employee ID',
  type: 'text',
  example: 'E0042',
  required: true,
  note: 'employee_id (or id)',
};

export const SALARY_COLUMNS: readonly ImportColumn[] = [
  EMPLOYEE,
  {
    field: 'component',
    label: 'Salary component',
    type: 'reference',
    example: 'Basic salary',
    required: true,
    note: 'by name or id',
  },
  { field: 'amount', label: 'Amount', type: 'text', example: '5000.00', required: true },
  {
    field: 'effective_date',
    label: 'Effective date',
    type: 'date',
    example: null,
    note: 'the day the amount applies from (a dated change); empty: today',
  },
];

export const PAYROLL_EMPLOYEE_COLUMNS: readonly ImportColumn[] = [
  EMPLOYEE,
  {
    field: 'pay_frequency',
    label: 'Pay frequency',
    type: 'reference',
    example: 'Monthly',
    required: true,
    note: 'by name or id',
  },
  { field: 'currency', label: 'Currency', type: 'text', example: 'EUR', required: true },
  { field: 'deduction_group', label: 'Deduction group', type: 'reference', example: null, note: 'by name or id' },
];

export const PAYROLL_DATA_COLUMNS: readonly ImportColumn[] = [
  EMPLOYEE,
  {
    field: 'column',
    label: 'Column',
    type: 'reference',
    example: 'Bonus',
    required: true,
    note: 'an editable column, by name or id',
  },
  { field: 'amount', label: 'Amount', type: 'text', example: '250.00', required: true },
];

/**
 * `salaries`: one salary component's amount per row, set on the employee's salary (the other
 * components stay), through PUT /employees/{id}/salary's own rules.
 */
@Injectable()
export class SalariesImport extends EmployeeRowsKind {
  readonly kind = SALARIES_IMPORT;
  readonly columns = SALARY_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly payrollEmployees: PayrollEmployeesService,
    private readonly history: EmploymentHistoryService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const components = idsByName(await this.ds.getRepository(SalaryComponent).find({ select: { id: true, name: true } }));
    return {
      batch: async (em, rows) => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, SALARY_COLUMNS, { component: components }, problems);
        problems.push(
          ...(await rowByRow(
            em,
            rows,
            SalaryItemWithEmployee,
            (row) => bodies.get(row) ?? null,
            async (item) => {
              // The salary in force on the row's day, with this component's amount: a change from that day.
              const day = item.effective_date;
              const current = await this.payrollEmployees.salary(run.caller, item.employee, day);
              const items = current.filter((i) => i.component !== item.component);
              items.push({ component: item.component, amount: item.amount });
              if (day === undefined) await this.payrollEmployees.setSalary(run.caller, item.employee, { items });
              else await this.history.record(run.caller, item.employee, { effective_date: day, salary: items });
            },
          )),
        );
        return problems;
      },
    };
  }
}

/** A salary row: the employee (whose existence and scope the salary service checks) and one item. */
class SalaryItemWithEmployee extends SalaryItemInputDto {
  @IsRefId() employee: number;
  @IsOptional() @IsCalendarDate() effective_date?: string;
}

/**
 * `payroll-employees`: the employee's payroll settings (pay frequency, currency, deduction group),
 * created or updated (one per employee), through POST /payroll_config/payroll-employees' rules.
 */
@Injectable()
export class PayrollEmployeesImport extends EmployeeRowsKind {
  readonly kind = PAYROLL_EMPLOYEES_IMPORT;
  readonly columns = PAYROLL_EMPLOYEE_COLUMNS;

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly payrollEmployees: PayrollEmployeesService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const frequencies = idsByName(await this.ds.getRepository(PayFrequency).find());
    const groups = idsByName(await this.ds.getRepository(DeductionGroup).find({ select: { id: true, name: true } }));
    return {
      batch: async (em, rows) => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(
          em,
          rows,
          PAYROLL_EMPLOYEE_COLUMNS,
          { pay_frequency: frequencies, deduction_group: groups },
          problems,
        );
        const employees = [...bodies.values()].flatMap((b) => (b ? [b.employee as number] : []));
        const existing = new Map(
          (await em.getRepository(PayrollEmployee).find({ where: { employeeId: In(employees) } })).map((p) => [
            p.employeeId,
            p.id,
          ]),
        );
        problems.push(
          ...(await rowByRow(
            em,
            rows,
            SavePayrollEmployeeDto,
            (row) => {
              const body = bodies.get(row);
              const id = body && existing.get(body.employee as number);
              return body ? { ...body, ...(id ? { id } : {}) } : null;
            },
            async (dto) => {
              const saved = await this.payrollEmployees.save(run.caller, dto);
              existing.set(saved.employee, saved.id); // a later row of the same employee updates it
            },
          )),
        );
        return problems;
      },
    };
  }
}

/**
 * `payroll-data` (with `payroll`): values of editable cells of one payroll, as POST
 * /payroll_config/payrolls/{id}/data sets them; the rows' other cells are recomputed, once per
 * batch. A payroll the caller may not read, or one not Draft or Processed, fails the import.
 */
@Injectable()
export class PayrollDataImport extends EmployeeRowsKind {
  readonly kind = PAYROLL_DATA_IMPORT;
  readonly columns = PAYROLL_DATA_COLUMNS;
  readonly needsPayroll = true;
  private readonly pipe = createValidationPipe();

  constructor(
    kinds: ImportKinds,
    lookup: EmployeeLookup,
    private readonly runs: PayrollRunsService,
  ) {
    super(kinds, lookup);
  }

  async start(run: ImportRun): Promise<ImportSession> {
    const payroll = run.payroll!;
    const columns = idsByName(await this.runs.columnsOf(run.caller, payroll));
    return {
      batch: async (em, rows) => {
        const problems: RowDetail[] = [];
        const bodies = await this.bodies(em, rows, PAYROLL_DATA_COLUMNS, { column: columns }, problems);
        const edits: Array<{ row: number; edit: CellEditDto }> = [];
        for (const row of rows) {
          const body = bodies.get(row);
          if (!body) continue;
          try {
            edits.push({
              row: row.row,
              edit: (await this.pipe.transform(body, { type: 'body', metatype: CellEditDto })) as CellEditDto,
            });
          } catch (err) {
            if (!(err instanceof DomainException)) throw err;
            for (const d of err.details ?? []) problems.push({ row: row.row, ...d });
          }
        }
        if (edits.length) {
          const refused = await this.runs.editCells(
            run.caller,
            payroll,
            edits.map((e) => e.edit),
            true,
          );
          for (const p of refused) problems.push({ row: edits[p.index].row, field: p.field, message: p.message });
        }
        return problems;
      },
    };
  }
}
