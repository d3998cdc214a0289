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

/** Whether an SMTP failure is final: the server refused (5xx); anything else (4xx, no answer) may pass on a retry. */
export function permanentSmtpFailure(err: unknown): boolean {
  const code = (err as { responseCode?: number }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** What an SMTP failure says, short and without a stack: the server's reply when there was one. */
export function smtpFailureReason(err: unknown): string {
  const e = err as { response?: string; message?: string };
  return (e.response ?? e.message ?? String(err)).replace(/\s+/g, ' ').slice(0, 500);
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
