import { MailerService } from '@nestjs-modules/mailer';
import { Injectable, Optional } from '@nestjs/common';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: Array<{ filename: string; content: Buffer; contentType: string }>;
  headers?: Record<string, string>;
}

/** Sends e-mail through the SMTP transport of SMTP_URL; `enabled` is false when none is configured. */
@Injectable()
export class MailService {
  constructor(@Optional() private readonly mailer?: MailerService) {}

  get enabled(): boolean {
    return this.mailer !== undefined;
  }

  /**
   * Resolves when the SMTP server accepted the message; rejects when it refused or could not be
   * reached (nodemailer's error: `responseCode` holds the SMTP reply code when there was one).
   */
  async send(mail: OutgoingMail): Promise<void> {
    if (!this.mailer) throw new Error('no mail transport is configured (SMTP_URL)');
    await this.mailer.sendMail(mail);
  }
}
