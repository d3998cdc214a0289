import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenService } from '../auth/token.service';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob, JobContext } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { MailService } from '../mail/mail.service';
import { renderWelcome } from '../mail/welcome.template';
import { COMPANY_NAME } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { User } from './entities/user.entity';
import { temporaryPassword } from './users.service';

/** Only the user id travels through Redis: the temporary password is made inside the job. */
export interface WelcomeJobData {
  userId: number;
}

/** The welcome e-mail job; 5 attempts, the first retry after MAIL_RETRY_BACKOFF_MS, doubling. */
export const WELCOME_MAIL_JOB = defineJob<WelcomeJobData>('mail', 'welcome');

/**
 * Runs the welcome e-mail job. Each attempt makes a fresh temporary password, stores only its hash,
 * and sends it; so the password exists in plain text only in the e-mail, never at rest (Redis
 * included). An attempt after a successful one, or after the user chose a password, does nothing,
 * so the user gets one e-mail. The final outcome is stored on the user.
 */
@Injectable()
export class WelcomeMailProcessor implements OnModuleInit {
  private readonly logger = new Logger('WelcomeMail');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly hasher: PasswordHasher,
    private readonly settings: SettingsService,
    private readonly tokens: TokenService,
    private readonly employees: EmployeeFactsService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(WELCOME_MAIL_JOB, (data, ctx) => this.run(data, ctx), {
      attempts: 5,
      backoffMs: this.config.mailRetryBackoffMs,
    });
  }

  async run({ userId }: WelcomeJobData, ctx: JobContext): Promise<void> {
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user || !user.active || user.welcomeEmailStatus === 'sent' || !user.mustChangePassword) {
      this.logger.log(`welcome e-mail for user ${userId} not needed any more`);
      return;
    }
    const name = user.employeeId === null ? null : await this.employees.displayName(user.employeeId);
    const password = temporaryPassword();
    // Only while the user has not chosen a password (a retry may run after it did): then nothing is sent.
    const written = await this.users.update(
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
          name: name ?? user.username,
          username: user.username,
          temporaryPassword: password,
          loginUrl: this.config.publicUrl,
          companyName: await this.settings.get(COMPANY_NAME),
        }),
      });
    } catch (err) {
      const final = ctx.attempt >= ctx.attempts;
      if (final) await this.users.update({ id: userId }, { welcomeEmailStatus: 'not_sent' });
      this.logger.warn(
        `welcome e-mail to user ${userId} failed (attempt ${ctx.attempt}/${ctx.attempts}${final ? ', giving up' : ''}): ${(err as Error).message}`,
      );
      throw err;
    }
    await this.users.update({ id: userId }, { welcomeEmailStatus: 'sent', welcomeEmailSentAt: new Date() });
    this.logger.log(`welcome e-mail sent to user ${userId} (attempt ${ctx.attempt})`);
  }
}
