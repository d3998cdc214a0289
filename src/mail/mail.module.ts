import { MailerModule } from '@nestjs-modules/mailer';
import { MailPersonalData } from './outbox/outgoing-mail.personal-data';
import { DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/config';
import { MailService } from './mail.service';
import { MailOutbox } from './outbox/mail-outbox.service';
import { OutgoingMail } from './outbox/outgoing-mail.entity';
import { OutgoingMailRepository } from './outbox/outgoing-mail.repository';

/**
 * SMTP from SMTP_URL (nodemailer through @nestjs-modules/mailer); without it, MailService is disabled.
 * The mail outbox (issue 42): every module queues its e-mails there and declares their kind.
 */
@Global()
@Module({})
export class MailModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: MailModule,
      imports: [
        TypeOrmModule.forFeature([OutgoingMail]),
        ...(config.smtpUrl
          ? [
              MailerModule.forRoot({
                transport: {
                  url: config.smtpUrl,
                  // A few reused connections: a burst of e-mails (a company-wide notification, a payroll's
                  // payslips) waits for one of them instead of opening a connection per message at once.
                  pool: true,
                  maxConnections: 10,
                  maxMessages: 100,
                  // Bounded, so a dead server fails the attempt (and is retried) instead of hanging a worker.
                  connectionTimeout: 10_000,
                  greetingTimeout: 10_000,
                  socketTimeout: 20_000,
                },
                defaults: { from: config.mailFrom },
              }),
            ]
          : []),
      ],
      providers: [MailService, MailOutbox, OutgoingMailRepository, MailPersonalData],
      exports: [MailService, MailOutbox],
    };
  }
}
