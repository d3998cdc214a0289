import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { timeSlices } from '../../common/async/time-slices';
import { transaction } from '../../common/database/transaction';
import { DomainException } from '../../common/errors/domain.exception';
import { ExportColumn } from '../../common/export/sheet-writers';
import { minorUnitOf } from '../../common/money/currencies';
import { DECIMAL_TEXT_COLUMN, fromMinorUnits, toMinorUnits } from '../../common/money/money';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { ReferenceService } from '../../reference/reference.service';
import { Payroll } from '../entities/payroll-run.entities';
import { BY_NAME, PayrollGridService, rowEmployee } from '../runs/payroll-grid.service';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { JournalDto } from './books.dto';
import { PayrollAccount } from './books.entities';
import { BooksRepository } from './books.repository';
import { ColumnSums, journalOf, journalTotals } from './journal';
import { JournalSplits } from './journal-splits';
import { PayrollBooksAccess } from './payroll-books.access';

/** A payroll's cells as the books read them: the employees the caller may see, their currency, department and name. */
interface BookRows {
  payroll: Payroll;
  columns: Array<{ id: number; name: string }>;
  employees: number[];
  cells: Map<number, Map<number, bigint>>;
  currency: Map<number, string>;
  department: Map<number, number | null>;
  departmentNames: Map<number, string>;
}

/**
 * The payroll's journal and register (issue 46, docs/api/decisions.md §22), for a Completed payroll, scoped as its
 * grid is (a Restricted Admin: the employees of its departments). Amounts are the grid's (each cell
 * rounded to its employee's currency), summed exactly in minor units; an employee's department is
 * the one of the payroll's last day.
 */
