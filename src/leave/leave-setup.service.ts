import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual, MoreThanOrEqual, Not, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { EmployeesRepository } from '../employees/core/employees.repository';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { ReferenceCrud } from '../common/crud/crud';
import { EntitlementDto, LeavePeriodDto, LeaveTypeDto, SetEntitlementDto } from './dto/leave.dto';
import { LeaveEntitlement, LeavePeriod, LeaveType } from './entities/leave.entities';
import { LeavePolicyAssignment } from './entities/leave-ledger.entities';
import { LeaveLedgerRepository } from './ledger/leave-ledger.repository';
import { fixedPerPeriod } from './engine/accrual-engine';
import { daysInclusive } from './engine/calendar';

export const ENTITLEMENT_SPEC: ListSpec = {
  idColumn: 'x.id',
  sortFields: { id: 'x.id' },
  filterFields: {
    employee: { column: 'x.employee_id', type: 'int' },
    leave_type: { column: 'x.leave_type_id', type: 'int' },
    leave_period: { column: 'x.leave_period_id', type: 'int' },
  },
};

const toEntitlementDto = (x: LeaveEntitlement): EntitlementDto => ({
  id: x.id,
  employee: x.employeeId,
  leave_type: x.leaveTypeId,
  leave_period: x.leavePeriodId,
  days: x.days,
});

/** The longest leave period: two years (a transition between two leave years is the longest seen). */
const MAX_PERIOD_DAYS = 731;

