import { Injectable, OnModuleInit } from '@nestjs/common';
import { declareNotificationKinds } from '../common/outbox/notification-kinds';
import { DueReminder, RecipientRule, Reminders } from '../common/outbox/reactions';
import { addDays } from '../common/time/days';
import {
  REMINDER_ANNIVERSARIES,
  REMINDER_BIRTHDAYS,
  REMINDER_CONTRACT_DAYS,
  REMINDER_PROBATION_DAYS,
} from './employees.settings';
import { SettingsService } from '../settings/settings.service';
import { EmployeesRepository } from './core/employees.repository';

// Reminders of the daily job (settings Reminders: ... switch them on and say how early).
declareNotificationKinds({
  'reminder.birthday': { description: 'someone you manage has a birthday today', email: false, inApp: true },
  'reminder.anniversary': { description: 'someone you manage has a work anniversary today', email: false, inApp: true },
  'reminder.probation': { description: "an employee's probation ends soon", email: true, inApp: true },
  'reminder.contract': { description: "an employee's contract ends soon", email: true, inApp: true },
});

type Dated = Awaited<ReturnType<EmployeesRepository['withDateOn']>>[number];

/** The month-days celebrated on `date`: 29 February's on the 28th of a year without one. */
function monthDaysOf(date: string): string[] {
  const md = date.slice(5);
  const year = Number(date.slice(0, 4));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return md === '02-28' && !leap ? [md, '02-29'] : [md];
}

/** The users of the employee's supervisor (its manager). */
const managerOf = (e: Dated): RecipientRule[] => (e.supervisor === null ? [] : [{ usersOf: e.supervisor }]);

/**
 * The employees' date reminders (issue 30, declared here since issue 42): birthdays and work
 * anniversaries to the manager (opt-in settings), the end of probation and of a contract to the
 * manager and HR N days ahead (settings).
 */
@Injectable()
export class EmployeesReminders implements OnModuleInit {
  constructor(
    private readonly reminders: Reminders,
    private readonly employees: EmployeesRepository,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.reminders.declare(
      'employees',
      ['reminder.birthday', 'reminder.anniversary', 'reminder.probation', 'reminder.contract'],
      (today) => this.due(today),
    );
  }

  async due(today: string): Promise<DueReminder[]> {
    const items: DueReminder[] = [];
    const item = (kind: string, e: Dated, title: string, body: string, to: RecipientRule[]): DueReminder => ({
      kind,
      to,
      title,
      body,
      link: `/employees/${e.id}`,
      sourceKey: `reminder:${kind}:${e.id}:${today}`,
    });
    if ((await this.settings.get(REMINDER_BIRTHDAYS)) === 'Yes')
      for (const e of await this.employees.withDateOn('birthday', { monthDays: monthDaysOf(today) }))
        items.push(item('reminder.birthday', e, `${e.name}'s birthday`, `${e.name} has a birthday today.`, managerOf(e)));
    if ((await this.settings.get(REMINDER_ANNIVERSARIES)) === 'Yes')
      for (const e of await this.employees.withDateOn('joined_date', { monthDays: monthDaysOf(today) })) {
        if (e.date >= today) continue;
        const years = Number(today.slice(0, 4)) - Number(e.date.slice(0, 4));
        const span = years === 1 ? 'one year' : `${years} years`;
        items.push(
          item(
            'reminder.anniversary',
            e,
            `${e.name}: ${span} at the company`,
            `${e.name} joined ${span} ago today (${e.date}).`,
            managerOf(e),
          ),
        );
      }
    for (const [setting, field, kind, what] of [
      [REMINDER_PROBATION_DAYS, 'confirmation_date', 'reminder.probation', 'probation'],
      [REMINDER_CONTRACT_DAYS, 'termination_date', 'reminder.contract', 'contract'],
    ] as const) {
      const days = Number(await this.settings.get(setting));
      if (!days) continue;
      for (const e of await this.employees.withDateOn(field, { date: addDays(today, days) }))
        items.push(
          item(
            kind,
            e,
            `The ${what} of ${e.name} ends on ${e.date}`,
            what === 'probation'
              ? `The probation of ${e.name} ends in ${days} days (${e.date}): confirm the employment or extend the probation.`
              : `The contract of ${e.name} ends in ${days} days (${e.date}): renew it or prepare the leaving.`,
            [...managerOf(e), { hrOfDepartment: e.department }],
          ),
        );
    }
    return items;
  }
}
