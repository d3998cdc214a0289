import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { pipelined } from '../../common/database/pipelined';
import { AuthUser } from '../../common/auth/auth-user';
import { DomainException, ValidationException } from '../../common/errors/domain.exception';
import { ListSpec, parseListQuery } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { JobQueue } from '../../common/queue/job-queue.service';
import { defineJob } from '../../common/queue/queue.constants';
import { EmployeeAccessService, EmployeeScope } from '../../employees/employee-access.service';
import { withEmployeeLock } from '../../employees/employee-lock';
import {
  CreateLeaveAdjustmentDto,
  CreateLeaveEncashmentDto,
  LeaveBalanceDto,
  LeaveBalanceQueryDto,
  LeaveLedgerEntryDto,
  LeaveLedgerQueryDto,
  LeaveOpeningDto,
} from '../dto/leave-ledger.dto';
import { LeaveType } from '../entities/leave.entities';
import { LeaveLedgerEntry } from '../entities/leave-ledger.entities';
import { dateOnly } from '../leave-days';
import {
  AssignmentRule,
  corrections,
  EmployeeFacts,
  Entry,
  FALLBACK_POLICY,
  fallbackPolicy,
  fromH,
  isDerived,
  LEDGER_KINDS,
  LedgerKind,
  owedEntries,
  Owed,
  PolicyResolver,
  PolicyRule,
  toH,
  Window,
  windowOn,
  windowsOf,
} from './accrual-engine';
import { maxDay, plusDays } from './calendar';
import { timeSlices } from '../../common/async/time-slices';
import { LeaveLedgerRepository, NewLedgerEntry } from './leave-ledger.repository';

/** The daily accrual: writes what the policies owe (accruals, carry-overs, expiries) and is not yet written. */
export const LEAVE_ACCRUALS_JOB = defineJob<Record<string, never>>('schedule', 'leave-accruals');
const ACCRUALS_EVERY_MS = 24 * 3_600_000;
/** Employees per accrual chunk: one read of their facts and entries, one multi-row insert. */
const CHUNK = 1000;

export const LEDGER_LIST_SPEC: ListSpec = {
  idColumn: 'x.id',
  defaultSort: { field: 'date', order: 'descend' },
  sortFields: { id: 'x.id', date: 'x.date' },
  dateRange: { start: 'x.date', end: 'x.date' },
  filterFields: {
    leave_type: { column: 'x.leave_type_id', type: 'int' },
    kind: { column: 'x.kind', type: 'string', values: LEDGER_KINDS },
  },
};

export const toLedgerDto = (x: LeaveLedgerEntry): LeaveLedgerEntryDto => ({
  id: x.id,
  employee: x.employeeId,
  leave_type: x.leaveTypeId,
  date: dateOnly(x.date),
  kind: x.kind,
  days: x.days,
  source: x.source,
  source_id: x.sourceId,
  created_by: x.createdBy,
  note: x.note,
});

/** Days owed (hundredths) to the employees of one leave type and department with a positive balance. */
export interface LiabilityRow {
  leaveType: number;
  department: number | null;
  employees: number;
  days: number;
}

/** A balance in hundredths, by the fields of LeaveBalanceDto. */
export interface Balance {
  leaveType: number;
  opening: number;
  accrued: number;
  taken: number;
  pending: number;
  carriedOver: number;
  expired: number;
  adjusted: number;
  encashed: number;
  available: number;
  /** The policy in force on the day asked about. */
  policy: PolicyRule | null;
}

export const balanceDto = (b: Balance): LeaveBalanceDto => ({
  leave_type: b.leaveType,
  opening: fromH(b.opening),
  accrued: fromH(b.accrued),
  taken: fromH(b.taken),
  pending: fromH(b.pending),
  carried_over: fromH(b.carriedOver),
  expired: fromH(b.expired),
  adjusted: fromH(b.adjusted),
  encashed: fromH(b.encashed),
  available: fromH(b.available),
});

/**
 * How a balance is read. `as_of`: the entries dated up to the day (for a later day, what the
 * policies will owe by then). `commitment`: what a new request or an approval may spend in the
 * leave period of the day — every entry of the period (approved days ahead included), the
 * accruals earned by today (or granted on the period's first day), the expiry already due by what
 * is taken.
 */
export type BalanceView = { kind: 'as_of'; day: string } | { kind: 'commitment'; day: string; today: string };

const NOTES: Partial<Record<LedgerKind, string>> = {
  accrual: 'accrued by the policy',
  carry_over: 'carried over from the previous leave period',
  expiry: 'carried days not taken in time',
};

