import { Injectable, OnModuleInit } from '@nestjs/common';
import { CalendarsService } from '../../calendars/calendars.service';
import { WorkingDaysService } from '../../calendars/working-days.service';
import { EmploymentHistoryRepository } from './employment-history.repository';

/**
 * `calendar` as a dated field (issue 65 item 3): tells the calendars which calendar each employee
 * had on each day (the working days) and how many employees use a calendar (its deletion).
 */
@Injectable()
export class EmployeeCalendars implements OnModuleInit {
  constructor(
    private readonly repository: EmploymentHistoryRepository,
    private readonly workingDays: WorkingDaysService,
    private readonly calendars: CalendarsService,
  ) {}

  onModuleInit(): void {
    this.workingDays.readSpansWith((em, ids, from, to) => this.repository.calendarSpans(em, ids, from, to));
    this.calendars.countUsersWith((em, id) => this.repository.calendarUsers(em, id));
  }
}
