import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { addDays } from '../documents/document-status';
import { EmployeesRepository } from '../employees/employees.repository';
import { ReferenceService } from '../reference/reference.service';
import {
  REMINDER_ANNIVERSARIES,
  REMINDER_BIRTHDAYS,
  REMINDER_CONTRACT_DAYS,
  REMINDER_PROBATION_DAYS,
  REMINDER_TIMESHEETS,
  TIME_ZONE,
} from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { TimesheetsRepository } from '../timesheets/timesheets.repository';
import { UsersService } from '../users/users.service';
import { NotificationWriter, OutgoingNotification } from './notification-writer.service';
import { knownTimeZone } from './preferences.service';

/** The reminders of the day, hourly: the first run of a day in the company's time zone writes them, the rest find them written. */
export const NOTIFICATION_REMINDERS_JOB = defineJob<Record<string, never>>('schedule', 'notification-reminders');
const REMINDERS_EVERY_MS = 3_600_000;

/** 'YYYY-MM-DD' of `now` on the clocks of `timeZone`. */
export function localDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The month-days celebrated on `date`: 29 February's on the 28th of a year without one. */
function monthDaysOf(date: string): string[] {
  const md = date.slice(5);
  const year = Number(date.slice(0, 4));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return md === '02-28' && !leap ? [md, '02-29'] : [md];
}

type Dated = Awaited<ReturnType<EmployeesRepository['withDateOn']>>[number];

/**
 * Date reminders (issue 30), written as notifications by a job that runs hourly: birthdays and
 * work anniversaries to the manager (opt-in settings), the end of probation and of a contract to
 * the manager and HR N days ahead (settings), and on Mondays a missing week of time entries to the
 * employee. Each is keyed by its kind, employee and day: it fires once on its day, whatever the
 * number of runs or workers.
 */
@Injectable()
export class RemindersService implements OnModuleInit {
  private readonly logger = new Logger('Reminders');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
    private readonly timesheets: TimesheetsRepository,
    private readonly users: UsersService,
    private readonly reference: ReferenceService,
    private readonly settings: SettingsService,
    private readonly writer: NotificationWriter,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(NOTIFICATION_REMINDERS_JOB, async () => {
      await this.run().catch((err: Error) => this.logger.warn(`reminders failed: ${err.message}`));
    });
    void this.jobs.schedule(NOTIFICATION_REMINDERS_JOB, REMINDERS_EVERY_MS, 60_000);
  }

  /** Writes the reminders of the company's day at `now` (those already written stay single); how many it found. */
  async run(now = new Date()): Promise<number> {
    const today = localDate(now, knownTimeZone(await this.settings.get(TIME_ZONE)) ?? 'UTC');
    const items: OutgoingNotification[] = [];
    const managers = new Managers(this.users);
    const hr = new Map<number | null, Promise<number[]>>();
    const hrOf = (department: number | null) => {
      if (!hr.has(department))
        hr.set(
          department,
          department === null
            ? this.users.adminIds()
            : this.reference.ancestors(department).then((a) => this.users.administratorsOf(a)),
        );
      return hr.get(department)!;
    };
    const item = (kind: string, e: Dated, title: string, body: string, userIds: number[]): OutgoingNotification => ({
      kind,
      userIds,
      title,
      body,
      link: `/employees/${e.id}`,
      sourceKey: `reminder:${kind}:${e.id}:${today}`,
    });

    if ((await this.settings.get(REMINDER_BIRTHDAYS)) === 'Yes') {
      const found = await this.employees.withDateOn('birthday', { monthDays: monthDaysOf(today) });
      await managers.load(found);
      for (const e of found)
        items.push(item('reminder.birthday', e, `${e.name}'s birthday`, `${e.name} has a birthday today.`, managers.of(e)));
    }
    if ((await this.settings.get(REMINDER_ANNIVERSARIES)) === 'Yes') {
      const found = (await this.employees.withDateOn('joined_date', { monthDays: monthDaysOf(today) })).filter(
        (e) => e.date < today,
      );
      await managers.load(found);
      for (const e of found) {
        const years = Number(today.slice(0, 4)) - Number(e.date.slice(0, 4));
        const span = years === 1 ? 'one year' : `${years} years`;
        items.push(
          item(
            'reminder.anniversary',
            e,
            `${e.name}: ${span} at the company`,
            `${e.name} joined ${span} ago today (${e.date}).`,
            managers.of(e),
          ),
        );
      }
    }
    for (const [setting, field, kind, what] of [
      [REMINDER_PROBATION_DAYS, 'confirmation_date', 'reminder.probation', 'probation'],
      [REMINDER_CONTRACT_DAYS, 'termination_date', 'reminder.contract', 'contract'],
    ] as const) {
      const days = Number(await this.settings.get(setting));
      if (!days) continue;
      const found = await this.employees.withDateOn(field, { date: addDays(today, days) });
      await managers.load(found);
      for (const e of found)
        items.push(
          item(
            kind,
            e,
            `The ${what} of ${e.name} ends on ${e.date}`,
            what === 'probation'
              ? `The probation of ${e.name} ends in ${days} days (${e.date}): confirm the employment or extend the probation.`
              : `The contract of ${e.name} ends in ${days} days (${e.date}): renew it or prepare the leaving.`,
            [...managers.of(e), ...(await hrOf(e.department))],
          ),
        );
    }
    // Mondays: last week's missing time entries, to the employee.
    if (new Date(`${today}T00:00:00Z`).getUTCDay() === 1 && (await this.settings.get(REMINDER_TIMESHEETS)) === 'Yes') {
      const weekStart = addDays(today, -7);
      const weekEnd = addDays(today, -1);
      const silent = await this.timesheets.silentProjectWorkers(addDays(today, -28), weekStart, weekEnd);
      const users = await this.users.usersOfEmployees(silent);
      for (const u of users)
        items.push({
          kind: 'reminder.timesheet',
          userIds: [u.user],
          title: 'No time entries last week',
          body: `You submitted no time entries for the week of ${weekStart} to ${weekEnd}. Enter and submit them.`,
          link: '/timesheets',
          sourceKey: `reminder:reminder.timesheet:${u.employee}:${weekStart}`,
        });
    }
    const written = await transaction(this.ds, (em) => this.writer.write(em, items));
    await this.writer.committed(written);
    return items.length;
  }
}

/** The users of employees' supervisors, read once per run for all of them. */
class Managers {
  private readonly bySupervisor = new Map<number, number[]>();

  constructor(private readonly users: UsersService) {}

  async load(employees: Dated[]): Promise<void> {
    const missing = [...new Set(employees.flatMap((e) => (e.supervisor === null ? [] : [e.supervisor])))].filter(
      (s) => !this.bySupervisor.has(s),
    );
    for (const s of missing) this.bySupervisor.set(s, []);
    for (const u of await this.users.usersOfEmployees(missing)) this.bySupervisor.get(u.employee)!.push(u.user);
  }

  of(e: Dated): number[] {
    return e.supervisor === null ? [] : (this.bySupervisor.get(e.supervisor) ?? []);
  }
}
