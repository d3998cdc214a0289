import { Injectable } from '@nestjs/common';
import { toWholeSecond } from '../common/time/instants';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull, Not, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec } from '../common/paging/list-request';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { EmployeesRepository, RecordList } from '../employees/core/employees.repository';
import { EmployeesService } from '../employees/employees.service';
import { recordAudit } from '../common/audit/audit-log';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { PUNCH_BACKDATING_HOURS } from './attendance.settings';
import { SettingsService } from '../settings/settings.service';

import {
  AttendanceDto,
  AttendanceSummaryDto,
  CreateAttendanceDto,
  PunchInDto,
  PunchOutDto,
  UpdateAttendanceDto,
} from './dto/attendance.dto';
import { ATTENDANCE_DAYS } from './attendance-days';
import { AttendanceRecord } from './entities/attendance.entity';
import { AttendanceRepository } from './attendance.repository';

export const ATTENDANCE_LIST_SPEC: ListSpec = {
  defaultSort: { field: 'in_time', order: 'descend' },
  dateRange: { start: 'a.in_time', instant: true },
  updatedAt: 'a.updated_at',
  idColumn: 'a.id',
  sortFields: { id: 'a.id', in_time: 'a.in_time' },
  filterFields: {
    employee: { column: 'a.employee_id', type: 'int' },
    work_from_home: { column: 'a.work_from_home', type: 'boolean' },
  },
};

/** Who may punch for an employee it can see: a Manager only sees itself and its direct reports. */
const PUNCH_FOR_OTHERS = ['Admin', 'Restricted Admin', 'Manager'] as const;

/** A punch may be up to this far in the future (clock skew between a device and the server). */
const FUTURE_SKEW_MS = 5 * 60_000;
/** No attendance record spans more than a day. */
const MAX_SPAN_MS = 24 * 3_600_000;

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The instant, to the second (both databases store seconds). */
function instant(iso: string | undefined, now = new Date()): Date {
  return toWholeSecond(iso === undefined ? now : new Date(iso));
}

export function toAttendanceDto(r: AttendanceRecord): AttendanceDto {
  return {
    id: r.id,
    employee: r.employeeId,
    in_time: r.inTime.toISOString(),
    out_time: r.outTime ? r.outTime.toISOString() : null,
    note: r.note,
    work_from_home: r.workFromHome,
    hours: r.durationSeconds === null ? null : round2(r.durationSeconds / 3600),
  };
}

/**
 * Attendance: punch in/out for oneself (or, for Admins, Restricted Admins in scope and Managers,
 * for the employees they can see), Admin maintenance, and the per-employee list and summary.
 * An employee's records never overlap and at most one is open (punched in, not out).
 */