/** What leave requests are measured against: types, periods, holidays, entitlements. */
/** Leave periods and holidays sort by their date too (their controllers document the same). */
export const LEAVE_PERIOD_LIST: Partial<ListSpec> = { sortFields: { id: 'r.id', name: 'r.name', date_start: 'r.date_start' } };
@Injectable()
export class LeaveSetupService {
  readonly types: ReferenceCrud<LeaveType, LeaveTypeDto>;
  readonly periods: ReferenceCrud<LeavePeriod, LeavePeriodDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(LeaveEntitlement) private readonly leaveEntitlementRepo: Repository<LeaveEntitlement>,
    @InjectRepository(LeavePeriod) private readonly leavePeriodRepo: Repository<LeavePeriod>,
    @InjectRepository(LeaveType) private readonly leaveTypeRepo: Repository<LeaveType>,
    private readonly access: EmployeeAccessService,
    employeeRecords: EmployeesRepository,
    private readonly ledger: LeaveLedgerRepository,
  ) {
    this.listEntitlements = employeeRecords.recordList(leaveEntitlementRepo, 'x', ENTITLEMENT_SPEC, toEntitlementDto);
    this.types = new ReferenceCrud<LeaveType, LeaveTypeDto>({
      label: 'Leave type',
      resource: 'leave-types',
      event: 'leave_type.changed',
      repo: dataSource.getRepository(LeaveType),
      fields: { name: 'name', default_days: 'defaultDays', color: 'color', allow_negative: 'allowNegative' },
    });
    const periods = dataSource.getRepository(LeavePeriod);
    this.periods = new ReferenceCrud<LeavePeriod, LeavePeriodDto>({
      label: 'Leave period',
      resource: 'leave-periods',
      event: 'leave_period.changed',
      repo: periods,
      fields: { name: 'name', date_start: 'dateStart', date_end: 'dateEnd' },
      check: async (p, id) => {
        if (p.dateEnd < p.dateStart) throw ValidationException.field('date_end', 'must not be before date_start');
        // Accruals, balances and the liability walk a period day by day or pay period by pay period (issue 41).
        if (daysInclusive(p.dateStart, p.dateEnd) > MAX_PERIOD_DAYS)
          throw ValidationException.field('date_end', `a leave period spans at most ${MAX_PERIOD_DAYS} days (two years)`);
        const overlap = await periods.exists({
          where: { dateStart: LessThanOrEqual(p.dateEnd), dateEnd: MoreThanOrEqual(p.dateStart), ...(id ? { id: Not(id) } : {}) },
        });
        if (overlap)
          throw new DomainException('CONFLICT', 'Leave periods may not overlap', [
            { field: 'date_start', message: 'overlaps another period' },
          ]);
      },
      listSpec: LEAVE_PERIOD_LIST,
    });
  }

  /** The leave period containing the day, if any. */
  periodOf(date: string): Promise<LeavePeriod | null> {
    return this.leavePeriodRepo.findOne({ where: { dateStart: LessThanOrEqual(date), dateEnd: MoreThanOrEqual(date) } });
  }

  /**
   * The entitlements of the employees the caller may list (docs/api/decisions.md §5): Admin all, Restricted Admin
   * its departments', Manager its own and its direct reports', Employee its own; `filters.employee`
   * narrows that down (an employee outside it lists nothing, as on /leaves).
   */
  readonly listEntitlements: (caller: AuthUser, query: ListQueryDto) => Promise<Page<EntitlementDto>>;

  /** Sets the days of an employee for a type and period (creates or replaces). */
  async setEntitlement(caller: AuthUser, dto: SetEntitlementDto): Promise<EntitlementDto> {
    await this.access.visible(caller, dto.employee);
    const problems = [];
    if (!(await this.leaveTypeRepo.exists({ where: { id: dto.leave_type } }))) {
      problems.push({ field: 'leave_type', message: 'does not exist' });
    }
    if (!(await this.leavePeriodRepo.exists({ where: { id: dto.leave_period } }))) {
      problems.push({ field: 'leave_period', message: 'does not exist' });
    }
    if (problems.length) throw new ValidationException(problems);
    const key = { employeeId: dto.employee, leaveTypeId: dto.leave_type, leavePeriodId: dto.leave_period };
    const type = await this.leaveTypeRepo.findOneByOrFail({ id: dto.leave_type });
    const period = await this.leavePeriodRepo.findOneByOrFail({ id: dto.leave_period });
    // The entitlement is a fixed_per_period policy of its days, assigned to the employee for the period
    // (issue 31). The policy is shared by every employee with those days: it is made in a statement of
    // its own, outside the employee's transaction, where a concurrent maker's row would be invisible.
    const policyId = await this.entitlementPolicy(type, dto.days);
    // Check-then-write under the employee's row lock: two requests for one entitlement cannot both insert it.
    return withEmployeeLock(this.dataSource, dto.employee, async (em) => {
      const repo = em.getRepository(LeaveEntitlement);
      const existing = await repo.findOne({ where: key });
      const assignments = em.getRepository(LeavePolicyAssignment);
      let assignmentId = existing?.assignmentId ?? null;
      if (assignmentId !== null) await assignments.update({ id: assignmentId }, { policyId });
      else
        assignmentId = (
          await assignments.save(
            assignments.create({ policyId, employeeId: dto.employee, validFrom: period.dateStart, validTo: period.dateEnd }),
          )
        ).id;
      return toEntitlementDto(
        await repo.save(
          existing
            ? Object.assign(existing, { days: dto.days, assignmentId })
            : repo.create({ ...key, days: dto.days, assignmentId }),
        ),
      );
    });
  }

  /** The policy granting `days` of the type once per leave period, nothing carried over (created once, whoever asks first). */
  private async entitlementPolicy(type: LeaveType, days: number): Promise<number> {
    const name = `${type.name}: ${days} days (entitlement)`.slice(0, 100);
    return this.ledger.ensurePolicy(null, { name, ...fixedPerPeriod(type, days) });
  }

  async removeEntitlement(caller: AuthUser, id: number): Promise<{ id: number }> {
    const repo = this.leaveEntitlementRepo;
    const row = await repo.findOne({ where: { id } });
    if (!row) throw new NotFoundException('Entitlement');
    await this.access.visible(caller, row.employeeId).catch(() => {
      throw new NotFoundException('Entitlement');
    });
    await withEmployeeLock(this.dataSource, row.employeeId, async (em) => {
      await em.getRepository(LeaveEntitlement).delete({ id });
      if (row.assignmentId !== null) await em.getRepository(LeavePolicyAssignment).delete({ id: row.assignmentId });
    });
    return { id };
  }
}
