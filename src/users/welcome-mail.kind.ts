import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, IsNull, Not, Repository } from 'typeorm';
import { PasswordHasher } from '../auth/password-hasher';
import { TokenService } from '../auth/token.service';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { MailSettledPayload } from '../mail/outbox/mail.events';
import { ComposedMail, MailOutbox } from '../mail/outbox/mail-outbox.service';
import { OutgoingMail } from '../mail/outbox/outgoing-mail.entity';
import { renderWelcome } from '../mail/welcome.template';
import { COMPANY_NAME } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { User } from './entities/user.entity';
import { temporaryPassword } from './users.service';
import { WELCOME_MAIL } from './welcome-mail.service';

/**
 * The welcome e-mail, a kind of the mail outbox (issue 42). Each attempt makes a fresh temporary
 * password, stores only its hash, and sends it; so the password exists in plain text only in the
 * e-mail, never at rest (the outbox's row and Redis included). An attempt after a successful one,
 * or after the user chose a password, sends nothing, so the user gets one e-mail. The outcome is
 * stored on the user (`welcome_email_status`).
 */
@Injectable()
export class WelcomeMailKind implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly hasher: PasswordHasher,
    private readonly settings: SettingsService,
    private readonly tokens: TokenService,
    private readonly employees: EmployeeFactsService,
    private readonly outbox: MailOutbox,
  ) {}

  onModuleInit(): void {
    this.outbox.define(WELCOME_MAIL, {
      compose: (mail) => this.compose(mail),
      settled: (em, outcome) => this.settled(em, outcome),
    });
  }

  async compose(mail: OutgoingMail): Promise<ComposedMail | { skip: string }> {
    const userId = Number(mail.ref);
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user || !user.active || user.welcomeEmailStatus === 'sent' || !user.mustChangePassword)
      return { skip: 'not needed any more: the user is gone, inactive, or has its password' };
    const name = user.employeeId === null ? null : await this.employees.displayName(user.employeeId);
    const password = temporaryPassword();
    // Only while the user has not chosen a password (a retry may run after it did): then nothing is sent.
    const written = await this.users.update(
      { id: userId, mustChangePassword: true, passwordChangedAt: IsNull() },
      { passwordHash: await this.hasher.hash(password) },
    );
    if (written.affected !== 1) return { skip: 'not needed any more: a password was chosen meanwhile' };
    await this.tokens.forgetUser(userId);
    return {
      to: user.email,
      ...renderWelcome({
        name: name ?? user.username,
        username: user.username,
        temporaryPassword: password,
        loginUrl: this.config.publicUrl,
        companyName: await this.settings.get(COMPANY_NAME),
      }),
    };
  }

  /** The outcome on the user: sent, or not_sent (unless an earlier e-mail was sent). */
  async settled(em: EntityManager, outcome: MailSettledPayload): Promise<void> {
    const id = Number(outcome.ref);
    if (outcome.status === 'sent')
      await em
        .getRepository(User)
        .update({ id }, { welcomeEmailStatus: 'sent', welcomeEmailSentAt: new Date(outcome.finished_at) });
    else await em.getRepository(User).update({ id, welcomeEmailStatus: Not('sent') }, { welcomeEmailStatus: 'not_sent' });
  }
}
