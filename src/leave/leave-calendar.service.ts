import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Between, Repository } from 'typeorm';
import { WORK_WEEK } from './leave.settings';
import { SettingsService } from '../settings/settings.service';
import { Holiday } from './entities/leave.entities';
import { LeaveRepository } from './leave.repository';
import { parseWorkWeek, workingDays } from './working-days';

/** The company's working days and the approved leave over them, as payroll reads them. */
@Injectable()
export class LeaveCalendarService {
  constructor(
    @InjectRepository(Holiday) private readonly holidayRepo: Repository<Holiday>,
    private readonly repository: LeaveRepository,
    private readonly settings: SettingsService,
  ) {}

  /** The company's work week (JavaScript weekdays, Sunday 0) and its holidays within [from, to]: what working days are counted by. */
  async calendar(from: string, to: string): Promise<{ workWeek: Set<number>; holidays: Set<string> }> {
    const workWeek = parseWorkWeek(await this.settings.get(WORK_WEEK));
    const holidays = new Set((await this.holidayRepo.find({ where: { date: Between(from, to) } })).map((h) => h.date));
    return { workWeek, holidays };
  }

  /**
   * For payroll hooks: the approved requests falling from `from` to `to` (optionally one leave type)
   * with the working days each counts there. A request inside the range counts its days; one
   * crossing an edge counts the working days of the overlap (half days 0.5).
   */
  async approvedLeaveDays(
    employeeIds: number[],
    from: string,
    to: string,
    leaveType?: number,
  ): Promise<Array<{ id: number; employee: number; days: number }>> {
    const { workWeek, holidays } = await this.calendar(from, to);
    return (await this.repository.approvedOverlapping(employeeIds, from, to, leaveType)).map((l) => ({
      id: l.id,
      employee: l.employeeId,
      days:
        l.dateStart >= from && l.dateEnd <= to
          ? l.days
          : workingDays(l.dateStart < from ? from : l.dateStart, l.dateEnd > to ? to : l.dateEnd, workWeek, holidays).length *
            (l.halfDay ? 0.5 : 1),
    }));
  }
}
