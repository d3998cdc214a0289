import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob, JobContext } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MailService, permanentSmtpFailure, smtpFailureReason } from '../mail/mail.service';
import { TemplateRenderError } from '../common/template/template';
import { COMPANY_NAME } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import { NotificationEmail } from './entities/notification.entities';
import { NotificationEmailsRepository } from './notification-emails.repository';
import { DIGEST_KIND, renderTemplate, TemplateParts } from './notification-templates';
import { NotificationTemplatesService } from './notification-templates.service';

/** One notification's e-mail; 5 attempts, the first retry after MAIL_RETRY_BACKOFF_MS, doubling. */
export const NOTIFICATION_EMAIL_JOB = defineJob<{ id: number }>('mail', 'notification', undefined, (d) => ({ email: d.id }));
/** One user's digest of the items due. */
export const NOTIFICATION_DIGEST_JOB = defineJob<{ userId: number; key: string }>(
  'mail',
  'notification-digest',
  undefined,
  (d) => ({
    user: d.userId,
  }),
);
/** Queues the e-mails and digests that are due, every NOTIFICATION_EMAIL_SWEEP_MS. */
export const NOTIFICATION_EMAILS_JOB = defineJob<Record<string, never>>('schedule', 'notification-emails');

/** Rows one sweep queues at most. */
const SWEEP_LIMIT = 2000;

/**
 * Notification e-mails (issue 30). Each row is claimed (`sending`, committed, under a key) before
 * the SMTP call and settled after it, so one event reaches one user's inbox once whatever the
 * retries; an attempt that finds its rows still `sending` (its process died mid-call) marks them
 * `unknown` and sends nothing. A digest claims all the user's due items under one key and sends
 * them as one e-mail. Every e-mail links to its record and carries List-Unsubscribe pointing to the
 * user's preferences.
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
    private readonly repository: NotificationEmailsRepository,
    private readonly templates: NotificationTemplatesService,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly jobs: JobQueue,
  ) {
    this.apiRoot = `${config.publicUrl}/app/api`;
    this.preferencesUrl = `${this.apiRoot}/users/me/notification-preferences`;
  }

  onModuleInit(): void {
    const retry = { attempts: 5, backoffMs: this.config.mailRetryBackoffMs };
    this.jobs.register(NOTIFICATION_EMAIL_JOB, (data, ctx) => this.sendOne(data.id, ctx), retry);
    this.jobs.register(NOTIFICATION_DIGEST_JOB, (data, ctx) => this.sendDigest(data.userId, data.key, ctx), retry);
    this.jobs.register(NOTIFICATION_EMAILS_JOB, async () => {
      await this.sweep().catch((err: Error) => this.logger.warn(`e-mail sweep failed: ${err.message}`));
    });
    void this.jobs.schedule(NOTIFICATION_EMAILS_JOB, this.config.notifications.emailSweepMs);
  }

  /** Whether e-mails can be sent here (SMTP_URL); without, none are owed. */
  get enabled(): boolean {
    return this.mail.enabled;
  }

  /** Queues what is due: each immediate e-mail, and one digest per user. The number of jobs queued. */
  async sweep(now = new Date()): Promise<number> {
    if (!this.mail.enabled) return 0;
    const due = await this.repository.dueImmediate(now, SWEEP_LIMIT);
    await this.queueImmediate(due);
    const users = await this.repository.dueDigestUsers(now, SWEEP_LIMIT);
    // A key of its own per digest job: a second job for the same user claims nothing and does nothing.
    for (const userId of users) {
      const key = `digest:${userId}:${randomUUID()}`;
      await this.jobs.add(NOTIFICATION_DIGEST_JOB, { userId, key }, { jobId: key });
    }
    return due.length + users.length;
  }

  /** Queues the e-mails of these rows (the dispatcher's fast path; the sweep catches what it missed). */
  async queueImmediate(due: Array<{ id: number; sourceKey: string }>): Promise<void> {
    if (!this.mail.enabled) return;
    // The job id names the row and its source (an event's UUID): a row waiting in the queue is not
    // queued twice, and a finished job of another database behind the same QUEUE_PREFIX (a reset,
    // a test suite) never hides a new row that has its id.
    for (const { id, sourceKey } of due)
      await this.jobs.add(NOTIFICATION_EMAIL_JOB, { id }, { jobId: `notification-email:${id}:${sourceKey}` });
  }

  async sendOne(id: number, ctx: JobContext): Promise<void> {
    const key = `email:${id}`;
    if (!(await this.repository.claimOne(id, key))) {
      await this.unknownIfStuck(key);
      return;
    }
    await this.send(key, ctx, false);
  }

  async sendDigest(userId: number, key: string, ctx: JobContext): Promise<void> {
    // A retry claims under the same key: what an earlier attempt requeued is claimed again.
    if (!(await this.repository.claimDigest(userId, new Date(), key))) {
      await this.unknownIfStuck(key);
      return;
    }
    await this.send(key, ctx, true);
  }

  /** Rows still `sending` under `key` when their job runs again: their process stopped around the SMTP call. */
  private async unknownIfStuck(key: string): Promise<void> {
    const stuck = (await this.repository.claimed(key)).filter((e) => e.status === 'sending');
    if (stuck.length)
      await this.repository.settle(
        key,
        'unknown',
        'the sending process stopped during the SMTP call: the e-mail may or may not have arrived',
      );
  }

  private async send(key: string, ctx: JobContext, digest: boolean): Promise<void> {
    const rows = (await this.repository.claimed(key)).filter((e) => e.status === 'sending');
    if (!rows.length) return;
    const userId = rows[0].userId;
    const recipient = (await this.users.mailRecipientsOf([userId])).get(userId);
    if (!recipient) {
      await this.repository.settle(key, 'failed', 'the user is inactive or deleted');
      return;
    }
    let message: TemplateParts;
    try {
      message = await this.render(rows, recipient, digest);
    } catch (err) {
      if (!(err instanceof TemplateRenderError)) throw err;
      await this.repository.settle(key, 'failed', `the template could not be rendered: ${err.message}`);
      return;
    }
    try {
      await this.mail.send({
        to: recipient.email,
        ...message,
        headers: { 'List-Unsubscribe': `<${this.preferencesUrl}>` },
      });
    } catch (err) {
      const reason = smtpFailureReason(err);
      if (permanentSmtpFailure(err) || ctx.attempt >= ctx.attempts) {
        await this.repository.settle(key, 'failed', reason);
        this.logger.warn(`notification e-mail ${key} failed for good (attempt ${ctx.attempt}/${ctx.attempts}): ${reason}`);
        return;
      }
      await this.repository.requeue(key, reason);
      throw err;
    }
    await this.repository.settle(key, 'sent', null);
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
