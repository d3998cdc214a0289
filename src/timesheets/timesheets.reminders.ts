import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { DueReminder, Reminders } from '../common/outbox/reactions';
import { addDays } from '../common/time/days';
import { REMINDER_TIMESHEETS } from './timesheets.settings';
import { SettingsService } from '../settings/settings.service';
import { TimesheetsRepository } from './timesheets.repository';

declareNotificationKinds({
  'reminder.timesheet': { description: 'you submitted no time entries last week', email: true, inApp: true },
});

/** On Mondays, last week's missing time entries, to the employee (issue 30; declared here since issue 42). */
@Injectable()
export class TimesheetsReminders implements OnModuleInit {
  constructor(
    private readonly reminders: Reminders,
    private readonly timesheets: TimesheetsRepository,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.reminders.declare('timesheets', ['reminder.timesheet'], (today) => this.due(today));
  }

  async due(today: string): Promise<DueReminder[]> {
    if (new Date(`${today}T00:00:00Z`).getUTCDay() !== 1 || (await this.settings.get(REMINDER_TIMESHEETS)) !== 'Yes') return [];
    const weekStart = addDays(today, -7);
    const weekEnd = addDays(today, -1);
    const silent = await this.timesheets.silentProjectWorkers(addDays(today, -28), weekStart, weekEnd);
    return silent.map((employee) => ({
      kind: 'reminder.timesheet',
      to: [{ usersOf: employee }],
      title: 'No time entries last week',
      body: `You submitted no time entries for the week of ${weekStart} to ${weekEnd}. Enter and submit them.`,
      link: '/timesheets',
      sourceKey: `reminder:reminder.timesheet:${employee}:${weekStart}`,
    }));
  }
}
