import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenService } from '../auth/token.service';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob, JobContext, JobDefinition } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Employee } from '../employees/entities/employee.entity';
import { MailService } from '../mail/mail.service';
import { renderWelcome } from '../mail/welcome.template';
import { SettingsService } from '../settings/settings.service';
import { COMPANY_NAME } from '../settings/settings.registry';
import { User } from './entities/user.entity';
import { temporaryPassword } from './users.service';

/** Only the user id travels through Redis: the temporary password is made inside the job. */
export interface WelcomeJobData {
  userId: number;
}

export type EmailStatus = 'sent' | 'not_sent' | 'none';

/**
 * The welcome e-mail of a new user, as a job on the `mail` queue. Each attempt makes a fresh
 * temporary password, stores only its hash, and sends it; so the password exists in plain text
 * only in the e-mail, never at rest (Redis included). An attempt after a successful one does
 * nothing, so the user gets one e-mail. The final outcome is stored on the user.
 */
@Injectable()
export class WelcomeMailService implements OnModuleInit {
  private readonly logger = new Logger('WelcomeMail');
  readonly job: JobDefinition<WelcomeJobData>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly hasher: PasswordHasher,
    private readonly settings: SettingsService,
    private readonly tokens: TokenService,
  ) {
    this.job = defineJob<WelcomeJobData>('mail', 'welcome', { attempts: 5, backoffMs: config.mailRetryBackoffMs });
  }

  onModuleInit(): void {
    this.jobs.register(this.job, (data, ctx) => this.run(data, ctx));
  }

  /**
   * Queues the e-mail and waits up to MAIL_STATUS_WAIT_MS for the first attempt: `sent` when the
   * SMTP server accepted it; `not_sent` when it failed or did not finish in time (it is retried);
   * `none` without a mail transport (no job).
   */
  /** False without SMTP_URL: no job is queued and the e-mail status is `none`. */
  get enabled(): boolean {
    return this.mail.enabled;
  }

  async send(userId: number): Promise<EmailStatus> {
    if (!this.mail.enabled) return 'none';
    // No fixed job id: the job itself does nothing once the e-mail went out, which keeps it to one
    // e-mail per user, and a restored database can reuse user ids that Redis still remembers.
    const job = await this.jobs.add(this.job, { userId });
    return (await job.firstAttempt(this.config.mailStatusWaitMs)) === 'completed' ? 'sent' : 'not_sent';
  }

  private async run({ userId }: WelcomeJobData, ctx: JobContext): Promise<void> {
    const users = this.dataSource.getRepository(User);
    const user = await users.findOne({ where: { id: userId } });
    if (!user || !user.active || user.welcomeEmailStatus === 'sent' || !user.mustChangePassword) {
      this.logger.log(`welcome e-mail for user ${userId} not needed any more`);
      return;
    }
    const employee =
      user.employeeId === null ? null : await this.dataSource.getRepository(Employee).findOne({ where: { id: user.employeeId } });
    const password = temporaryPassword();
    // Only while the user has not chosen a password (a retry may run after it did): then nothing is sent.
    const written = await users.update(
      { id: userId, mustChangePassword: true, passwordChangedAt: IsNull() },
      { passwordHash: await this.hasher.hash(password) },
    );
    if (written.affected !== 1) {
      this.logger.log(`welcome e-mail for user ${userId} not needed any more: a password was chosen meanwhile`);
      return;
    }
    this.tokens.forgetUser(userId);
    try {
      await this.mail.send({
        to: user.email,
        ...renderWelcome({
          name: employee ? `${employee.firstName} ${employee.lastName}` : user.username,
          username: user.username,
          temporaryPassword: password,
          loginUrl: this.config.publicUrl,
          companyName: await this.settings.get(COMPANY_NAME),
        }),
      });
    } catch (err) {
      const final = ctx.attempt >= ctx.attempts;
      if (final) await users.update({ id: userId }, { welcomeEmailStatus: 'not_sent' });
      this.logger.warn(
        `welcome e-mail to user ${userId} failed (attempt ${ctx.attempt}/${ctx.attempts}${final ? ', giving up' : ''}): ${(err as Error).message}`,
      );
      throw err;
    }
    await users.update({ id: userId }, { welcomeEmailStatus: 'sent', welcomeEmailSentAt: new Date() });
    this.logger.log(`welcome e-mail sent to user ${userId} (attempt ${ctx.attempt})`);
  }
}
