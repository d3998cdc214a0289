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
import { EmployeesRepository } from '../../employees/employees.repository';
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
import { DIFF_CAUSE_KINDS, DiffRow, DiffSide, diffRuns, EmploymentDates, employmentCause } from './payroll-diff';
import { requireInputs } from '../runs/run-inputs';
import { BY_NAME } from '../runs/payroll-grid.service';
import { PayrollRunInputsRepository } from '../runs/payroll-run-inputs.repository';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PAYROLL_CELL_EDITS, PayrollRunsService } from '../runs/payroll-runs.service';
import { SALARIES } from '../config/payroll-employees.service';
import { diffPage, DiffTable } from './diff-table';
import { PAYROLL_COLUMNS } from '../config/payroll-config.service';

/** A diff of two runs as computed once: its rows, every employee's (scope applies per request). */
interface Computed {
  table: DiffTable;
}

/**
 * What changed between two runs of a payroll, and why (API.md §18): every changed cell, each with
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

  async summary(caller: AuthUser, id: number, query: PayrollDiffFilterDto): Promise<PayrollDiffColumnDto[]> {
    const byColumn = new Map<number, PayrollDiffColumnDto & { sum: Dec }>();
    const { table, selected } = await this.rows(caller, id, query);
    for (const i of selected) {
      const column = table.column(i);
      let s = byColumn.get(column);
      if (!s) {
        const causes = Object.fromEntries(DIFF_CAUSE_KINDS.map((k) => [k, 0])) as unknown as PayrollDiffColumnDto['causes'];
        byColumn.set(
          column,
          (s = { column, name: table.columnName(column), changed: 0, total_difference: '', causes, sum: new Dec(0) }),
        );
      }
      s.changed++;
      const difference = table.difference(i);
      if (difference !== null) s.sum = s.sum.plus(difference);
      for (const kind of table.causeKinds(i)) s.causes[kind]++;
    }
    return [...byColumn.values()].map(({ sum, ...s }) => ({ ...s, total_difference: amountText(sum.toString()) }));
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
    const { columnSetId, inputsRevision } = requireInputs(p);
    const [columns, inputs, cells] = await Promise.all([
      this.storedInputs.columnSet(columnSetId),
      this.storedInputs.inputsOf(p.id, inputsRevision),
      this.storedInputs.allCells(p.id),
    ]);
    return { columns: columns ?? [], inputs, cells, tables: p.tableVersions ?? [] };
  }

  private async compute(older: Payroll, newer: Payroll): Promise<Computed> {
    const [a, b] = await Promise.all([this.side(older), this.side(newer)]);
    return { table: await this.rowsOf(a, b, { older, newer }) };
  }

  /**
   * The named rows of the diff of two sides; with `runs`, the salary, column and edit causes name
   * who changed them between the runs (a preview's proposed change has no one yet).
   */
  async rowsOf(a: DiffSide, b: DiffSide, runs: { older: Payroll; newer: Payroll } | null): Promise<DiffTable> {
    const employeeIds = [...new Set([...b.cells.keys(), ...a.cells.keys()])];
    const names = await this.employees.namesOf(employeeIds);
    const nameOf = (e: number) => names.get(e)?.name ?? `#${e}`;
    const order = employeeIds.sort((x, y) => BY_NAME(nameOf(x), nameOf(y)) || x - y);
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
    const who = runs ? await this.changes(runs.older, runs.newer, diff) : { of: () => ({ changed_by: null, changed_at: null }) };
    const employment = await this.facts.employmentChanges(
      diff.flatMap((r) => r.causes.flatMap((c) => (c.kind === 'salary' ? c.changes : []))),
    );
    const moved = diff.filter((r) => r.causes.some((c) => c.kind === 'joined' || c.kind === 'left')).map((r) => r.employee);
    const dates = moved.length ? await this.employees.employmentDatesOf([...new Set(moved)]) : new Map<number, EmploymentDates>();
    const table = DiffTable.builder(diff.length);
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
            return { ...c };
        }
      });
      table.add(r.employee, r.column, [r.old, r.new, r.difference], causes);
    }
    return table.build(new Map(order.map((e) => [e, nameOf(e)])), columnNames);
  }

  /**
   * Who made the changes the causes name: salary and column changes between the two runs'
   * processing, and the cells' edits of either run (newest first; null when none is recorded).
   */
  private async changes(older: Payroll, newer: Payroll, diff: DiffRow[]) {
    const times = [older.processedAt, newer.processedAt].map((t) => (t ?? new Date()).getTime());
    // processed_at has whole seconds on MariaDB: the second after the later one is in.
    const [from, to] = [new Date(Math.min(...times)), new Date(Math.max(...times) + 1000)];
    const salaryEmployees = new Set<string>();
    const columns = new Set<string>();
    let edits = false;
    for (const r of diff)
      for (const c of r.causes) {
        if (c.kind === 'salary') salaryEmployees.add(String(r.employee));
        if (c.kind === 'column') columns.add(String(c.column));
        if (c.kind === 'edit') edits = true;
      }
    type Entry = Awaited<ReturnType<AuditService['entriesOf']>>[number];
    const byRecord = (list: Entry[], key: (e: Entry) => string) => {
      const map = new Map<string, Entry[]>();
      for (const e of list) {
        const entries = map.get(key(e));
        if (entries)
          entries.push(e); // newest first, as listed
        else map.set(key(e), [e]);
      }
      return map;
    };
    const found = new Map<string, Map<string, Entry[]>>([
      [
        SALARIES,
        byRecord(
          salaryEmployees.size ? await this.audit.entriesOf(SALARIES, [...salaryEmployees], { from, to }) : [],
          (e) => e.resourceId,
        ),
      ],
      [
        PAYROLL_COLUMNS,
        byRecord(
          columns.size ? await this.audit.entriesOf(PAYROLL_COLUMNS, [...columns], { from, to }) : [],
          (e) => e.resourceId,
        ),
      ],
      // Edits are the runs' own: one list for both, keyed by nothing.
      [
        PAYROLL_CELL_EDITS,
        byRecord(edits ? await this.audit.entriesOf(PAYROLL_CELL_EDITS, [String(newer.id), String(older.id)]) : [], () => '0'),
      ],
    ]);
    return {
      /** The newest entry of the record naming `key` among its changes (any entry with a null key). */
      of(resource: string, resourceId: number, key: string | null): { changed_by: number | null; changed_at: string | null } {
        const e = found
          .get(resource)
          ?.get(String(resourceId))
          ?.find((x) => key === null || Object.hasOwn(x.changes, key));
        return { changed_by: e?.actorUserId ?? null, changed_at: e ? e.at.toISOString() : null };
      },
    };
  }
}
