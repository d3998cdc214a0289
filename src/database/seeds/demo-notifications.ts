import { INestApplicationContext } from '@nestjs/common';
import { addDays } from '../../common/time/days';
import { CompanyClock } from '../../common/time/company-clock';
import { DataSource } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { Employee } from '../../employees/entities/employee.entity';
import { LeaveType } from '../../leave/entities/leave.entities';
import { LeaveRequestsService } from '../../leave/leave-requests.service';
import { OutboxRelay } from '../../common/outbox/outbox-relay';
import { NotificationTemplatesService } from '../../notifications/notification-templates.service';
import { RemindersService } from '../../notifications/reminders.service';
import { Task } from '../../tasks/entities/task.entity';
import { TasksService } from '../../tasks/tasks.service';
import { User } from '../../users/entities/user.entity';

export const asCaller = (u: User): AuthUser => ({
  id: u.id,
  username: u.username,
  email: u.email,
  level: u.userLevel,
  employeeId: u.employeeId,
  departmentIds: [],
  mustChangePassword: false,
  grantId: 'seed',
});

/** The weekday on or after `day` (YYYY-MM-DD). */
function weekday(day: Date): string {
  const d = new Date(day);
  while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * A few notifications for the demo users (issue 30), made the way the service makes them: the demo
 * employee asks for a day off (its manager is told) and gets another approved (it is told), and the
 * Admin gives it a task; the dispatcher then turns those events into notifications at once. Its
 * probation ends in two weeks (a reminder to its manager), and the task e-mail has a German variant. Leave
 * days are tried a week, two and three weeks ahead, the first free one taken (none near the end of
 * the leave period). Idempotent (the employee's task marks it done).
 */
export async function seedDemoNotifications(
  app: INestApplicationContext,
  users: { admin: User; manager: User; employee: User },
): Promise<void> {
  const ds = app.get(DataSource);
  // Seeded once: its own task for the demo employee marks it (other seeds' events notify people too).
  if (await ds.getRepository(Task).exists({ where: { userId: users.employee.id, source: 'manual' } })) return;
  const leaves = app.get(LeaveRequestsService);
  const annual = await ds.getRepository(LeaveType).findOne({ where: { name: 'Annual' } });
  const requested: number[] = [];
  for (const weeks of [1, 2, 3, 4, 5]) {
    if (!annual || requested.length === 2) break;
    const day = weekday(new Date(app.get(CompanyClock).now().getTime() + weeks * 7 * 86_400_000));
    try {
      requested.push(
        (await leaves.create(asCaller(users.employee), { leave_type: annual.id, date_start: day, date_end: day })).id,
      );
    } catch {
      // taken already, or past the leave period: the next week
    }
  }
  if (requested.length === 2) await leaves.decide(asCaller(users.manager), requested[1], 'Approved');
  await app.get(TasksService).create({
    user: users.employee.id,
    // A document type employees may upload themselves (the contract is HR's to upload: a task for it was a 403).
    title: 'Upload your first-aid certificate',
    description: 'Add it to your documents as a Certificate (a PDF or a photo of it).',
    priority: 'Normal',
    due_date: weekday(new Date(app.get(CompanyClock).now().getTime() + 14 * 86_400_000)),
  });
  await app.get(OutboxRelay).drain();
  // The demo employee's probation ends in two weeks: the reminders' job (run now) tells its manager and HR.
  if (users.employee.employeeId !== null) {
    const confirmation = addDays(await app.get(CompanyClock).today(), 14);
    await ds.getRepository(Employee).update({ id: users.employee.employeeId }, { confirmationDate: confirmation });
    await app.get(RemindersService).run();
  }
  // An Admin's German variant of the task e-mail: users whose language is de get it.
  await app.get(NotificationTemplatesService).create({
    kind: 'task.assigned',
    lang: 'de',
    subject: 'Neue Aufgabe: {{notification.title}}',
    html: '<p>Hallo {{recipient.name}},</p><p>{{notification.body}}</p><p><a href="{{notification.url}}">Öffnen</a></p>',
    text: 'Hallo {{recipient.name}},\n\n{{notification.body}}\n\n{{notification.url}}',
  });
}
