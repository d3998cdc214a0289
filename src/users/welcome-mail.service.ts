import { Inject, Injectable } from '@nestjs/common';
import { JobQueue } from '../common/queue/job-queue.service';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { MailService } from '../mail/mail.service';
import { WELCOME_MAIL_JOB } from './welcome-mail.processor';

export type EmailStatus = 'sent' | 'not_sent' | 'none';

/** Queues a new user's welcome e-mail (WelcomeMailProcessor sends it) and reports the first attempt. */
@Injectable()
export class WelcomeMailService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
  ) {}

  /** False without SMTP_URL: no job is queued and the e-mail status is `none`. */
  get enabled(): boolean {
    return this.mail.enabled;
  }

  /**
   * Queues the e-mail and waits up to MAIL_STATUS_WAIT_MS for the first attempt: `sent` when the
   * SMTP server accepted it; `not_sent` when it failed or did not finish in time (it is retried);
   * `none` without a mail transport (no job).
   */
  async send(userId: number): Promise<EmailStatus> {
    if (!this.mail.enabled) return 'none';
    // No fixed job id: the job itself does nothing once the e-mail went out, which keeps it to one
    // e-mail per user, and a restored database can reuse user ids that Redis still remembers.
    const job = await this.jobs.add(WELCOME_MAIL_JOB, { userId });
    return (await job.firstAttempt(this.config.mailStatusWaitMs)) === 'completed' ? 'sent' : 'not_sent';
  }
}
