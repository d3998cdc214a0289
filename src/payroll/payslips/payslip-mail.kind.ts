import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordEvent } from '../../common/outbox/outbox';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { MailSettledPayload } from '../../mail/outbox/mail.events';
import { ComposedMail, MailOutbox } from '../../mail/outbox/mail-outbox.service';
import { OutgoingMail } from '../../mail/outbox/outgoing-mail.entity';
import { COMPANY_NAME } from '../../settings/settings.registry';
import { PAYSLIP_EMAIL_BODY, PAYSLIP_EMAIL_SUBJECT } from '../config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';
import { Payroll, Payslip } from '../entities/payroll-run.entities';
import '../payroll.events';
import { PayslipDeliveriesRepository } from './payslip-deliveries.repository';
import { PAYSLIP_EMAIL_SHAPE, PAYSLIP_MAIL } from './payslip-delivery.service';
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
 * The payslip e-mail (issue 29), a kind of the mail outbox (issue 42): composed when sent from the
 * settings' templates, the payslip's PDF attached by document id; its outcome sets the payslip's
 * delivery status and records payslip.sent or payslip.failed (not for `unknown`: nobody knows).
 */
@Injectable()
export class PayslipMailKind implements OnModuleInit {
  private readonly compiled = new Map<string, RenderTemplate>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: PayslipDeliveriesRepository,
    private readonly employees: EmployeesRepository,
    private readonly settings: SettingsService,
    private readonly outbox: MailOutbox,
  ) {}

  onModuleInit(): void {
    this.outbox.define(PAYSLIP_MAIL, {
      compose: (mail) => this.compose(mail),
      settled: (em, outcome) => this.settled(em, outcome),
    });
  }

  /** The e-mail of a payslip: subject and body from the settings' templates (the outbox attaches the PDF). */
  async compose(mail: OutgoingMail): Promise<ComposedMail | { skip: string }> {
    const payslip = await this.repository.payslip(Number(mail.ref));
    if (!payslip || payslip.documentId === null || payslip.documentId !== mail.documentId)
      return { skip: 'the payslip or its PDF was deleted before it was sent' };
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
    return {
      // A subject is not HTML: its values are written as they are (an & stays an &).
      subject: this.template(
        await this.settings.get(PAYSLIP_EMAIL_SUBJECT),
        true,
      )(context)
        .replace(/\s+/g, ' ')
        .trim(),
      html,
      text: htmlToText(html),
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

  /** The e-mail's outcome on its payslip, with its event, in the relay's transaction. */
  async settled(em: EntityManager, outcome: MailSettledPayload): Promise<void> {
    const payslip = await em.getRepository(Payslip).findOne({ where: { id: Number(outcome.ref) } });
    if (!payslip) return;
    const at = new Date(outcome.finished_at);
    const { status, error } = outcome;
    await em
      .getRepository(Payslip)
      .update(
        { id: payslip.id },
        status === 'sent'
          ? { deliveryStatus: 'sent', deliveredAt: at, deliveryError: null }
          : { deliveryStatus: status, deliveryError: error },
      );
    if (status !== 'unknown')
      await recordEvent(em, status === 'sent' ? 'payslip.sent' : 'payslip.failed', {
        id: payslip.id,
        payroll: payslip.payrollId,
        employee: payslip.employeeId,
        delivery_status: status,
        delivered_at: status === 'sent' ? at.toISOString() : null,
        error,
      });
  }
}
