import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { InjectRepository } from '@nestjs/typeorm';
import { In, LessThan, Not, Repository } from 'typeorm';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { AuditService } from '../../audit/audit.service';
import { AuthUser } from '../../common/auth/auth-user';
import { RecentResults } from '../../common/cache/recent-results';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { Page } from '../../common/paging/page';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import {
  DiffCauseDto,
  PayrollDiffColumnDto,
  PayrollDiffFilterDto,
  PayrollDiffQueryDto,
  PayrollDiffRowDto,
} from '../dto/payroll-explain.dto';
import { SalaryComponent } from '../entities/payroll-config.entities';
import { Payroll } from '../entities/payroll-run.entities';
import { Dec } from '../formula/formula';
import { amountText } from '../config/payroll-columns';
import { DiffSide, diffRuns, EmploymentDates, employmentCause } from './payroll-diff';
import { DIFF_CAUSE_KINDS } from '../dto/payroll-explain.dto';
import { requireInputs } from '../runs/run-inputs';
import { BY_NAME } from '../runs/payroll-grid.service';
import { PayrollRunInputsRepository } from '../runs/payroll-run-inputs.repository';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PAYROLL_CELL_EDITS, PayrollRunsService } from '../runs/payroll-runs.service';
import { SALARIES } from '../config/payroll-employees.service';
import { diffAuthors } from './diff-authors';
import { diffPage, DiffTable, DiffTableBuilder, thousandthsText } from './diff-table';
import { PAYROLL_COLUMNS } from '../config/payroll-config.service';

/** Employees per chunk of a diff's computation: their cells and inputs of both runs held at once. */
const DIFF_CHUNK = 1000;

/** A diff of two runs as computed once: its rows, every employee's (scope applies per request). */
interface Computed {
  table: DiffTable;
}

/**
 * What changed between two runs of a payroll, and why (docs/api/decisions.md §18): every changed cell, each with
 * its causes, the salary, column and edit causes with who changed them and when (audit log).
 * Computed from both runs' stored cells and inputs, once per pair of run revisions, then paged,
 * filtered and summed from memory. Scope as the grid's.
 */
@Injectable()
export class PayrollDiffService {
  /**
   * Within DIFF_CACHE_BYTES (default 128 MiB) by what they hold (DiffTable.bytes), the oldest
   * dropped first: the worst diff of two 12 500 × 30 runs holds 5-10 MiB (bench:payroll-explain).
   */
  private readonly computed: RecentResults<Computed>;
  /** Employees per chunk of a computation (DIFF_CHUNK; the tests make it small). */
  employeesPerChunk = DIFF_CHUNK;
  /** Computations running, by pair of run revisions: one per pair, whether or not the cache still holds it. */
  private readonly running = new Map<string, Promise<Computed>>();

  constructor(
    private readonly runs: PayrollRunsService,
    private readonly repository: PayrollRunsRepository,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly employees: EmployeesRepository,
    private readonly facts: EmployeeFactsService,
    private readonly audit: AuditService,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    @InjectRepository(SalaryComponent) private readonly components: Repository<SalaryComponent>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.computed = new RecentResults<Computed>(5 * 60_000, 100, (c) => c.table.bytes, config.diff.cacheBytes);
  }

  /** What the kept diffs hold, in bytes (DiffTable.bytes; bench:payroll-explain prints it). */
  cachedBytes(): number {
    return this.computed.held;
  }

  async diff(caller: AuthUser, id: number, query: PayrollDiffQueryDto): Promise<Page<PayrollDiffRowDto>> {
    const { table, selected } = await this.rows(caller, id, query);
    return diffPage(table, selected, query);
  }

  /**
   * The changed cells per column, their causes and the sum of their differences. Summed in
   * integer thousandths read from the table's bytes (issue 49: a decimal object and a string per
   * cell had been the summary's allocations), through decimal.js past 2^53 thousandths or for a
   * difference that is not a plain decimal of at most 3 places.
   */
  async summary(caller: AuthUser, id: number, query: PayrollDiffFilterDto): Promise<PayrollDiffColumnDto[]> {
    type Sum = PayrollDiffColumnDto & { thousandths: number; exact: Dec | null };
    const byColumn = new Map<number, Sum>();
    const { table, selected } = await this.rows(caller, id, query);
    for (const i of selected) {
      const column = table.column(i);
      let s = byColumn.get(column);
      if (!s) {
        const causes = Object.fromEntries(DIFF_CAUSE_KINDS.map((k) => [k, 0])) as unknown as PayrollDiffColumnDto['causes'];
        byColumn.set(
          column,
          (s = { column, name: table.columnName(column), changed: 0, total_difference: '', causes, thousandths: 0, exact: null }),
        );
      }
      s.changed++;
      const t = table.differenceThousandths(i);
      if (t !== null && Number.isNaN(t)) s.exact = (s.exact ?? new Dec(0)).plus(table.difference(i) as string);
      else if (t !== null) s.thousandths += t;
      // Well before 2^53: carried into the decimal, so that no sum of integers rounds.
      if (Math.abs(s.thousandths) > 2 ** 52) {
        s.exact = (s.exact ?? new Dec(0)).plus(new Dec(s.thousandths).div(1000));
        s.thousandths = 0;
      }
      const bits = table.causeBits(i);
      for (let k = 0; k < DIFF_CAUSE_KINDS.length; k++) if (bits & (1 << k)) s.causes[DIFF_CAUSE_KINDS[k]]++;
    }
    return [...byColumn.values()].map(({ thousandths, exact, ...s }) => ({
      ...s,
      total_difference: amountText(exact ? exact.plus(new Dec(thousandths).div(1000)).toString() : thousandthsText(thousandths)),
    }));
  }

