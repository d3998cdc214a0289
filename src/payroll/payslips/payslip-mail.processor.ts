import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { transaction } from '../../common/database/transaction';
import { recordEvent } from '../../common/outbox/outbox';
import { JobQueue } from '../../common/queue/job-queue.service';
import { JobContext } from '../../common/queue/queue.constants';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { EmployeesRepository } from '../../employees/employees.repository';
import { MailService, OutgoingMail, permanentSmtpFailure, smtpFailureReason } from '../../mail/mail.service';
import { COMPANY_NAME, PAYSLIP_EMAIL_BODY, PAYSLIP_EMAIL_SUBJECT } from '../../settings/settings.registry';
import { SettingsService } from '../../settings/settings.service';
import { Payroll, Payslip, PayslipDelivery } from '../entities/payroll-run.entities';
import '../payroll.events';
import { PayslipDeliveriesRepository } from './payslip-deliveries.repository';
import { PAYSLIP_EMAIL_SHAPE, PAYSLIP_MAIL_JOB } from './payslip-delivery.service';
import { compileBoundedTemplate, RenderTemplate } from '../../common/template/template';

/** A plain-text version of the e-mail's HTML: blocks on their own lines, tags dropped, entities read. */
export function htmlToText(html: string): string {
  const entities: Record<string, string> = {
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    '#39': "'",
    '#x27': "'",
    '#x3D': '=',
    '#x60': '`',
    nbsp: ' ',
  };
  return html
    .replace(/<(br|\/p|\/h\d|\/li|\/tr|\/div)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|#x27|#x3D|#x60|nbsp);/g, (_, e: string) => entities[e])
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The payslip mail job (issue 29): one delivery record, at most one e-mail. The record is claimed
 * (`sending`, committed) before the SMTP call and settled after it; an attempt that finds it still
 * `sending` (its process died in between) marks it `unknown` and sends nothing.
 */
@Injectable()
export class PayslipMailProcessor implements OnModuleInit {
  private readonly logger = new Logger('PayslipMail');
  private readonly compiled = new Map<string, RenderTemplate>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: PayslipDeliveriesRepository,
    private readonly employees: EmployeesRepository,
    private readonly documents: GeneratedDocumentsService,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      PAYSLIP_MAIL_JOB,
      (data, ctx) => this.deliver(data.deliveryId, ctx),
      { attempts: 5, backoffMs: this.config.mailRetryBackoffMs },
      (data, reason) => this.abandon(data.deliveryId, reason),
    );
  }

  /**
   * The job was given up after its process died JOB_MAX_WORKER_DEATHS times: a delivery still
   * queued failed; one claimed for sending may or may not have gone (`unknown`).
   */
  async abandon(deliveryId: number, reason: string): Promise<void> {
    const found = await this.repository.one(deliveryId);
    if (!found || (found.status !== 'queued' && found.status !== 'sending')) return;
    await this.settle(
      found,
      await this.repository.payslip(found.payslipId),
      found.status === 'sending' ? 'unknown' : 'failed',
      `${reason}; send it again`,
    );
  }

  /** The mail job: one delivery, at most one e-mail. */
  async deliver(deliveryId: number, ctx: JobContext): Promise<void> {
    if (!(await this.repository.claim(deliveryId))) {
      const found = await this.repository.one(deliveryId);
      if (found?.status === 'sending') {
        // Claimed by an attempt that never settled: its process stopped around the SMTP call.
        await this.settle(
          found,
          await this.repository.payslip(found.payslipId),
          'unknown',
          'the sending process stopped during the SMTP call: the e-mail may or may not have arrived; send it again to be sure',
        );
      }
      return;
    }
    const delivery = (await this.repository.one(deliveryId))!;
    const payslip = await this.repository.payslip(delivery.payslipId);
    if (!payslip || payslip.documentId === null) {
      await this.settle(delivery, payslip, 'failed', 'the payslip or its PDF was deleted before it was sent');
      return;
    }
    try {
      await this.mail.send(await this.message(payslip, delivery.address));
    } catch (err) {
      const reason = smtpFailureReason(err);
      if (permanentSmtpFailure(err) || ctx.attempt >= ctx.attempts) {
        await this.settle(delivery, payslip, 'failed', reason);
        this.logger.warn(`payslip ${payslip.id} e-mail failed for good (attempt ${ctx.attempt}/${ctx.attempts}): ${reason}`);
        return;
      }
      // Not accepted: queued again for the retry (which claims it again).
      await this.repository.requeue(deliveryId, reason);
      throw err;
    }
    await this.settle(delivery, payslip, 'sent', null);
  }

  /** The e-mail of a payslip: subject and body from the settings' templates, the PDF attached. */
  private async message(payslip: Payslip, address: string): Promise<OutgoingMail> {
    const payroll = await this.ds.getRepository(Payroll).findOneByOrFail({ id: payslip.payrollId });
    const person = (await this.employees.deliveryFieldsOf([payslip.employeeId])).get(payslip.employeeId);
    const [first, ...rest] = (person?.name ?? '').split(' ');
    const context = {
      employee: {
        id: payslip.employeeId,
        employee_id: person?.employeeId ?? '',
        name: person?.name ?? '',
        first_name: first,
        last_name: rest.join(' '),
      },
      payroll: { id: payroll.id, name: payroll.name, date_start: payroll.dateStart, date_end: payroll.dateEnd },
      company: { name: await this.settings.get(COMPANY_NAME) },
    };
    const html = this.template(await this.settings.get(PAYSLIP_EMAIL_BODY))(context);
    const pdf = await this.documents.generatedContent(payslip.employeeId, payslip.documentId!);
    return {
      to: address,
      // A subject is not HTML: its values are written as they are (an & stays an &).
      subject: this.template(
        await this.settings.get(PAYSLIP_EMAIL_SUBJECT),
        true,
      )(context)
        .replace(/\s+/g, ' ')
        .trim(),
      html,
      text: htmlToText(html),
      attachments: [{ filename: pdf.fileName, content: pdf.content, contentType: 'application/pdf' }],
    };
  }

  private template(content: string, plain = false): RenderTemplate {
    const key = `${plain ? 'plain' : 'html'}:${content}`;
    let render = this.compiled.get(key);
    if (!render) {
      render = compileBoundedTemplate(content, PAYSLIP_EMAIL_SHAPE, { plain });
      if (this.compiled.size > 10) this.compiled.clear();
      this.compiled.set(key, render);
    }
    return render;
  }

  /** The delivery's outcome, on it and on its payslip, with its event, in one transaction; then the tasks. */
  private async settle(
    delivery: PayslipDelivery,
    payslip: Payslip | null,
    status: 'sent' | 'failed' | 'unknown',
    error: string | null,
  ): Promise<void> {
    const now = new Date();
    await transaction(this.ds, async (em) => {
      await em.getRepository(PayslipDelivery).update({ id: delivery.id }, { status, error, finishedAt: now });
      if (!payslip) return;
      await em
        .getRepository(Payslip)
        .update(
          { id: payslip.id },
          status === 'sent'
            ? { deliveryStatus: 'sent', deliveredAt: now, deliveryError: null }
            : { deliveryStatus: status, deliveryError: error },
        );
      if (status !== 'unknown')
        await recordEvent(em, status === 'sent' ? 'payslip.sent' : 'payslip.failed', {
          id: payslip.id,
          payroll: payslip.payrollId,
          employee: payslip.employeeId,
          delivery_status: status,
          delivered_at: status === 'sent' ? now.toISOString() : null,
          error,
        });
    });
  }
}
