import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { timeSlices } from '../../common/async/time-slices';
import { transaction } from '../../common/database/transaction';
import { DomainException } from '../../common/errors/domain.exception';
import { externalSort } from '../../common/export/external-sort';
import { ExportColumn } from '../../common/export/sheet-writers';
import { minorUnitOf } from '../../common/money/currencies';
import { fromMinorUnits } from '../../common/money/money';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { ReferenceService } from '../../reference/reference.service';
import { Payroll } from '../entities/payroll-run.entities';
import { BY_NAME, PayrollGridService, rowEmployee } from '../runs/payroll-grid.service';
import { RowScope } from '../runs/payroll-runs.repository';
import { JournalDto } from './books.dto';
import { PayrollAccount } from './books.entities';
import { BookWindows } from './book-windows';
import { ColumnSums, DebitSplits, journalOf, journalTotals } from './journal';
import { addSplits, JournalSplits } from './journal-splits';
import { PayrollBooksAccess } from './payroll-books.access';

/** An employee's row of the register as it is sorted (on disk past a run: JSON, so amounts are minor units as text). */
interface RegisterRecord {
  department: string;
  name: string;
  id: number;
  employee_id: string;
  /** Decimals of the employee's currency. */
  digits: number;
  /** Per column of the payroll, in order: minor units, or null for no amount. */
  minor: Array<string | null>;
}

const REGISTER_ORDER = (a: RegisterRecord, b: RegisterRecord) =>
  BY_NAME(a.department, b.department) || BY_NAME(a.name, b.name) || a.id - b.id;

/**
 * The payroll's journal and register (issue 46, docs/api/decisions.md §22), for a Completed payroll, scoped as its
 * grid is (a Restricted Admin: the employees of its departments). Amounts are the grid's (each cell
 * rounded to its employee's currency), summed exactly in minor units; an employee's department is
 * the one of the payroll's last day. Both read the payroll a window of employees at a time
 * (BookWindows, issue 70): the journal sums the windows, the register sorts them in bounded memory.
 */