  /**
   * One computation per pair at a time (a pair the cache dropped while it ran is not computed
   * twice), and at most DIFF_MAX_CONCURRENT of them in the process: past it, 429 with Retry-After
   * (issue 41: twelve pairs at once took the API from 952 to 1 604 MiB).
   */
  private computeOnce(key: string, older: Payroll, newer: Payroll): Promise<Computed> {
    const already = this.running.get(key);
    if (already) return already;
    if (this.running.size >= this.config.diff.maxConcurrent)
      throw new DomainException(
        'RATE_LIMITED',
        `${this.running.size} payroll diffs are being computed; ask again in a few seconds`,
        undefined,
        { 'Retry-After': '5' },
      );
    const computing = this.compute(older, newer).finally(() => this.running.delete(key));
    this.running.set(key, computing);
    return computing;
  }

  /** The diff, and the caller's rows of it filtered as the query asks. */
  private async rows(
    caller: AuthUser,
    id: number,
    query: PayrollDiffFilterDto,
  ): Promise<{ table: DiffTable; selected: number[] }> {
    const newer = await this.runs.visible(caller, id);
    const older = query.against ? await this.runs.visible(caller, query.against) : await this.previous(newer);
    for (const p of [newer, older]) requireInputs(p);
    const key = `${newer.id}:${newer.revision}:${older.id}:${older.revision}`;
    const { table } = await this.computed.get(key, () => this.computeOnce(key, older, newer));
    const scope = await this.runs.rowScope(caller);
    const visible = scope
      ? new Set([
          ...(await this.repository.cellEmployees(newer.id, scope)),
          ...(await this.repository.cellEmployees(older.id, scope)),
        ])
      : null;
    return { table, selected: table.select({ visible, employee: query.employee, column: query.column, cause: query.cause }) };
  }

  /** The previous Processed or Completed run of the same pay frequency and department. */
  private async previous(p: Payroll): Promise<Payroll> {
    const found = await this.payrolls.findOne({
      where: {
        id: Not(p.id),
        payPeriod: p.payPeriod,
        departmentId: p.departmentId,
        status: In(['Processed', 'Completed']),
        dateStart: LessThan(p.dateStart),
      },
      order: { dateStart: 'DESC', id: 'DESC' },
    });
    if (!found) throw new NotFoundException('A previous payroll to compare against');
    return found;
  }

  /** A run's cells, inputs and columns as stored (409 without them). */
  async side(p: Payroll): Promise<DiffSide> {
    return this.sideOf(p, await this.columnsOf(p));
  }

  private async columnsOf(p: Payroll): Promise<DiffSide['columns']> {
    return (await this.storedInputs.columnSet(requireInputs(p).columnSetId)) ?? [];
  }

  /** side() with the run's columns read already; of these employees only, when given. */
  private async sideOf(p: Payroll, columns: DiffSide['columns'], employeeIds?: number[]): Promise<DiffSide> {
    const { inputsRevision } = requireInputs(p);
    const [inputs, cells] = await Promise.all([
      this.storedInputs.inputsOf(p.id, inputsRevision, employeeIds),
      employeeIds ? this.storedInputs.cellsOfEmployees(p.id, employeeIds) : this.storedInputs.allCells(p.id),
    ]);
    return { columns, inputs, cells, tables: p.tableVersions ?? [], period: { from: p.dateStart, to: p.dateEnd } };
  }

