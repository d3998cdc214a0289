import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Notification } from './entities/notification.entities';
import { NewNotificationEmail, NotificationEmailsRepository } from './notification-emails.repository';
import { NotificationMailer } from './notification-mailer.service';
import { NotificationsHub } from './notifications-hub.service';
import { NotificationsRepository } from './notifications.repository';
import { nextLocalHour, PreferencesService } from './preferences.service';

const HOUR = 3_600_000;

/** A notification to write: its kind, its recipients (before their preferences), its text and its source. */
export interface OutgoingNotification {
  kind: string;
  userIds: number[];
  title: string;
  body: string;
  /** An API path under the prefix (`/leaves/5`). */
  link: string | null;
  /** What made it (`event:<id>`, `reminder:<kind>:<employee>:<date>`): one notification and e-mail per source and user. */
  sourceKey: string;
}

/** What a write made: the new in-app notifications and how many e-mails go at once. */
export interface Written {
  created: Notification[];
  immediate: number;
}
export const NOTHING_WRITTEN: Written = { created: [], immediate: 0 };

/** An e-mail a user is owed, before its time is planned. */
type EmailPlan = Omit<NewNotificationEmail, 'mode' | 'dueAt' | 'createdAt'> & { frequency: 'immediate' | 'daily' };

/**
 * Writes notifications in the caller's transaction, per recipient's preferences: the feed's rows
 * and the e-mails owed (both unique per source and user, so a source written twice notifies once);
 * after the commit, `committed` tells the open streams and queues the e-mails due now.
 */
@Injectable()
export class NotificationWriter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: NotificationsRepository,
    private readonly emails: NotificationEmailsRepository,
    private readonly preferences: PreferencesService,
    private readonly hub: NotificationsHub,
    private readonly mailer: NotificationMailer,
  ) {}

  async write(em: EntityManager, items: OutgoingNotification[]): Promise<Written> {
    if (!items.length) return NOTHING_WRITTEN;
    const rows: Array<Pick<Notification, 'userId' | 'kind' | 'title' | 'body' | 'link' | 'sourceKey'>> = [];
    const emails: EmailPlan[] = [];
    for (const { userIds, ...common } of items) {
      // Without a mail transport no e-mail is owed (none would ever be sent, nor sent late once one is set).
      const to = await this.preferences.recipients(common.kind, [...new Set(userIds)], this.mailer.enabled);
      for (const userId of to.inApp) rows.push({ userId, ...common });
      for (const [userId, frequency] of to.email) emails.push({ userId, frequency, ...common });
    }
    const created = await this.repository.insert(em, rows);
    const planned = await this.planEmails(em, emails, new Date());
    await this.emails.insert(em, planned);
    return { created, immediate: planned.filter((e) => e.mode === 'immediate').length };
  }

  /** After the write's commit: the streams hear of the new notifications, the e-mails due now are queued. */
  async committed(written: Written): Promise<void> {
    if (written.created.length) await this.hub.publish(written.created.map((n) => ({ id: n.id, userId: n.userId })));
    if (written.immediate) await this.mailer.sweep();
  }

  /**
   * When each e-mail goes: a daily one with the user's next digest (its hour in its time zone);
   * an immediate one alone, unless the user already had NOTIFICATION_EMAILS_PER_HOUR in the last
   * hour: then it joins the user's pending digest (or starts one, an hour later). A burst of 500
   * approvals to one manager is 20 e-mails and a digest, not 500 e-mails.
   */
  private async planEmails(em: EntityManager, plans: EmailPlan[], now: Date): Promise<NewNotificationEmail[]> {
    if (!plans.length) return [];
    const users = [...new Set(plans.map((p) => p.userId))];
    const sent = await this.emails.immediateSince(em, users, new Date(now.getTime() - HOUR));
    const pending = await this.emails.pendingDigests(em, users);
    const times = await this.preferences.digestTimes([
      ...new Set(plans.filter((p) => p.frequency === 'daily').map((p) => p.userId)),
    ]);
    const limit = this.config.notifications.emailsPerHour;
    return plans.map(({ frequency, ...p }) => {
      if (frequency === 'daily') {
        const at = times.get(p.userId)!;
        return { ...p, mode: 'digest', dueAt: nextLocalHour(now, at.hour, at.timeZone), createdAt: now };
      }
      const count = sent.get(p.userId) ?? 0;
      if (count < limit) {
        sent.set(p.userId, count + 1);
        return { ...p, mode: 'immediate', dueAt: now, createdAt: now };
      }
      let due = pending.get(p.userId);
      if (!due || due.getTime() > now.getTime() + HOUR) {
        due = new Date(now.getTime() + HOUR);
        pending.set(p.userId, due);
      }
      return { ...p, mode: 'digest', dueAt: due, createdAt: now };
    });
  }
}