/**
 * The leave ledger (issue 31): balances as sums of entries (plus what the policies owe and the
 * job has not written yet, so a balance never waits for the job), the daily accrual job, the
 * entries of approvals and cancellations, adjustments and encashments.
 */
/** How far past the last leave period (or today) a balance may be projected (issue 41). */
const AS_OF_HORIZON_DAYS = 366;

@Injectable()
export class LeaveLedgerService implements OnModuleInit {
  private readonly logger = new Logger('LeaveLedger');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repo: LeaveLedgerRepository,
    private readonly access: EmployeeAccessService,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(LEAVE_ACCRUALS_JOB, async () => {
      await this.accrue().catch((err: Error) => this.logger.warn(`leave accruals failed: ${err.message}`));
    });
    void this.jobs.schedule(LEAVE_ACCRUALS_JOB, ACCRUALS_EVERY_MS, 60_000);
  }

  /** The windows the balance of `day` depends on: its own and the one before (whose carry-over flows in). */
  private around(windows: Window[], day: string): Window[] {
    const w = windowOn(windows, day);
    if (!w) return [];
    const i = windows.indexOf(w);
    return windows.slice(Math.max(0, i - 1), i + 1);
  }

  /** Balances of every leave type (or one) for the employee, read as `view` says. */
  async balances(em: EntityManager | null, employeeId: number, view: BalanceView, leaveType?: number): Promise<Balance[]> {
    return (await this.balancesOf(em, [employeeId], view, leaveType))[0]?.balances ?? [];
  }

  /** balances() of many employees at once (a few queries for all of them), with each one's facts. */
  private async balancesOf(
    em: EntityManager | null,
    employeeIds: number[],
    view: BalanceView,
    leaveType?: number,
  ): Promise<Array<{ employee: EmployeeFacts; balances: Balance[] }>> {
    // Independent reads go together: three round trips instead of nine (one connection each, or
    // one after the other on a transaction's).
    const [all, periods] = await Promise.all([this.repo.leaveTypes(em), this.repo.periods(em)]);
    const types = all.filter((t) => leaveType === undefined || t.id === leaveType);
    const around = this.around(windowsOf(periods), view.day);
    const w = around.at(-1) ?? null;
    const from = around[0]?.start ?? '0001-01-01';
    const to = view.kind === 'as_of' ? view.day : (w?.end ?? null);
    const [resolvers, written, pending] = await Promise.all([
      this.resolvers(em, employeeIds, all),
      this.repo.entries(em, employeeIds, from, w?.end ?? null),
      this.repo.pendingDays(em, employeeIds, w?.start ?? from, to),
    ]);
    const earnedBy = view.kind === 'commitment' ? maxDay(view.today, w?.start ?? view.today) : view.day;
    // Many employees (the liability: 1 000 at a time) let the event loop run between them (issue 41).
    const balancesOfOne = (employeeId: number, resolver: PolicyResolver): Balance[] =>
      types.map((t) => {
        const mine = written.get(`${employeeId}:${t.id}`) ?? [];
        const owed = w ? owedEntries(t.id, resolver, around, mine) : [];
        const counted: Array<Entry | Owed> = [
          ...mine.filter((x) => !isDerived(x.key) && (!w || x.date >= w.start)),
          ...owed.filter((o) => !w || o.date >= w.start),
        ].filter((x) => (view.kind === 'as_of' ? x.date <= view.day : x.kind !== 'accrual' || x.date <= earnedBy));
        return this.sum(t.id, counted, pending.get(`${employeeId}:${t.id}`) ?? 0, resolver.on(t.id, view.day));
      });
    const slices = timeSlices();
    const out: Array<{ employee: EmployeeFacts; balances: Balance[] }> = [];
    for (const [employeeId, resolver] of resolvers) {
      if (slices.due()) await slices.pause();
      out.push({ employee: resolver.employee, balances: balancesOfOne(employeeId, resolver) });
    }
    return out;
  }

  /**
   * Each employee's policy resolver: its facts, the assignments that may apply (its own and those
   * by target, matched by the resolver), the policies they name and the types' fallbacks.
   */
  private async resolvers(
    em: EntityManager | null,
    employeeIds: number[],
    types: LeaveType[],
  ): Promise<Map<number, PolicyResolver>> {
    const [facts, [assignments, policies]] = await Promise.all([
      this.repo.facts(employeeIds, em),
      this.repo.assignments(employeeIds, em).then(
        async (a) =>
          [
            a,
            await this.repo.policies(
              a.map((x) => x.policyId),
              em,
            ),
          ] as const,
      ),
    ]);
    const fallbacks = types.map(fallbackPolicy);
    const everyone = assignments.filter((a) => a.employeeId === null);
    const own = new Map<number, AssignmentRule[]>();
    for (const a of assignments) if (a.employeeId !== null) own.set(a.employeeId, [...(own.get(a.employeeId) ?? []), a]);
    return new Map(facts.map((f) => [f.id, new PolicyResolver(f, [...everyone, ...(own.get(f.id) ?? [])], policies, fallbacks)]));
  }

  /** The last day of the leave period of this id; null when there is none. */
  async periodEnd(id: number): Promise<string | null> {
    return (await this.repo.periods()).find((p) => p.id === id)?.end ?? null;
  }

  /**
   * Days owed at the end of `day` (GET /insights/leave-liability): the positive available balances
   * of the employees of `scope` employed that day, summed by leave type and department, 1 000
   * employees at a time. A negative balance (days owed by an employee) is not netted against them.
   */
  async liability(scope: EmployeeScope, day: string): Promise<LiabilityRow[]> {
    const sums = new Map<string, LiabilityRow>();
    for (let after = 0; ;) {
      const chunk = await this.repo.employedIds(scope, day, after, CHUNK);
      if (!chunk.length) break;
      after = chunk[chunk.length - 1];
      for (const { employee, balances } of await this.balancesOf(null, chunk, { kind: 'as_of', day }))
        for (const b of balances) {
          if (b.available <= 0) continue;
          const department = employee.departments[0] ?? null;
          const key = `${b.leaveType}:${department}`;
          const row = sums.get(key) ?? { leaveType: b.leaveType, department, employees: 0, days: 0 };
          row.employees += 1;
          row.days += b.available;
          sums.set(key, row);
        }
    }
    return [...sums.values()];
  }

  private sum(
    leaveType: number,
    entries: Array<{ kind: LedgerKind; days: number }>,
    pending: number,
    policy: PolicyRule | null,
  ): Balance {
    const by = (...kinds: LedgerKind[]) => entries.filter((x) => kinds.includes(x.kind)).reduce((s, x) => s + x.days, 0);
    const b = {
      leaveType,
      opening: by('opening'),
      accrued: by('accrual'),
      taken: -by('taken', 'reversal'),
      pending,
      carriedOver: by('carry_over'),
      expired: -by('expiry'),
      adjusted: by('adjustment'),
      encashed: -by('encashment'),
      policy,
    };
    return { ...b, available: entries.reduce((s, x) => s + x.days, 0) };
  }

  /** GET /employees/{id}/leaves/balance. */
  async balance(caller: AuthUser, employeeId: number, query: LeaveBalanceQueryDto): Promise<LeaveBalanceDto[]> {
    await this.access.visible(caller, employeeId);
    const today = new Date().toISOString().slice(0, 10);
    const day = query.as_of ?? today;
    // A projection is bounded (issue 41): up to a year past the last leave period (or today).
    const last = (await this.repo.periods()).reduce((max, p) => (p.end > max ? p.end : max), today);
    const horizon = plusDays(last, AS_OF_HORIZON_DAYS);
    if (day > horizon)
      throw ValidationException.field('as_of', `must be on or before ${horizon} (a year after the last leave period)`);
    const balances = await this.balances(null, employeeId, { kind: 'as_of', day }, query.leave_type);
    if (query.leave_type !== undefined && !balances.length) throw ValidationException.field('leave_type', 'does not exist');
    return balances.map(balanceDto);
  }

  /** GET /employees/{id}/leave-ledger: newest first. */
  async list(caller: AuthUser, employeeId: number, query: LeaveLedgerQueryDto): Promise<Page<LeaveLedgerEntryDto>> {
    await this.access.visible(caller, employeeId);
    return (await this.repo.page(employeeId, parseListQuery(query, LEDGER_LIST_SPEC))).map(toLedgerDto);
  }

  /**
   * The taken entries of an approved request (one per working day, in the approval's transaction)
   * or, when `reversal`, the entries that give them back (a cancelled approved request).
   */
  async recordRequest(em: EntityManager, requestId: number, caller: AuthUser, reversal: boolean): Promise<void> {
    const days = await this.repo.requestDays(em, requestId);
    await this.repo.append(
      em,
      days.map((d) => ({
        employeeId: d.employeeId,
        leaveTypeId: d.leaveTypeId,
        date: dateOnly(d.date),
        kind: reversal ? 'reversal' : 'taken',
        days: reversal ? d.days : -d.days,
        source: 'request',
        sourceId: requestId,
        createdBy: caller.id,
        note: null,
        entryKey: `${reversal ? 'rev' : 'take'}:${requestId}:${dateOnly(d.date)}`,
      })),
    );
  }

  /** POST /leave-adjustments: a signed entry with its reason, audited (Admin; Restricted Admin in scope). */
  async adjust(caller: AuthUser, dto: CreateLeaveAdjustmentDto): Promise<LeaveLedgerEntryDto> {
    await this.assertAdministers(caller, dto.employee);
    await this.assertType(dto.leave_type);
    const date = dto.date ?? new Date().toISOString().slice(0, 10);
    return this.write(caller, dto.employee, 'leave-adjustments', {
      employeeId: dto.employee,
      leaveTypeId: dto.leave_type,
      date,
      kind: 'adjustment',
      days: dto.days,
      source: 'admin',
      sourceId: null,
      createdBy: caller.id,
      note: dto.note,
      entryKey: null,
    });
  }

  /**
   * An opening balance (a row of the `leave-balances` import, in the import's transaction): an
   * `opening` entry dated `date` (default: the first day of the leave period containing today),
   * once per employee, leave type and day; a second one is refused, as a correction is an
   * adjustment. Admin, or Restricted Admin in scope.
   */
  async open(caller: AuthUser, dto: LeaveOpeningDto, em: EntityManager, importId: number): Promise<void> {
    await this.assertAdministers(caller, dto.employee);
    await this.assertType(dto.leave_type);
    const windows = windowsOf(await this.repo.periods(em));
    const date = dto.date ?? windowOn(windows, new Date().toISOString().slice(0, 10))?.period.start;
    if (!date || !windowOn(windows, date))
      throw ValidationException.field(
        'date',
        dto.date ? 'is before the first leave period' : 'no leave period has begun: give a date',
      );
    const entryKey = `open:${dto.leave_type}:${date}`;
    if (await this.repo.keyExists(em, dto.employee, entryKey))
      throw new DomainException('DUPLICATE', 'This opening balance is loaded already', [
        {
          field: 'date',
          message: 'an opening balance of this leave type on this day exists; correct it with POST /leave-adjustments',
        },
      ]);
    await this.write(
      caller,
      dto.employee,
      'leave-balances',
      {
        employeeId: dto.employee,
        leaveTypeId: dto.leave_type,
        date,
        kind: 'opening',
        days: dto.days,
        source: 'import',
        sourceId: importId,
        createdBy: caller.id,
        note: dto.note ?? null,
        entryKey,
      },
      em,
    );
  }

  /**
   * POST /leave-encashments (Admin): pays out days of the balance, as an entry dated today, when
   * the policy in force allows it, within its encashment_max per leave period and the balance.
   */
  async encash(caller: AuthUser, dto: CreateLeaveEncashmentDto): Promise<LeaveLedgerEntryDto> {
    await this.assertAdministers(caller, dto.employee);
    await this.assertType(dto.leave_type);
    const today = new Date().toISOString().slice(0, 10);
    return withEmployeeLock(this.ds, dto.employee, async (em) => {
      const [b] = await this.balances(em, dto.employee, { kind: 'commitment', day: today, today }, dto.leave_type);
      const days = toH(dto.days);
      if (!b.policy?.encashable)
        throw new DomainException('NOT_ENCASHABLE', 'The leave policy in force does not allow encashment', [
          { field: 'leave_type', message: 'not encashable under the policy in force' },
        ]);
      if (b.policy.encashmentMax !== null && b.encashed + days > b.policy.encashmentMax)
        throw ValidationException.field(
          'days',
          `at most ${fromH(b.policy.encashmentMax)} days a leave period; ${fromH(b.encashed)} encashed already`,
        );
      if (days > b.available)
        throw new DomainException('INSUFFICIENT_BALANCE', `${dto.days} days asked, ${fromH(b.available)} available`, [
          { field: 'days', message: `exceeds the available balance of ${fromH(b.available)}` },
        ]);
      return this.write(
        caller,
        dto.employee,
        'leave-encashments',
        {
          employeeId: dto.employee,
          leaveTypeId: dto.leave_type,
          date: today,
          kind: 'encashment',
          days: -dto.days,
          source: 'admin',
          sourceId: b.policy.id,
          createdBy: caller.id,
          note: null,
          entryKey: null,
        },
        em,
      );
    });
  }

  /** The encashment entries of the leave type dated in [from, to] with their days (the payroll hook leave_encashment_days). */
  async encashedDays(
    employeeIds: number[],
    leaveType: number,
    from: string,
    to: string,
  ): Promise<Array<{ id: number; employee: number; days: string }>> {
    const entries = await this.repo.entriesOfKind(employeeIds, 'encashment', leaveType, from, to);
    return entries.map((e) => ({ id: e.id, employee: e.employee, days: String(fromH(-e.hundredths)) }));
  }

  private async write(
    caller: AuthUser,
    employeeId: number,
    resource: string,
    row: NewLedgerEntry,
    em?: EntityManager,
  ): Promise<LeaveLedgerEntryDto> {
    const work = async (m: EntityManager) => {
      const saved = await m.getRepository(LeaveLedgerEntry).save(m.getRepository(LeaveLedgerEntry).create(row));
      const dto = toLedgerDto(await m.getRepository(LeaveLedgerEntry).findOneByOrFail({ id: saved.id }));
      await recordAudit(m, { action: 'create', resource, resourceId: saved.id, employee: employeeId, after: dto });
      return dto;
    };
    return em ? work(em) : withEmployeeLock(this.ds, employeeId, work);
  }

  private async assertAdministers(caller: AuthUser, employeeId: number): Promise<void> {
    await this.access.visible(caller, employeeId);
    if (!(await this.access.administersId(caller, employeeId)))
      throw new DomainException('FORBIDDEN', 'Only an Admin, or a Restricted Admin over the employee, changes its leave balance');
  }

  private async assertType(id: number): Promise<LeaveType> {
    const type = (await this.repo.leaveTypes()).find((t) => t.id === id);
    if (!type) throw ValidationException.field('leave_type', 'does not exist');
    return type;
  }

  /**
   * The daily accrual job: for every employee (1 000 at a time) and leave type, writes what the
   * policies owe over the current leave period's window and the one before and is not written yet,
   * dated where it belongs and up to `today`. `all`: over every window begun (after a migration,
   * or to correct history); `only`: those employees. Returns the entries written.
   */
  async accrue(today = new Date().toISOString().slice(0, 10), all = false, only?: number[]): Promise<number> {
    const windows = windowsOf(await this.repo.periods());
    const scope = all ? windows.filter((w) => w.start <= today) : this.around(windows, today);
    if (!scope.length) return 0;
    const ids = new Set(scope.map((w) => w.period.id));
    const inScope = (base: string) => {
      const [kind, , id] = base.split(':');
      return (
        kind === 'acc' ||
        (kind === 'exp' && ids.has(Number(id))) ||
        (kind === 'cin' && ids.has(Number(id)) && Number(id) !== scope[0].period.id)
      );
    };
    const leaveTypes = await this.repo.leaveTypes();
    const types = leaveTypes.map((t) => t.id);
    let written = 0;
    let after = 0;
    const nextChunk = async () => {
      const chunk = only
        ? only
            .filter((id) => id > after)
            .sort((a, b) => a - b)
            .slice(0, CHUNK)
        : await this.repo.employeeIds(after, CHUNK);
      if (!chunk.length) return null;
      after = chunk[chunk.length - 1];
      const [resolvers, entries] = await Promise.all([
        this.resolvers(null, chunk, leaveTypes),
        this.repo.entries(null, chunk, scope[0].start, scope.at(-1)?.end ?? null),
      ]);
      return { resolvers, entries };
    };
    await pipelined(nextChunk, async ({ resolvers, entries }) => {
      const rows: NewLedgerEntry[] = [];
      for (const [employeeId, resolver] of resolvers) {
        for (const type of types) {
          const mine = entries.get(`${employeeId}:${type}`) ?? [];
          for (const c of corrections(owedEntries(type, resolver, scope, mine), mine, inScope, today))
            rows.push({
              employeeId,
              leaveTypeId: type,
              date: c.date,
              kind: c.kind,
              days: fromH(c.days),
              source: 'policy',
              sourceId: c.policyId === FALLBACK_POLICY ? null : c.policyId,
              createdBy: null,
              note: c.key.endsWith('#0')
                ? (NOTES[c.kind] ?? null)
                : 'correction: the policy, its assignment or the ledger changed',
              entryKey: c.key,
            });
        }
      }
      await this.repo.append(null, rows);
      written += rows.length;
    });
    return written;
  }
}
