import { Injectable } from '@nestjs/common';
import { PersonalData } from '../common/privacy/personal-data';
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
      anonymise: async (em, subject) => {
        await replaceInText(em, 'notifications', ['title', 'body'], subject);
        await replaceInText(em, 'notification_emails', ['title', 'body'], subject);
      },
    });
  }
}
