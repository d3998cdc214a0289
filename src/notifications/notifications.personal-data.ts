import { Injectable } from '@nestjs/common';
import { Raw } from 'typeorm';
import { PersonalData } from '../common/privacy/personal-data';
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
            where: {
              userId: Raw((column) => `${column} IN (SELECT id FROM users WHERE employee_id = :employeeId)`, { employeeId }),
            },
          },
        ]),
      anonymise: async (em, subject) => {
        await replaceInText(em, 'notifications', ['title', 'body'], subject);
        await replaceInText(em, 'notification_emails', ['title', 'body'], subject);
      },
    });
  }
}
