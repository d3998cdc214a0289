import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CalendarsService } from '../../calendars/calendars.service';
import { HolidaysService } from '../../calendars/holidays.service';
import { AuthUser } from '../../common/auth/auth-user';
import { CompanyClock } from '../../common/time/company-clock';
import { addDays, lastOfMonth } from '../../common/time/days';
import { dateOnly } from '../../leave/engine/calendar';
import { withEmployeeLock } from '../../employees/core/employee-lock';
import { Employee } from '../../employees/entities/employee.entity';
import { EmploymentHistoryWriter } from '../../employees/history/employment-history.writer';

/** The first day of the month after `day`'s. */
const nextMonth = (day: string) => addDays(lastOfMonth(day), 1);

/**
 * The demo's work calendars (issue 65, docs/api/calendars.md): the default calendar becomes
 * Germany's; Bavaria (DE-BY) with this year's and next year's public holidays from the dataset and
 * a company half day on Christmas Eve; Lyon (France) with its public holidays. Four employees move
 * to Bavaria and two to Lyon, and one of the Bavarians moves on to Lyon the month after
 * (a scheduled change).
 */
export async function seedDemoCalendars(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  const ds = app.get(DataSource);
  const calendars = app.get(CalendarsService);
  const holidays = app.get(HolidaysService);
  const writer = app.get(EmploymentHistoryWriter);
  const today = await app.get(CompanyClock).today();
  const year = Number(today.slice(0, 4));

  const home = await calendars.defaultCalendar();
  await calendars.update(home.id, { name: 'Germany', country: 'DE' });
  const bavaria = await calendars.create({ name: 'Bavaria', country: 'DE', subdivision: 'DE-BY' });
  const lyon = await calendars.create({ name: 'Lyon', country: 'FR' });
  for (const calendar of [bavaria, lyon]) for (const y of [year, year + 1]) await holidays.import(calendar.id, y, false);
  for (const y of [year, year + 1])
    if (!(await holidays.between(null, [bavaria.id], `${y}-12-24`, `${y}-12-24`)).length)
      await holidays.create(bavaria.id, {
        date: `${y}-12-24`,
        name: 'Heiligabend (afternoon off)',
        fraction: '0.5',
        kind: 'company',
      });

  // Each moves on the day after its last leave (today at the earliest), so that every leave day the
  // seed wrote stays counted by the calendar of its day.
  const lastLeave = new Map(
    (
      await ds.query<Array<{ employee_id: number | string; last: string | Date }>>(
        'SELECT employee_id, MAX(date_end) AS last FROM leave_requests GROUP BY employee_id',
      )
    ).map((r) => [Number(r.employee_id), dateOnly(r.last)]),
  );
  const from = (e: Employee) => {
    const after = lastLeave.has(e.id) ? addDays(lastLeave.get(e.id)!, 1) : today;
    return after > today ? after : today;
  };
  const active = (await ds.getRepository(Employee).find({ where: { status: 'Active' }, order: { id: 'ASC' } })).filter(
    (e) => e.joinedDate <= today,
  );
  const move = (e: Employee, day: string, calendar: number, reason: string) =>
    withEmployeeLock(ds, e.id, (em) =>
      writer.recordIn(em, e.id, { effectiveDate: day, reason, fields: { calendar }, salary: null }, actor.id),
    );
  const [mover, ...rest] = active.slice(-7);
  if (!mover) return;
  for (const e of [mover, ...rest.slice(0, 3)]) await move(e, from(e), bavaria.id, 'Munich office');
  for (const e of rest.slice(3, 5)) await move(e, from(e), lyon.id, 'Lyon office');
  await move(mover, nextMonth(from(mover)), lyon.id, 'Moves to the Lyon office');
}
