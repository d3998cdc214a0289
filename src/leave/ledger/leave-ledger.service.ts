import { Injectable } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { DomainException, ValidationException } from '../../common/errors/domain.exception';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { withEmployeeLock } from '../../employees/core/employee-lock';
import {
  CreateLeaveAdjustmentDto,
  CreateLeaveEncashmentDto,
  LeaveLedgerEntryDto,
  LeaveOpeningDto,
} from '../dto/leave-ledger.dto';
import { LeaveType } from '../entities/leave.entities';
import { LeaveLedgerEntry } from '../entities/leave-ledger.entities';
import { dateOnly } from '../engine/calendar';
import { fromH, toH, windowOn, windowsOf } from '../engine/accrual-engine';
import { toLedgerDto } from './leave-balances';
import { LeaveBalancesService } from './leave-balances.service';
import { LeaveLedgerRepository, NewLedgerEntry } from './leave-ledger.repository';

/**
 * The leave ledger's writes (issue 31): the entries of approvals and cancellations, adjustments,
 * opening balances and encashments. Balances: LeaveBalancesService; the daily job:
 * LeaveAccrualsService.
 */
@Injectable()
export class LeaveLedgerService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repo: LeaveLedgerRepository,
    private readonly access: EmployeeAccessService,
    private readonly balances: LeaveBalancesService,
    private readonly clock: CompanyClock,
  ) {}

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
    const date = dto.date ?? (await this.clock.today());
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
    const date = dto.date ?? windowOn(windows, await this.clock.today())?.period.start;
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
    const today = await this.clock.today();
    return withEmployeeLock(this.ds, dto.employee, async (em) => {
      const [b] = await this.balances.balances(em, dto.employee, { kind: 'commitment', day: today, today }, dto.leave_type);
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
}
