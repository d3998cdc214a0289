import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PersonalData, underEmployees } from '../common/privacy/personal-data';
import { chunksOf, total } from '../common/privacy/retention';
import { Notification } from './entities/notification.entities';
import { replaceInText } from '../common/privacy/redact-sql';

/**
 * Notifications that name a person (issue 69): "Hugo Bauer submitted a leave request" in another
 * user's list or e-mail queue; the anonymisation replaces its personal values in their titles and
 * bodies by its new name.
 */
@Injectable()
export class NotificationsPersonalData {
  constructor(registry: PersonalData) {
    registry.register({
      name: 'notifications',
      order: 60,
      // The notifications sent to the employee's own users.
      export: (em, employeeId, out) =>
        out.lists('notifications.json', "the notifications to the employee's users", [
          {
            name: 'notifications',
            entity: Notification,
            where: { userId: underEmployees('users', [employeeId]) },
          },
        ]),
      anonymise: async (em, subject) => {
        await replaceInText(em, 'notifications', ['title', 'body'], subject);
        await replaceInText(em, 'notification_emails', ['title', 'body'], subject);
      },
    });
    // Both actions delete the notifications to the employee's users (messages to the person).
    registry.retain({
      category: 'notifications',
      description: "the notifications to the employee's users",
      count: (em, employeeIds) => this.count(em, employeeIds),
      apply: async (em, employeeIds) => {
        const records = total(await this.count(em, employeeIds));
        if (records)
          for (const ids of chunksOf(employeeIds))
            await em.getRepository(Notification).delete({ userId: underEmployees('users', ids) });
        return { records };
      },
    });
  }

  private async count(em: EntityManager, employeeIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const ids of chunksOf(employeeIds)) {
      const rows = await em
        .getRepository(Notification)
        .createQueryBuilder('n')
        .innerJoin('users', 'u', 'u.id = n.user_id')
        .select('u.employee_id', 'employee_id')
        .addSelect('COUNT(*)', 'n')
        .where('u.employee_id IN (:...ids)', { ids })
        .groupBy('u.employee_id')
        .getRawMany<{ employee_id: number | string; n: number | string }>();
      for (const r of rows) out.set(Number(r.employee_id), Number(r.n));
    }
    return out;
  }
}
