import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { EntityManager } from 'typeorm';
import { timeSlices } from '../../common/async/time-slices';
import { AuthUser } from '../../common/auth/auth-user';
import { ValidationException } from '../../common/errors/domain.exception';
import { parseListQuery } from '../../common/paging/list-request';
import { Page } from '../../common/paging/page';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { LeaveBalanceDto, LeaveBalanceQueryDto, LeaveLedgerEntryDto, LeaveLedgerQueryDto } from '../dto/leave-ledger.dto';
import { LeaveType } from '../entities/leave.entities';
import {
  AssignmentRule,
  EmployeeFacts,
  Entry,
  factsOn,
  fallbackPolicy,
  isDerived,
  owedEntries,
  Owed,
  PolicyResolver,
  windowsOf,
} from '../engine/accrual-engine';
import { maxDay, plusDays } from '../engine/calendar';
import { Balance, balanceDto, BalanceView, LEDGER_LIST_SPEC, sumBalance, toLedgerDto, windowsAround } from './leave-balances';
import { LeaveLedgerRepository } from './leave-ledger.repository';
import { LiabilityBalance } from './liability.repository';

/** How far past the last leave period (or today) a balance may be projected (issue 41). */
const AS_OF_HORIZON_DAYS = 366;

/**
 * The leave ledger's read model (issue 31): balances as sums of entries plus what the policies owe
 * and the job has not written yet (so a balance never waits for the job), the liability, the list.
 */
@Injectable()
export class LeaveBalancesService {
  constructor(
    private readonly repo: LeaveLedgerRepository,
    private readonly access: EmployeeAccessService,
    private readonly clock: CompanyClock,
  ) {}

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
    // The reads count in the first slice: on SQLite they run without a tick in between (the
    // liability's 1 000 employees took 35 ms before their first pause).
    const slices = timeSlices();
    // Independent reads go together: three round trips instead of nine (one connection each, or
    // one after the other on a transaction's).
    const [all, periods] = await Promise.all([this.repo.leaveTypes(em), this.repo.periods(em)]);
    const types = all.filter((t) => leaveType === undefined || t.id === leaveType);
    const around = windowsAround(windowsOf(periods), view.day);
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
        return sumBalance(t.id, counted, pending.get(`${employeeId}:${t.id}`) ?? 0, resolver.on(t.id, view.day));
      });
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
  async resolvers(em: EntityManager | null, employeeIds: number[], types: LeaveType[]): Promise<Map<number, PolicyResolver>> {
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
   * What the leave liability of `day` is made of (GET /insights/leave-liability): the positive
   * available balances of those of `employeeIds` employed that day, by leave type, with the
   * department of that day. A negative balance (days owed by an employee) is not netted against them.
   */
  async liabilityBalances(employeeIds: number[], day: string): Promise<LiabilityBalance[]> {
    const out: LiabilityBalance[] = [];
    for (const { employee, balances } of await this.balancesOf(null, employeeIds, { kind: 'as_of', day })) {
      if (employee.joined > day || (employee.termination !== null && employee.termination < day)) continue;
      const department = factsOn(employee, day).departments[0] ?? null; // the department of that day (issue 43)
      for (const b of balances)
        if (b.available > 0) out.push({ employeeId: employee.id, leaveType: b.leaveType, department, available: b.available });
    }
    return out;
  }

  /** GET /employees/{id}/leaves/balance. */
  async balance(caller: AuthUser, employeeId: number, query: LeaveBalanceQueryDto): Promise<LeaveBalanceDto[]> {
    await this.access.visible(caller, employeeId);
    const today = await this.clock.today();
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
}