  /**
   * The diff of two stored runs, DIFF_CHUNK employees at a time (in the table's order): each
   * chunk's cells and inputs of both runs are read, diffed into the table and let go, so the API
   * never holds two whole runs (issue 49: 240 MiB of RSS for two 12 500 × 30 runs), columns read once.
   */
  private async compute(older: Payroll, newer: Payroll): Promise<Computed> {
    const [{ order, names }, olderColumns, newerColumns] = await Promise.all([
      this.storedInputs.cellEmployees([older.id, newer.id]).then((ids) => this.ordered(ids)),
      this.columnsOf(older),
      this.columnsOf(newer),
    ]);
    const table = DiffTable.builder(1024);
    const authors = diffAuthors(this.audit, older, newer);
    let columnNames = new Map<number, string>();
    for (let i = 0; i < order.length; i += this.employeesPerChunk) {
      const chunk = order.slice(i, i + this.employeesPerChunk);
      const [a, b] = await Promise.all([this.sideOf(older, olderColumns, chunk), this.sideOf(newer, newerColumns, chunk)]);
      columnNames = await this.addRows(table, a, b, chunk, { older, newer }, authors);
    }
    return { table: table.build(names, columnNames) };
  }

  /** The employees in the table's order (by name, then id) and their names. */
  private async ordered(employeeIds: number[]): Promise<{ order: number[]; names: Map<number, string> }> {
    const found = await this.employees.namesOf(employeeIds);
    const names = new Map(employeeIds.map((e) => [e, found.get(e)?.name ?? `#${e}`]));
    const nameOf = (e: number) => names.get(e) as string;
    return { order: [...employeeIds].sort((x, y) => BY_NAME(nameOf(x), nameOf(y)) || x - y), names };
  }

  /**
   * The named rows of the diff of two sides; with `runs`, the salary, column and edit causes name
   * who changed them between the runs (a preview's proposed change has no one yet).
   */
  async rowsOf(a: DiffSide, b: DiffSide, runs: { older: Payroll; newer: Payroll } | null): Promise<DiffTable> {
    const { order, names } = await this.ordered([...new Set([...b.cells.keys(), ...a.cells.keys()])]);
    const table = DiffTable.builder(1024);
    return table.build(names, await this.addRows(table, a, b, order, runs));
  }

  /** Adds the diff of two sides over `order`'s employees to the table, causes named; returns the column names. */
  private async addRows(
    table: DiffTableBuilder,
    a: DiffSide,
    b: DiffSide,
    order: number[],
    runs: { older: Payroll; newer: Payroll } | null,
    authors = runs && diffAuthors(this.audit, runs.older, runs.newer),
  ): Promise<Map<number, string>> {
    const diff = await diffRuns(a, b, order);
    const columnNames = new Map([...a.columns, ...b.columns].map((c) => [c.id, c.name]));
    const componentIds = new Set<number>();
    for (const r of diff) for (const c of r.causes) if (c.kind === 'salary') componentIds.add(c.component);
    const componentNames = new Map(
      componentIds.size
        ? (await this.components.find({ where: { id: In([...componentIds]) }, select: { id: true, name: true } })).map((c) => [
            c.id,
            c.name,
          ])
        : [],
    );
    const who = authors ? await authors(diff) : { of: () => ({ changed_by: null, changed_at: null }) };
    const employment = await this.facts.employmentChanges(
      diff.flatMap((r) => r.causes.flatMap((c) => (c.kind === 'salary' ? c.changes : []))),
    );
    const moved = diff.filter((r) => r.causes.some((c) => c.kind === 'joined' || c.kind === 'left')).map((r) => r.employee);
    const dates = moved.length ? await this.employees.employmentDatesOf([...new Set(moved)]) : new Map<number, EmploymentDates>();
    for (const r of diff) {
      const causes = r.causes.map((c): DiffCauseDto => {
        switch (c.kind) {
          case 'salary':
            return {
              ...c,
              name: componentNames.get(c.component) ?? '',
              ...who.of(SALARIES, r.employee, `component ${c.component}`),
              changes: c.changes.flatMap((id) => employment.get(id) ?? []),
            };
          case 'column':
            return { ...c, name: columnNames.get(c.column) ?? '', ...who.of(PAYROLL_COLUMNS, c.column, null) };
          case 'edit':
            return {
              ...c,
              name: columnNames.get(c.column) ?? '',
              ...who.of(PAYROLL_CELL_EDITS, 0, `employee ${r.employee} column ${c.column}`),
            };
          case 'input':
            return 'field' in c ? { ...c, name: `employee.${c.field}` } : { ...c, name: columnNames.get(c.column) ?? '' };
          case 'joined':
          case 'left':
            return employmentCause(c.kind, dates.get(r.employee), runs);
          case 'rounding':
          case 'table':
          case 'calendar':
            return { ...c };
        }
      });
      table.add(r.employee, r.column, [r.old, r.new, r.difference], causes);
    }
    return columnNames;
  }
}
