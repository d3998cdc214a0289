import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MailOutbox } from '../mail/outbox/mail-outbox.service';

export type EmailStatus = 'sent' | 'not_sent' | 'none';

/** The mail outbox's purpose of welcome e-mails (WelcomeMailKind); the ref is the user's id. */
export const WELCOME_MAIL = 'welcome';

/** Queues a new user's welcome e-mail in the mail outbox and reports its first attempt. */
@Injectable()
export class WelcomeMailService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly outbox: MailOutbox,
  ) {}

  /** False without SMTP_URL: no e-mail is queued and the e-mail status is `none`. */
  get enabled(): boolean {
    return this.outbox.enabled;
  }

  /** Queues the e-mail with `em`, the transaction that makes the user: both or neither. */
  async queue(em: EntityManager, userId: number): Promise<void> {
    if (this.enabled) await this.outbox.enqueue(em, [{ purpose: WELCOME_MAIL, ref: String(userId), requestId: randomUUID() }]);
  }

  /**
   * Sends what `queue` queued (after the commit) and waits up to MAIL_STATUS_WAIT_MS for the first
   * attempt: `sent` when the SMTP server accepted it; `not_sent` when it failed or did not finish in
   * time (it is retried); `none` without a mail transport.
   */
  async send(userId: number): Promise<EmailStatus> {
    if (!this.enabled) return 'none';
    const queued = await this.outbox.queuedOf(WELCOME_MAIL, [String(userId)]);
    const [job] = await this.outbox.dispatch(queued);
    if (!job) return 'not_sent';
    await job.firstAttempt(this.config.mailStatusWaitMs);
    return (await this.outbox.one(queued[0].id))?.status === 'sent' ? 'sent' : 'not_sent';
  }
}