@Injectable()
export class PayrollBooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayrollAccount) private readonly accounts: Repository<PayrollAccount>,
    private readonly access: PayrollBooksAccess,
    private readonly repository: BooksRepository,
    private readonly runs: PayrollRunsRepository,
    private readonly grid: PayrollGridService,
    private readonly facts: EmployeeFactsService,
    private readonly reference: ReferenceService,
    private readonly splits: JournalSplits,
  ) {}

  async journal(caller: AuthUser, id: number): Promise<JournalDto> {
    const rows = await this.rows(caller, id);
    const postings = new Map(
      (await this.accounts.find({ where: { columnId: In(rows.columns.map((c) => c.id)) } })).map((a) => [
        a.columnId,
        { debit: a.debitAccount, credit: a.creditAccount, costCentre: a.costCentre },
      ]),
    );
    const sums = new Map<number, ColumnSums>();
    const slices = timeSlices();
    for (const column of rows.columns) {
      if (slices.due()) await slices.pause();
      const byCentre: ColumnSums = new Map();
      const split = postings.get(column.id)?.costCentre === 'department';
      for (const e of rows.employees) {
        const minor = rows.cells.get(e)?.get(column.id);
        if (minor === undefined) continue;
        const currency = rows.currency.get(e) ?? '';
        const department = split ? (rows.department.get(e) ?? null) : null;
        const key = `${department ?? ''}:${currency}`;
        const sum = byCentre.get(key);
        if (sum) sum.minor += minor;
        else byCentre.set(key, { department, currency, digits: minorUnitOf(currency), minor });
      }
      sums.set(column.id, byCentre);
    }
    // Columns whose records name their debit accounts (a record's category), keyed as the sums are.
    const splits = await this.splits.of(
      rows.payroll,
      rows.employees,
      (column, e) =>
        `${postings.get(column)?.costCentre === 'department' ? (rows.department.get(e) ?? '') : ''}:${rows.currency.get(e) ?? ''}`,
      (e) => rows.currency.get(e) ?? '',
    );
    const { lines, unmapped } = journalOf({
      payrollName: rows.payroll.name,
      columns: rows.columns,
      postings,
      sums,
      departmentNames: rows.departmentNames,
      splits,
    });
    if (unmapped.length)
      throw new DomainException(
        'UNMAPPED_COLUMNS',
        `Columns with amounts have no accounts: ${unmapped.join(', ')} (map them at /payroll_config/accounts)`,
        unmapped.map((name) => ({ field: 'columns', message: `${name} has amounts and no accounts` })),
      );
    const totals = journalTotals(lines);
    await this.audit(id, 'journal', lines.length);
    return { payroll: id, lines, total_debit: totals.debit, total_credit: totals.credit };
  }

  /** The grid by department (by name, then employees by name), each followed by its subtotal, then the total. */
  async register(caller: AuthUser, id: number): Promise<{ columns: ExportColumn[]; rows: Array<Record<string, unknown>> }> {
    const rows = await this.rows(caller, id);
    const names = await this.facts.namesOf(rows.employees);
    const deptName = (e: number) => {
      const d = rows.department.get(e) ?? null;
      return d === null ? '' : (rows.departmentNames.get(d) ?? `Department ${d}`);
    };
    const ordered = rows.employees
      .map((e) => ({ ...rowEmployee(names, e), department: deptName(e) }))
      .sort((a, b) => BY_NAME(a.department, b.department) || BY_NAME(a.name, b.name) || a.id - b.id);
    const digits = Math.max(0, ...[...rows.currency.values()].map(minorUnitOf));
    const key = (c: number) => `column_${c}`;
    const amounts = (sums: Map<number, bigint>) =>
      Object.fromEntries(rows.columns.map((c) => [key(c.id), fromMinorUnits(sums.get(c.id) ?? 0n, digits)]));
    const out: Array<Record<string, unknown>> = [];
    const total = new Map<number, bigint>();
    let subtotal = new Map<number, bigint>();
    const slices = timeSlices();
    for (const [i, r] of ordered.entries()) {
      if (i % 100 === 0 && slices.due()) await slices.pause();
      const cells = rows.cells.get(r.id) ?? new Map<number, bigint>();
      const values: Record<string, unknown> = {};
      for (const c of rows.columns) {
        const minor = cells.get(c.id);
        const d = minorUnitOf(rows.currency.get(r.id) ?? '');
        values[key(c.id)] = minor === undefined ? null : fromMinorUnits(minor, d);
        const scaled = (minor ?? 0n) * 10n ** BigInt(digits - d);
        subtotal.set(c.id, (subtotal.get(c.id) ?? 0n) + scaled);
        total.set(c.id, (total.get(c.id) ?? 0n) + scaled);
      }
      out.push({ row: 'employee', department: r.department, employee_id: r.employee_id, name: r.name, ...values });
      if (ordered[i + 1]?.department !== r.department) {
        out.push({
          row: 'subtotal',
          department: r.department,
          employee_id: null,
          name: `Subtotal ${r.department}`.trim(),
          ...amounts(subtotal),
        });
        subtotal = new Map();
      }
    }
    out.push({ row: 'total', department: null, employee_id: null, name: 'Total', ...amounts(total) });
    const columns: ExportColumn[] = [
      { field: 'row', kind: 'other' },
      { field: 'department', kind: 'other' },
      { field: 'employee_id', kind: 'other' },
      { field: 'name', kind: 'other' },
      ...rows.columns.map((c) => ({ field: key(c.id), header: c.name, kind: 'amount' as const })),
    ];
    await this.audit(id, 'register', ordered.length);
    return { columns, rows: out };
  }

  private async rows(caller: AuthUser, id: number): Promise<BookRows> {
    const payroll = await this.access.completed(caller, id);
    const scope = await this.access.rowScope(caller);
    const columns = (await this.grid.columnsOf(payroll)).map((c) => ({ id: c.id, name: c.name }));
    const all = await this.repository.cells(id);
    // The rows are the cells' employees; a Restricted Admin's, those of its departments (one more
    // query only then: the cells are read once either way).
    const employees = (scope ? await this.runs.cellEmployees(id, scope) : [...new Set(all.map(([e]) => e))]).sort(
      (a, b) => a - b,
    );
    const [currency, department] = await Promise.all([
      this.grid.currenciesOf(employees),
      this.facts.departmentsOn(employees, payroll.dateEnd),
    ]);
    const visible = scope ? new Set(employees) : null;
    const cells = new Map<number, Map<number, bigint>>();
    // Hundreds of thousands of cells: the event loop runs other requests between slices.
    const slices = timeSlices();
    for (const [n, [e, c, value]] of all.entries()) {
      if (n % 1000 === 0 && slices.due()) await slices.pause();
      if (visible && !visible.has(e)) continue;
      // Rounded to the employee's currency as the grid shows it; an empty cell is no amount.
      const text = DECIMAL_TEXT_COLUMN.from(value as string | number | null);
      if (text === null) continue;
      const minor = toMinorUnits(text, minorUnitOf(currency.get(e) ?? ''));
      let row = cells.get(e);
      if (!row) cells.set(e, (row = new Map<number, bigint>()));
      row.set(c, minor);
    }
    const departmentIds = [...new Set([...department.values()].filter((d): d is number => d !== null))];
    const departmentNames = await this.reference.namesOf('departments', departmentIds);
    return { payroll, columns, employees, cells, currency, department, departmentNames };
  }

  private audit(id: number, what: 'journal' | 'register', rows: number): Promise<void> {
    return transaction(this.dataSource, (em) =>
      recordAudit(em, { action: 'export', resource: `payroll_config/payrolls/${what}`, resourceId: id, after: { rows } }),
    );
  }
}