@Injectable()
export class AttendanceService {
  /** Newest first unless sorted otherwise; paging, filters and the from/to range (docs/api/decisions.md §6, §9). */
  readonly list: RecordList<AttendanceDto>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(AttendanceRecord) private readonly attendanceRecordRepo: Repository<AttendanceRecord>,
    private readonly access: EmployeeAccessService,
    employeeRecords: EmployeesRepository,
    private readonly repository: AttendanceRepository,
    private readonly settings: SettingsService,
    private readonly employees: EmployeesService,
  ) {
    this.list = employeeRecords.recordList(attendanceRecordRepo, 'a', ATTENDANCE_LIST_SPEC, toAttendanceDto);
  }

  /** attendance_days follows employees between departments and out of the company. */
  onModuleInit(): void {
    ATTENDANCE_DAYS.followEmployees(this.employees);
  }

  async punchIn(caller: AuthUser, dto: PunchInDto): Promise<AttendanceDto> {
    const employeeId = await this.access.subjectOf(caller, dto.employee, PUNCH_FOR_OTHERS);
    const at = await this.punchTime(dto.time);
    return this.locked(employeeId, async (em) => {
      const repo = em.getRepository(AttendanceRecord);
      if (await repo.exists({ where: { employeeId, outTime: IsNull() } })) {
        throw new DomainException('ALREADY_PUNCHED_IN', 'Already punched in: punch out first');
      }
      // An open record must not cover any existing one: nothing of this employee may end after `at`.
      const later = await this.repository.endsAfter(em, employeeId, at);
      if (later)
        throw new DomainException('OVERLAPPING_ATTENDANCE', 'The punch-in time falls inside or before an existing record');
      const saved = await repo.save(
        repo.create({
          employeeId,
          inTime: at,
          outTime: null,
          durationSeconds: null,
          note: dto.note ?? null,
          workFromHome: dto.work_from_home ?? false,
        }),
      );
      await ATTENDANCE_DAYS.change(em, null, saved);
      return toAttendanceDto(saved);
    });
  }

  async punchOut(caller: AuthUser, dto: PunchOutDto): Promise<AttendanceDto> {
    const employeeId = await this.access.subjectOf(caller, dto.employee, PUNCH_FOR_OTHERS);
    const at = await this.punchTime(dto.time);
    return this.locked(employeeId, async (em) => {
      const repo = em.getRepository(AttendanceRecord);
      const open = await repo.findOne({ where: { employeeId, outTime: IsNull() } });
      if (!open) throw new DomainException('NOT_PUNCHED_IN', 'Not punched in: punch in first');
      if (at.getTime() <= open.inTime.getTime()) {
        throw new DomainException(
          'OUT_BEFORE_IN',
          `The punch-out time must be after the punch-in time ${open.inTime.toISOString()}`,
        );
      }
      if (at.getTime() - open.inTime.getTime() > MAX_SPAN_MS) {
        throw ValidationException.field(
          'time',
          `would make a record longer than 24 h (punched in at ${open.inTime.toISOString()}); an administrator corrects it`,
        );
      }
      await this.assertNoOverlap(em, employeeId, open.inTime, at, open.id);
      const before = { ...open };
      open.outTime = at;
      open.durationSeconds = Math.round((at.getTime() - open.inTime.getTime()) / 1000);
      if (dto.note !== undefined) open.note = dto.note;
      const saved = await repo.save(open);
      await ATTENDANCE_DAYS.change(em, before, saved);
      return toAttendanceDto(saved);
    });
  }

  async create(caller: AuthUser, dto: CreateAttendanceDto): Promise<AttendanceDto> {
    await this.access.visible(caller, dto.employee);
    const record = this.attendanceRecordRepo.create({
      employeeId: dto.employee,
      inTime: instant(dto.in_time),
      outTime: dto.out_time ? instant(dto.out_time) : null,
      note: dto.note ?? null,
      workFromHome: dto.work_from_home ?? false,
    });
    return this.write(record);
  }

  async update(caller: AuthUser, id: number, dto: UpdateAttendanceDto): Promise<AttendanceDto> {
    const record = await this.find(caller, id);
    if (dto.employee !== undefined) {
      await this.access.visible(caller, dto.employee);
      record.employeeId = dto.employee;
    }
    if (dto.in_time !== undefined) record.inTime = instant(dto.in_time);
    if (dto.out_time !== undefined) record.outTime = dto.out_time === null ? null : instant(dto.out_time);
    if (dto.note !== undefined) record.note = dto.note;
    if (dto.work_from_home !== undefined) record.workFromHome = dto.work_from_home;
    return this.write(record);
  }

  async remove(caller: AuthUser, id: number): Promise<{ id: number }> {
    const { employeeId } = await this.find(caller, id);
    await this.locked(employeeId, async (em) => {
      const before = await em.findOne(AttendanceRecord, { where: { id } });
      if (!before) return;
      await em.delete(AttendanceRecord, { id });
      await ATTENDANCE_DAYS.change(em, before, null);
      await recordAudit(em, {
        action: 'delete',
        resource: 'attendance',
        resourceId: id,
        employee: before.employeeId,
        before: toAttendanceDto(before),
      });
    });
    return { id };
  }

  async get(caller: AuthUser, id: number): Promise<AttendanceDto> {
    return toAttendanceDto(await this.find(caller, id));
  }

  /** docs/api/decisions.md §9, in one aggregate query. Months are UTC calendar months. */
  async summary(caller: AuthUser, employeeId: number, now = new Date()): Promise<AttendanceSummaryDto> {
    await this.access.visible(caller, employeeId);
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const summary = await this.repository.summary(employeeId, monthStart);
    const n = (k: keyof typeof summary) => summary[k];
    const hours = n('seconds') / 3600;
    return {
      total_records: n('records'),
      total_hours: round2(hours),
      this_month_records: n('thisMonth'),
      average_hours: n('closed') ? round2(hours / n('closed')) : 0,
      work_from_home_records: n('wfh'),
    };
  }

  /**
   * The instant of a punch: now by default; not in the future, and at most "Punch Back-dating Hours"
   * (default 24) in the past: older corrections are the maintenance routes' (POST/PUT /attendance).
   */
  private async punchTime(time: string | undefined): Promise<Date> {
    const at = instant(time);
    const now = Date.now();
    if (at.getTime() > now + FUTURE_SKEW_MS) throw ValidationException.field('time', 'must not be in the future');
    const hours = Number(await this.settings.get(PUNCH_BACKDATING_HOURS));
    if (at.getTime() < now - hours * 3_600_000) {
      throw ValidationException.field(
        'time',
        `must be at most ${hours} h in the past ("${PUNCH_BACKDATING_HOURS}"); an administrator corrects older records`,
      );
    }
    return at;
  }

  private async find(caller: AuthUser, id: number): Promise<AttendanceRecord> {
    const record = await this.attendanceRecordRepo.findOne({ where: { id } });
    if (!record) throw new NotFoundException('Attendance record');
    await this.access.visible(caller, record.employeeId).catch(() => {
      throw new NotFoundException('Attendance record');
    });
    return record;
  }

  /** Admin create/update: out after in, no overlap with the employee's other records, at most one open. */
  private async write(record: AttendanceRecord): Promise<AttendanceDto> {
    if (record.outTime && record.outTime.getTime() <= record.inTime.getTime())
      throw ValidationException.field('out_time', 'must be after in_time');
    if (record.outTime && record.outTime.getTime() - record.inTime.getTime() > MAX_SPAN_MS)
      throw ValidationException.field('out_time', 'must be at most 24 h after in_time');
    record.durationSeconds = record.outTime ? Math.round((record.outTime.getTime() - record.inTime.getTime()) / 1000) : null;
    return this.locked(record.employeeId, async (em) => {
      const repo = em.getRepository(AttendanceRecord);
      const others = record.id ? { id: Not(record.id) } : {};
      if (!record.outTime && (await repo.exists({ where: { employeeId: record.employeeId, outTime: IsNull(), ...others } }))) {
        throw new DomainException('ALREADY_PUNCHED_IN', 'The employee already has an open record');
      }
      await this.assertNoOverlap(em, record.employeeId, record.inTime, record.outTime, record.id);
      const before = record.id ? await repo.findOne({ where: { id: record.id } }) : null;
      if (record.id && !before) throw new NotFoundException('Attendance record');
      const saved = await repo.save(record);
      await ATTENDANCE_DAYS.change(em, before, saved);
      const view = toAttendanceDto(saved);
      // The maintenance routes' changes (punches are the employees' own records of time, not audited).
      await recordAudit(em, {
        action: before ? 'update' : 'create',
        resource: 'attendance',
        resourceId: saved.id,
        employee: saved.employeeId,
        before: before && toAttendanceDto(before),
        after: view,
      });
      return view;
    });
  }

  /** Records of the employee overlapping [start, end) — an open record counts as running on. */
  private async assertNoOverlap(
    em: EntityManager,
    employeeId: number,
    start: Date,
    end: Date | null,
    exceptId?: number,
  ): Promise<void> {
    if (await this.repository.overlaps(em, employeeId, start, end, exceptId))
      throw new DomainException('OVERLAPPING_ATTENDANCE', "The record overlaps another of the employee's records");
  }

  private locked<T>(employeeId: number, work: (em: EntityManager) => Promise<T>): Promise<T> {
    return withEmployeeLock(this.dataSource, employeeId, work);
  }
}