@Injectable()
export class PayrollBooksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayrollAccount) private readonly accounts: Repository<PayrollAccount>,
    private readonly access: PayrollBooksAccess,
    private readonly windows: BookWindows,
    private readonly grid: PayrollGridService,
    private readonly facts: EmployeeFactsService,
    private readonly reference: ReferenceService,
    private readonly splits: JournalSplits,
  ) {}

  async journal(caller: AuthUser, id: number): Promise<JournalDto> {
    const payroll = await this.access.completed(caller, id);
    const scope = await this.access.rowScope(caller);
    const columns = await this.columnsOf(payroll);
    const postings = new Map(
      (await this.accounts.find({ where: { columnId: In(columns.map((c) => c.id)) } })).map((a) => [
        a.columnId,
        { debit: a.debitAccount, credit: a.creditAccount, costCentre: a.costCentre },
      ]),
    );
    const byDepartment = (column: number) => postings.get(column)?.costCentre === 'department';
    const sums = new Map<number, ColumnSums>(columns.map((c) => [c.id, new Map()]));
    const splits: DebitSplits = new Map();
    const departments = new Set<number>();
    const slices = timeSlices();
    for await (const w of this.windows.of(payroll, scope, { departments: columns.some((c) => byDepartment(c.id)) })) {
      for (const column of columns) {
        if (slices.due()) await slices.pause();
        const byCentre = sums.get(column.id)!;
        const split = byDepartment(column.id);
        for (const e of w.employees) {
          const minor = w.cells.get(e)?.get(column.id);
          if (minor === undefined) continue;
          const currency = w.currency.get(e) ?? '';
          const department = split ? (w.department.get(e) ?? null) : null;
          const key = `${department ?? ''}:${currency}`;
          const sum = byCentre.get(key);
          if (sum) sum.minor += minor;
          else byCentre.set(key, { department, currency, digits: minorUnitOf(currency), minor });
        }
      }
      // Columns whose records name their debit accounts (a record's category), keyed as the sums are.
      const part = await this.splits.of(
        payroll,
        w.employees,
        (column, e) => `${byDepartment(column) ? (w.department.get(e) ?? '') : ''}:${w.currency.get(e) ?? ''}`,
        (e) => w.currency.get(e) ?? '',
      );
      addSplits(splits, part);
      for (const d of w.department.values()) if (d !== null) departments.add(d);
    }
    const { lines, unmapped } = journalOf({
      payrollName: payroll.name,
      columns,
      postings,
      sums,
      departmentNames: await this.reference.namesOf('departments', [...departments]),
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

  /**
   * The grid by department (by name, then employees by name), each followed by its subtotal, then
   * the total: the sheet's columns, and its rows page by page as the client takes them.
   */
  async register(
    caller: AuthUser,
    id: number,
  ): Promise<{ columns: ExportColumn[]; rows: AsyncIterable<Array<Record<string, unknown>>> }> {
    const payroll = await this.access.completed(caller, id);
    const scope = await this.access.rowScope(caller);
    const columns = await this.columnsOf(payroll);
    const sheet: ExportColumn[] = [
      { field: 'row', kind: 'other' },
      { field: 'department', kind: 'other' },
      { field: 'employee_id', kind: 'other' },
      { field: 'name', kind: 'other' },
      ...columns.map((c) => ({ field: `column_${c.id}`, header: c.name, kind: 'amount' as const })),
    ];
    return { columns: sheet, rows: this.registerRows(payroll, scope, columns) };
  }

  private async *registerRows(
    payroll: Payroll,
    scope: RowScope,
    columns: Array<{ id: number; name: string }>,
  ): AsyncGenerator<Array<Record<string, unknown>>> {
    const read = { employees: 0, digits: 0 };
    // Runs of five windows sorted in memory (10 000 rows by default), merged from temporary files past one.
    const sorted = externalSort(this.registerRecords(payroll, scope, columns, read), REGISTER_ORDER, {
      runSize: 5 * this.windows.size,
    });
    const zeros = () => columns.map(() => 0n);
    const amounts = (sums: bigint[]) =>
      Object.fromEntries(columns.map((c, i) => [`column_${c.id}`, fromMinorUnits(sums[i], read.digits)]));
    const subtotalRow = (department: string, sums: bigint[]) => ({
      row: 'subtotal',
      department,
      employee_id: null,
      name: `Subtotal ${department}`.trim(),
      ...amounts(sums),
    });
    const total = zeros();
    let [subtotal, department, audited] = [zeros(), undefined as string | undefined, false];
    for await (const page of sorted) {
      // Every employee has been read once the first page is sorted.
      if (!audited) await this.audit(payroll.id, 'register', read.employees);
      audited = true;
      const out: Array<Record<string, unknown>> = [];
      for (const r of page) {
        if (department !== undefined && r.department !== department) {
          out.push(subtotalRow(department, subtotal));
          subtotal = zeros();
        }
        department = r.department;
        const values: Record<string, unknown> = {};
        for (const [i, c] of columns.entries()) {
          const minor = r.minor[i] === null ? null : BigInt(r.minor[i]);
          values[`column_${c.id}`] = minor === null ? null : fromMinorUnits(minor, r.digits);
          const scaled = (minor ?? 0n) * 10n ** BigInt(read.digits - r.digits);
          subtotal[i] += scaled;
          total[i] += scaled;
        }
        out.push({ row: 'employee', department: r.department, employee_id: r.employee_id, name: r.name, ...values });
      }
      yield out;
    }
    if (!audited) await this.audit(payroll.id, 'register', 0);
    const tail = department === undefined ? [] : [subtotalRow(department, subtotal)];
    yield [...tail, { row: 'total', department: null, employee_id: null, name: 'Total', ...amounts(total) }];
  }

  /** The register's rows unsorted, a window at a time; counts the employees and the most decimals of their currencies. */
  private async *registerRecords(
    payroll: Payroll,
    scope: RowScope,
    columns: Array<{ id: number; name: string }>,
    read: { employees: number; digits: number },
  ): AsyncGenerator<RegisterRecord[]> {
    const departmentNames = new Map<number, string>();
    for await (const w of this.windows.of(payroll, scope, { departments: true })) {
      const unnamed = [...new Set(w.department.values())].filter((d): d is number => d !== null && !departmentNames.has(d));
      for (const [d, name] of await this.reference.namesOf('departments', unnamed)) departmentNames.set(d, name);
      const names = await this.facts.namesOf(w.employees);
      yield w.employees.map((e) => {
        const d = w.department.get(e) ?? null;
        const digits = minorUnitOf(w.currency.get(e) ?? '');
        read.digits = Math.max(read.digits, digits);
        read.employees++;
        const cells = w.cells.get(e);
        return {
          ...rowEmployee(names, e),
          department: d === null ? '' : (departmentNames.get(d) ?? `Department ${d}`),
          digits,
          minor: columns.map((c) => cells?.get(c.id)?.toString() ?? null),
        };
      });
    }
  }

  private async columnsOf(payroll: Payroll): Promise<Array<{ id: number; name: string }>> {
    return (await this.grid.columnsOf(payroll)).map((c) => ({ id: c.id, name: c.name }));
  }

  private audit(id: number, what: 'journal' | 'register', rows: number): Promise<void> {
    return transaction(this.dataSource, (em) =>
      recordAudit(em, { action: 'export', resource: `payroll_config/payrolls/${what}`, resourceId: id, after: { rows } }),
    );
  }
}
