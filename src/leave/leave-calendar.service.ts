import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { leaveDaysOf, leaveDayValue, WorkingDay, workingTime } from '../calendars/working-days';
import { WorkingDaysService } from '../calendars/working-days.service';
import { LeaveRepository } from './leave.repository';

/** Leave counted over the employees' working days (the calendars' one rule), as requests and payroll read it. */
@Injectable()
export class LeaveCalendarService {
  constructor(
    private readonly repository: LeaveRepository,
    private readonly workingDays: WorkingDaysService,
  ) {}

  /**
   * The days a request of the employee from `start` to `end` takes: each working day of its
   * calendar that day, worth its working time (half of it at most for a half-day request).
   */
  async requestDays(
    em: EntityManager | null,
    employeeId: number,
    start: string,
    end: string,
    halfDay: boolean,
  ): Promise<Array<{ date: string; days: number }>> {
    const days = (await this.workingDays.ofEmployees([employeeId], start, end, em)).get(employeeId)!;
    return leaveDaysOf(days, start, end, halfDay);
  }

  /**
   * For payroll hooks: the approved requests falling from `from` to `to` (optionally one leave type)
   * with the working days each counts there. A request inside the range counts its days; one
   * crossing an edge counts the working time of the overlap by the employee's calendar.
   */
  async approvedLeaveDays(
    employeeIds: number[],
    from: string,
    to: string,
    leaveType?: number,
  ): Promise<Array<{ id: number; employee: number; days: number }>> {
    const requests = await this.repository.approvedOverlapping(employeeIds, from, to, leaveType);
    const crossing = requests.filter((l) => l.dateStart < from || l.dateEnd > to);
    const days: Map<number, readonly WorkingDay[]> = crossing.length
      ? await this.workingDays.ofEmployees([...new Set(crossing.map((l) => l.employeeId))], from, to)
      : new Map<number, readonly WorkingDay[]>();
    return requests.map((l) => {
      if (l.dateStart >= from && l.dateEnd <= to) return { id: l.id, employee: l.employeeId, days: l.days };
      const overlap = (days.get(l.employeeId) ?? []).filter((d) => d.date >= l.dateStart && d.date <= l.dateEnd);
      const taken = overlap.reduce((sum, d) => sum + leaveDayValue(d.fraction, l.halfDay), 0);
      return { id: l.id, employee: l.employeeId, days: l.halfDay ? taken : workingTime(overlap, from, to) };
    });
  }
}
