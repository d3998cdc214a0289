import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { ComposedMail, MailOutbox } from '../mail/outbox/mail-outbox.service';
import { COMPANY_NAME } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import { NotificationEmail } from './entities/notification.entities';
import { NotificationEmailsRepository } from './notification-emails.repository';
import { DIGEST_KIND, renderTemplate, TemplateParts } from './notification-templates';
import { NotificationTemplatesService } from './notification-templates.service';

/** The mail outbox's purpose of notification e-mails and digests; the ref is the claim's key (`email:<id>`, `digest:<user>:<uuid>`). */
export const NOTIFICATION_MAIL = 'notification';
/** Queues the e-mails and digests that are due, every NOTIFICATION_EMAIL_SWEEP_MS. */
export const NOTIFICATION_EMAILS_JOB = defineJob<Record<string, never>>('schedule', 'notification-emails');

/** Rows one sweep queues at most. */
const SWEEP_LIMIT = 2000;
/** Claims (an immediate e-mail, a user's digest) made and queued in one transaction. */
const CLAIM_BATCH = 500;

/**
 * Notification e-mails (issue 30), a kind of the mail outbox (issue 42). Each due row is claimed
 * (`sending`, under a key) in the transaction that queues its outgoing e-mail; a digest claims all
 * the user's due items under one key, one e-mail. The outbox sends each at most once (`unknown`
 * after a crash mid-send) and its outcome settles the rows claimed under the key. Every e-mail links
 * to its record and carries List-Unsubscribe pointing to the user's preferences.
 */
@Injectable()
export class NotificationMailer implements OnModuleInit {
  private readonly logger = new Logger('NotificationMail');
  /** Where people open the API (PUBLIC_URL holds the base path): the records' links start here. */
  private readonly apiRoot: string;
  /** The preferences, linked from every e-mail and its List-Unsubscribe header. */
  private readonly preferencesUrl: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: NotificationEmailsRepository,
    private readonly templates: NotificationTemplatesService,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    private readonly outbox: MailOutbox,
    private readonly jobs: JobQueue,
  ) {
    this.apiRoot = `${config.publicUrl}/app/api`;
    this.preferencesUrl = `${this.apiRoot}/users/me/notification-preferences`;
  }

  onModuleInit(): void {
    this.outbox.define(NOTIFICATION_MAIL, {
      compose: (mail) => this.compose(mail.ref),
      settled: (em, outcome) => this.repository.settle(em, outcome.ref, outcome.status, outcome.error),
    });
    this.jobs.register(NOTIFICATION_EMAILS_JOB, async () => {
      await this.sweep().catch((err: Error) => this.logger.warn(`e-mail sweep failed: ${err.message}`));
    });
    void this.jobs.schedule(NOTIFICATION_EMAILS_JOB, this.config.notifications.emailSweepMs);
  }

  /** Whether e-mails can be sent here (SMTP_URL); without, none are owed. */
  get enabled(): boolean {
    return this.outbox.enabled;
  }

  /** Queues what is due: each immediate e-mail, and one digest per user. The number of e-mails queued. */
  async sweep(now = new Date()): Promise<number> {
    if (!this.enabled) return 0;
    const immediate = (await this.repository.dueImmediate(now, SWEEP_LIMIT)).map((id) => {
      const key = `email:${id}`;
      return { key, claim: (em: EntityManager) => this.repository.claimOne(em, id, key) };
    });
    // A key of its own per digest: a second sweep finds the items claimed and queues nothing.
    const digests = (await this.repository.dueDigestUsers(now, SWEEP_LIMIT)).map((userId) => {
      const key = `digest:${userId}:${randomUUID()}`;
      return { key, claim: async (em: EntityManager) => (await this.repository.claimDigest(em, userId, now, key)) > 0 };
    });
    return this.claimAndQueue([...immediate, ...digests]);
  }

  /**
   * Claims rows under each key and queues one e-mail per key that claimed any, CLAIM_BATCH keys a
   * transaction (a concurrent sweep's claim of the same rows finds them taken); then sends them.
   */
  private async claimAndQueue(claims: Array<{ key: string; claim: (em: EntityManager) => Promise<boolean> }>): Promise<number> {
    const keys: string[] = [];
    for (let i = 0; i < claims.length; i += CLAIM_BATCH)
      keys.push(
        ...(await transaction(this.ds, async (em) => {
          const claimed: string[] = [];
          for (const { key, claim } of claims.slice(i, i + CLAIM_BATCH)) if (await claim(em)) claimed.push(key);
          await this.outbox.enqueue(
            em,
            claimed.map((ref) => ({ purpose: NOTIFICATION_MAIL, ref })),
          );
          return claimed;
        })),
      );
    await this.outbox.dispatch(await this.outbox.queuedOf(NOTIFICATION_MAIL, keys));
    return keys.length;
  }

  /** The e-mail of the rows claimed under `key`: one notification, or a digest of them. */
  async compose(key: string): Promise<ComposedMail | { skip: string }> {
    const rows = (await this.repository.claimed(key)).filter((e) => e.status === 'sending');
    if (!rows.length) return { skip: 'nothing claimed under this key is left to send' };
    const userId = rows[0].userId;
    const recipient = (await this.users.mailRecipientsOf([userId])).get(userId);
    if (!recipient) return { skip: 'the user is inactive or deleted' };
    const message = await this.render(rows, recipient, key.startsWith('digest:'));
    return { to: recipient.email, ...message, headers: { 'List-Unsubscribe': `<${this.preferencesUrl}>` } };
  }

  private async render(
    rows: NotificationEmail[],
    recipient: { username: string; lang: string | null; name: string },
    digest: boolean,
  ): Promise<TemplateParts> {
    const base = {
      recipient: { name: recipient.name, username: recipient.username },
      company: { name: await this.settings.get(COMPANY_NAME) },
      preferences_url: this.preferencesUrl,
    };
    const item = (e: NotificationEmail) => ({
      kind: e.kind,
      title: e.title,
      body: e.body,
      url: e.link ? `${this.apiRoot}${e.link}` : '',
      created_at: e.createdAt.toISOString(),
    });
    if (!digest) {
      const template = await this.templates.templateFor(rows[0].kind, recipient.lang);
      return renderTemplate(template, { ...base, notification: item(rows[0]) });
    }
    const template = await this.templates.templateFor(DIGEST_KIND, recipient.lang);
    return renderTemplate(template, { ...base, count: rows.length, items: rows.map(item) });
  }
}
