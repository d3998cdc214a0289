import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { overlapping } from './leave-overlap';
import { DomainException, ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { recordAudit } from '../common/audit/audit-log';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { RETRY_DEADLOCKS } from '../common/database/transaction';
import { EmployeesService } from '../employees/employees.service';
import { EmployeeAccessService, employeeRef, DecisionSubject } from '../employees/core/employee-access.service';
import { ApprovalsService } from '../approvals/approvals.service';
import { Page } from '../common/paging/page';
import { EmployeesRepository, RecordList } from '../employees/core/employees.repository';
import { CreateLeaveRequestDto, LeaveRequestDto, LeaveRequestRowDto, LeaveSummaryDto } from './dto/leave.dto';
import { LeaveDay, LEAVE_STATUSES, LeaveRequest, LeaveStatus, LeaveType } from './entities/leave.entities';
import { allowsNegative, assertCovers, summaryOf } from './leave-balance';
import { fromH, toH } from './engine/accrual-engine';
import { BalanceView } from './ledger/leave-balances';
import { LeaveBalancesService } from './ledger/leave-balances.service';
import { LeaveLedgerService } from './ledger/leave-ledger.service';
import { LEAVE_DAY_SUMS } from './leave-day-sums';
import { leaveDayEntities } from './leave-days';
import { LeaveRepository } from './leave.repository';
import { LeaveAction, LEAVE_STATES } from './leave.states';
import { LeaveSetupService } from './leave-setup.service';
import { MAX_LEAVE_SPAN_DAYS } from './working-days';
import { LeaveCalendarService } from './leave-calendar.service';
import './leave.events';
import { ACTION_OF, LEAVE_LIST_SPEC, leaveSummary, toLeaveDto } from './leave-request-views';

/**
 * Leave requests: working days counted over the work week without holidays; one leave period per
 * request; no overlap with the employee's own pending or approved leave; the free balance
 * (entitled − taken − pending) must cover it unless the type allows negative. Decided by the supervisor,
 * approver1..3 or an Admin (never the requester); cancelled by the requester or an Admin.
 */
@Injectable()
export class LeaveRequestsService {
  /** Newest first unless sorted otherwise; paging, filters and the from/to range (docs/api/decisions.md §6, §9). */
  readonly list: RecordList<LeaveRequestDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(LeaveRequest) private readonly leaveRequestRepo: Repository<LeaveRequest>,
    @InjectRepository(LeaveType) private readonly leaveTypeRepo: Repository<LeaveType>,
    private readonly access: EmployeeAccessService,
    employeeRecords: EmployeesRepository,
    private readonly repository: LeaveRepository,
    private readonly setup: LeaveSetupService,
    private readonly calendar: LeaveCalendarService,
    private readonly employees: EmployeesService,
    private readonly ledger: LeaveLedgerService,
    private readonly balances: LeaveBalancesService,
    private readonly approvals: ApprovalsService,
    private readonly clock: CompanyClock,
  ) {
    const list = employeeRecords.recordList(leaveRequestRepo, 'l', LEAVE_LIST_SPEC, toLeaveDto);
    // Each row with its chain (issue 45): two queries a page.
    this.list = async (caller, query, employeeId) => this.withApprovals(await list(caller, query, employeeId));
  }

  /** leave_day_sums follows employees between departments and out of the company. */
  onModuleInit(): void {
    LEAVE_DAY_SUMS.followEmployees(this.employees);
  }

  async create(caller: AuthUser, dto: CreateLeaveRequestDto): Promise<LeaveRequestDto> {
    const employeeId = await this.access.subjectOf(caller, dto.employee, ['Admin', 'Restricted Admin']);
    const problems: ErrorDetail[] = [];
    if (dto.date_end < dto.date_start) problems.push({ field: 'date_end', message: 'must not be before date_start' });
    if (dto.half_day && dto.date_end !== dto.date_start)
      problems.push({ field: 'half_day', message: 'needs date_start equal to date_end' });
    const type = await this.leaveTypeRepo.findOne({ where: { id: dto.leave_type } });
    if (!type) problems.push({ field: 'leave_type', message: 'does not exist' });
    if (problems.length) throw new ValidationException(problems);
    const period = await this.setup.periodOf(dto.date_start);
    if (!period) throw ValidationException.field('date_start', 'no leave period covers this date');
    if (dto.date_end > period.dateEnd)
      throw ValidationException.field(
        'date_end',
        `must be in the leave period ${period.name} (ends ${period.dateEnd}); split the request`,
      );

    const { days, dates } = await this.countDays(employeeId, dto.date_start, dto.date_end, dto.half_day ?? false);
    const created = await this.locked(employeeId, async (em) => {
      const overlap = await this.repository.firstOverlapping(em, employeeId, dto.date_start, dto.date_end);
      if (overlap) throw overlapping(overlap);
      // What is still free: the available days less those already asked for.
      const [balance] = await this.balances.balances(em, employeeId, await this.commitment(dto.date_start), dto.leave_type);
      assertCovers(days, balance, allowsNegative(type as LeaveType, balance));
      const repo = em.getRepository(LeaveRequest);
      const saved = await repo.save(
        repo.create({
          employeeId,
          leaveTypeId: dto.leave_type,
          dateStart: dto.date_start,
          dateEnd: dto.date_end,
          halfDay: dto.half_day ?? false,
          days,
          status: 'Pending',
          reason: dto.reason ?? null,
          approverId: null,
          decidedBy: null,
          decidedAt: null,
        }),
      );
      await em
        .getRepository(LeaveDay)
        .insert(leaveDayEntities({ id: saved.id, employeeId, leaveTypeId: dto.leave_type, status: 'Pending' }, dates));
      await LEAVE_DAY_SUMS.add(em, 1, 's.request_id = ?', [saved.id]);
      await this.approvals.start(em, {
        kind: 'leave',
        requestId: saved.id,
        employeeId,
        leaveTypeId: dto.leave_type,
        days,
        summary: leaveSummary(type!.name, dto.date_start, dto.date_end, days),
      });
      const created = await repo.findOneOrFail({ where: { id: saved.id } });
      await recordAudit(em, {
        action: 'create',
        resource: 'leaves',
        event: 'leave.requested',
        resourceId: created.id,
        employee: employeeId,
        after: toLeaveDto(created),
      });
      return created;
    });
    return this.view(created);
  }

  /**
   * A decision on the open step of the request's chain (issue 45): the chain's last step moves the
   * request (Approved: the ledger spends its days), a rejection at any step rejects it; before that
   * the request stays Pending with the decision recorded on its step.
   */
  async decide(caller: AuthUser, id: number, status: 'Approved' | 'Rejected', comment?: string | null): Promise<LeaveRequestDto> {
    const { request, employee } = await this.load(caller, id);
    if (caller.employeeId === request.employeeId)
      throw new DomainException('FORBIDDEN', 'You cannot decide your own leave request');
    const administers = await this.access.administers(caller, employeeRef(employee));
    const expectedStep = await this.approvals.openStep('leave', id);
    const action = status === 'Approved' ? 'approve' : 'reject';
    const updated = await this.locked(request.employeeId, async (em) => {
      const current = await em.getRepository(LeaveRequest).findOneOrFail({ where: { id } });
      LEAVE_STATES.assert(action, current.status);
      const chain = await this.approvals.decide(em, 'leave', current, caller, action, {
        administers,
        comment,
        expectedStep,
        // Only a request without a chain (none since migration 039) needs it.
        summary: async () =>
          leaveSummary(
            (await em.getRepository(LeaveType).findOneBy({ id: current.leaveTypeId }))?.name ?? 'Leave',
            current.dateStart,
            current.dateEnd,
            current.days,
          ),
      });
      return chain === 'Pending' ? current : this.move(em, current, action, caller);
    });
    return this.view(updated);
  }

  async cancel(caller: AuthUser, id: number): Promise<LeaveRequestDto> {
    const { request, employee } = await this.load(caller, id);
    if (!(await this.access.administers(caller, employeeRef(employee))) && caller.employeeId !== request.employeeId)
      throw new DomainException('FORBIDDEN', 'Only the requester or an Admin cancel a leave request');
    return this.transition(request, 'cancel', caller);
  }

  async get(caller: AuthUser, id: number): Promise<LeaveRequestDto> {
    return this.view((await this.load(caller, id)).request);
  }

  /** Per leave type for the period containing today, and request counts by status (all periods). */
  async summary(caller: AuthUser, employeeId: number, day?: string): Promise<LeaveSummaryDto> {
    await this.access.visible(caller, employeeId);
    const today = day ?? (await this.clock.today());
    const period = await this.setup.periodOf(today);
    const types = await this.leaveTypeRepo.find({ order: { id: 'ASC' } });
    const counts = await this.repository.countsByStatus(employeeId);
    const byStatus = Object.fromEntries(LEAVE_STATUSES.map((s) => [s, counts.get(s) ?? 0]));
    return {
      period: period && { id: period.id, name: period.name, date_start: period.dateStart, date_end: period.dateEnd },
      types: period
        ? (await this.balances.balances(null, employeeId, await this.commitment(today, today))).map((b) => summaryOf(b, types))
        : [],
      by_status: byStatus,
    };
  }

  /** The view of a balance that new requests and approvals spend from: the leave period of `day`. */
  private async commitment(day: string, today?: string): Promise<BalanceView> {
    return { kind: 'commitment', day, today: today ?? (await this.clock.today()) };
  }

  /** The request's working days by the employee's calendar (each a leave_days row) and their sum (LeaveCalendarService.requestDays). */
  private async countDays(employeeId: number, start: string, end: string, halfDay: boolean) {
    const span = (Date.parse(end) - Date.parse(start)) / 86_400_000 + 1;
    if (span > MAX_LEAVE_SPAN_DAYS)
      throw ValidationException.field('date_end', `a request covers at most ${MAX_LEAVE_SPAN_DAYS} days`);
    const dates = await this.calendar.requestDays(null, employeeId, start, end, halfDay);
    if (!dates.length) throw ValidationException.field('date_start', 'the request covers no working day');
    return { days: dates.reduce((sum, d) => sum + d.days, 0), dates };
  }

  /** The request with its employee, if the caller can see the employee or is one of its approvers; else 404. */
  private async load(caller: AuthUser, id: number): Promise<{ request: LeaveRequest; employee: DecisionSubject }> {
    const request = await this.leaveRequestRepo.findOne({ where: { id } });
    const employee =
      request &&
      ((await this.access.forDecision(caller, request.employeeId)) ??
        ((await this.approvals.involves('leave', id, caller.employeeId))
          ? await this.access.employee(request.employeeId)
          : null));
    if (!request || !employee) throw new NotFoundException('Leave request');
    return { request, employee };
  }

  /** Cancels the request (LEAVE_STATES): 409 INVALID_STATE naming its state when it cannot be. */
  private async transition(request: LeaveRequest, action: LeaveAction, caller: AuthUser): Promise<LeaveRequestDto> {
    LEAVE_STATES.assert(action, request.status);
    // Under the employee lock, as every change of the employee's rollup rows (a department move included).
    const updated = await this.locked(request.employeeId, async (em) => {
      await this.approvals.cancel(em, 'leave', request.id);
      return this.move(em, request, action, caller);
    });
    return this.view(updated);
  }

  /** Under the employee's lock, run again as a deadlock victim: checks read inside, effects all in the database. */
  private locked<T>(employeeId: number, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return withEmployeeLock(this.dataSource, employeeId, work, RETRY_DEADLOCKS);
  }

  /** Moves the request by `action` with `em` (under the employee's lock): its days, the ledger, the audit and event. */
  private async move(em: EntityManager, request: LeaveRequest, action: LeaveAction, caller: AuthUser): Promise<LeaveRequest> {
    const to = LEAVE_STATES.transitions[action].to as LeaveStatus;
    const decided = to !== 'Cancelled' ? { approverId: caller.employeeId, decidedBy: caller.id, decidedAt: new Date() } : {};
    const repo = em.getRepository(LeaveRequest);
    // Only one of two concurrent decisions wins: the update requires the status it started from.
    if (!(await LEAVE_STATES.move(em, LeaveRequest, { id: request.id, status: request.status }, action, decided)))
      throw LEAVE_STATES.invalid(action, (await repo.findOne({ where: { id: request.id } }))?.status ?? request.status);
    if (to === 'Approved') await this.spend(em, request);
    if (to === 'Approved' || request.status === 'Approved')
      await this.ledger.recordRequest(em, request.id, caller, to !== 'Approved');
    await LEAVE_DAY_SUMS.add(em, -1, 's.request_id = ?', [request.id]);
    await em.getRepository(LeaveDay).update({ requestId: request.id }, { status: to });
    await LEAVE_DAY_SUMS.add(em, 1, 's.request_id = ?', [request.id]);
    const after = await repo.findOneOrFail({ where: { id: request.id } });
    await recordAudit(em, {
      action: ACTION_OF[to],
      resource: 'leaves',
      event: to === 'Pending' ? undefined : 'leave.decided',
      resourceId: request.id,
      employee: request.employeeId,
      before: toLeaveDto(request),
      after: toLeaveDto(after),
    });
    return after;
  }

  /** The request as the API shows it, with its chain. */
  private async view(request: LeaveRequest): Promise<LeaveRequestDto> {
    return { ...toLeaveDto(request), approval: (await this.approvals.views('leave', [request.id])).get(request.id) ?? null };
  }

  private async withApprovals(page: Page<LeaveRequestRowDto>): Promise<Page<LeaveRequestDto>> {
    const ids = page.items.map((l) => l.id);
    const views = await this.approvals.views('leave', ids);
    return page.map((l) => ({ ...l, approval: views.get(l.id) ?? null }));
  }

  /**
   * An approval spends the request's days: under the employee's lock, the balance of its leave period must still
   * cover them (adjustments, encashments or other approvals may have used it since), unless negative is allowed.
   */
  private async spend(em: EntityManager, request: LeaveRequest): Promise<void> {
    const type = await em.getRepository(LeaveType).findOneByOrFail({ id: request.leaveTypeId });
    const [balance] = await this.balances.balances(em, request.employeeId, await this.commitment(request.dateStart), type.id);
    if (toH(request.days) > balance.available && !allowsNegative(type, balance))
      throw new DomainException(
        'INSUFFICIENT_BALANCE',
        `${request.days} days to approve, ${fromH(balance.available)} available`,
        [{ field: 'days', message: `exceeds the available balance of ${fromH(balance.available)}` }],
      );
  }
}
