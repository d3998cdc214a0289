import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { AuthUser } from '../../common/auth/auth-user';
import { transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { PdfRenderer } from '../../common/pdf/pdf-renderer';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { MailService } from '../../mail/mail.service';
import { MailOutbox } from '../../mail/outbox/mail-outbox.service';
import { PAYSLIP_EMAIL_ADDRESS, PAYSLIP_EMAIL_BODY, PAYSLIP_EMAIL_SUBJECT } from '../config/payroll.settings';
import { SettingsService } from '../../settings/settings.service';
import { SendPayslipDto, SendPayslipsDto, SendPayslipsResultDto } from '../dto/payroll-run.dto';
import { Payroll } from '../entities/payroll-run.entities';
import { PAYROLLS, PayrollRunsService } from '../runs/payroll-runs.service';
import { PayslipDeliveriesRepository, PayslipToSend } from './payslip-deliveries.repository';
import { compileBoundedTemplate, shapeOf, TemplateSyntaxError } from '../../common/template/template';

/** A send request: its id, when its e-mails may go, and the address they go to. */
interface SendRequest {
  id: string;
  sendAfter: Date | null;
  field: 'privateEmail' | 'workEmail';
}

/** The mail outbox's purpose of payslip e-mails (PayslipMailKind); the ref is the payslip's id. */
export const PAYSLIP_MAIL = 'payslip';

/** What the payslip e-mail's subject and body may name. */
const SAMPLE_EMAIL_CONTEXT = {
  employee: { id: 0, employee_id: 'E0000', name: 'Sample Employee', first_name: 'Sample', last_name: 'Employee' },
  payroll: { id: 0, name: 'Sample payroll', date_start: '2026-01-01', date_end: '2026-01-31' },
  company: { name: 'My Company' },
};
export const PAYSLIP_EMAIL_SHAPE = shapeOf(SAMPLE_EMAIL_CONTEXT);

/**
 * Payslip e-mails (issue 29): a send request queues one e-mail per payslip in the mail outbox (one
 * per payslip and request, unique), the PDF attached by document id; the outbox sends each at most
 * once (`unknown` when its process died during the SMTP call, so nobody gets a second copy silently)
 * and PayslipMailKind sets the payslip's delivery status from the outcome. Payslips already sent,
 * queued or unknown are left out of a payroll-wide request (re-send one by one).
 */
@Injectable()
export class PayslipDeliveryService implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: PayslipDeliveriesRepository,
    private readonly runs: PayrollRunsService,
    private readonly employees: EmployeesRepository,
    private readonly renderer: PdfRenderer,
    private readonly settings: SettingsService,
    private readonly mail: MailService,
    private readonly outbox: MailOutbox,
  ) {}

  onModuleInit(): void {
    for (const name of [PAYSLIP_EMAIL_SUBJECT, PAYSLIP_EMAIL_BODY])
      this.settings.addCheck(name, (value) => {
        try {
          compileBoundedTemplate(value, PAYSLIP_EMAIL_SHAPE);
          return null;
        } catch (err) {
          if (err instanceof TemplateSyntaxError) return err.message;
          throw err;
        }
      });
  }

  /**
   * POST .../send-payslips: every payslip of a Completed payroll in the caller's scope not sent yet
   * (or those of `employees`), queued a window of PAYSLIP_CHUNK_SIZE payslips at a time, each window
   * in its own transaction (issue 70: memory holds a window, not the payroll).
   */
  async send(caller: AuthUser, payrollId: number, dto: SendPayslipsDto): Promise<SendPayslipsResultDto> {
    const payroll = await this.completed(caller, payrollId);
    const scope = await this.runs.rowScope(caller);
    const employees = dto.employees ? [...new Set(dto.employees)] : null;
    if (employees) {
      const found = new Set((await this.repository.toSend(payrollId, scope, employees)).map((p) => p.employeeId));
      const missing = employees.filter((e) => !found.has(e));
      if (missing.length)
        throw ValidationException.field(
          'employees',
          `have no payslip in this payroll you may send: ${missing.slice(0, 20).join(', ')}`,
        );
    }
    this.assertPdfs(await this.repository.withoutPdf(payrollId, scope, employees));
    const request = await this.request(dto.send_after);
    const totals = { queued: 0, no_address: 0, skipped: 0 };
    for (let after = 0; ;) {
      const page = await this.repository.toSend(payrollId, scope, employees, after, this.config.payslipChunkSize);
      if (!page.length) break;
      after = page[page.length - 1].id;
      const open = page.filter((p) => !['sent', 'queued', 'unknown'].includes(p.deliveryStatus));
      totals.skipped += page.length - open.length;
      const queued = await this.queue(caller, open, request);
      totals.queued += queued.queued;
      totals.no_address += queued.no_address;
    }
    return this.audited(payroll, request, totals);
  }

  /** POST .../payslips/{payslipId}/send: one payslip, sent again whatever its status, unless a delivery is under way. */
  async sendOne(caller: AuthUser, payrollId: number, payslipId: number, dto: SendPayslipDto): Promise<SendPayslipsResultDto> {
    const payroll = await this.completed(caller, payrollId);
    const payslip = await this.repository.oneToSend(payrollId, await this.runs.rowScope(caller), payslipId);
    if (!payslip) throw new NotFoundException('Payslip');
    if (payslip.deliveryStatus === 'queued')
      throw new DomainException('CONFLICT', 'An e-mail of this payslip is queued already: it goes out by itself');
    this.assertPdfs(payslip.documentId === null ? 1 : 0);
    const request = await this.request(dto.send_after);
    return this.audited(payroll, request, { ...(await this.queue(caller, [payslip], request)), skipped: 0 });
  }

  private async completed(caller: AuthUser, payrollId: number): Promise<Payroll> {
    const dto = await this.runs.get(caller, payrollId);
    if (dto.status !== 'Completed')
      throw new DomainException('INVALID_STATE', `A ${dto.status} payroll cannot send payslips: generate them first`, [
        { field: 'status', message: `is ${dto.status}; send-payslips needs Completed` },
      ]);
    this.renderer.assertAvailable();
    if (!this.mail.enabled)
      throw new DomainException('MAIL_UNAVAILABLE', 'No SMTP server is configured: set SMTP_URL to send payslips by e-mail');
    return this.ds.getRepository(Payroll).findOneByOrFail({ id: payrollId });
  }

  private assertPdfs(withoutPdf: number): void {
    if (withoutPdf)
      throw new DomainException(
        'CONFLICT',
        `${withoutPdf} payslips have no PDF (generated without a browser): delete the payslips and generate them again`,
      );
  }

  private async request(sendAfter: string | undefined): Promise<SendRequest> {
    const field = (await this.settings.get(PAYSLIP_EMAIL_ADDRESS)) === 'private' ? 'privateEmail' : 'workEmail';
    return { id: randomUUID(), sendAfter: sendAfter ? new Date(sendAfter) : null, field };
  }

  /** Records one delivery per payslip with an address (no_address for the others) and queues those due now, in one transaction. */
  private async queue(
    caller: AuthUser,
    payslips: PayslipToSend[],
    request: SendRequest,
  ): Promise<{ queued: number; no_address: number }> {
    const { field, sendAfter } = request;
    const people = await this.employees.deliveryFieldsOf(payslips.map((p) => p.employeeId));
    const addressOf = (p: PayslipToSend) => people.get(p.employeeId)?.[field] ?? null;
    const reachable = payslips.filter((p) => addressOf(p));
    const unreachable = payslips.filter((p) => !addressOf(p)).map((p) => p.id);
    await transaction(this.ds, async (em) => {
      await this.outbox.enqueue(
        em,
        reachable.map((p) => ({
          purpose: PAYSLIP_MAIL,
          ref: String(p.id),
          requestId: request.id,
          address: addressOf(p)!,
          documentId: p.documentId,
          sendAfter,
          requestedBy: caller.id,
        })),
      );
      await this.repository.setStatus(
        em,
        reachable.map((p) => p.id),
        'queued',
        null,
      );
      await this.repository.setStatus(
        em,
        unreachable,
        'no_address',
        `the employee has no ${field === 'workEmail' ? 'work' : 'private'} e-mail`,
      );
    });
    await this.outbox.dispatch(
      await this.outbox.queuedOf(
        PAYSLIP_MAIL,
        reachable.map((p) => String(p.id)),
        request.id,
      ),
    );
    return { queued: reachable.length, no_address: unreachable.length };
  }

  /** The request audited with what it queued, and its answer. */
  private async audited(
    payroll: Payroll,
    request: SendRequest,
    totals: { queued: number; no_address: number; skipped: number },
  ): Promise<SendPayslipsResultDto> {
    const sendAfter = request.sendAfter?.toISOString() ?? null;
    await transaction(this.ds, (em) =>
      recordAudit(em, {
        action: 'send-payslips',
        resource: PAYROLLS,
        resourceId: payroll.id,
        after: { request: request.id, queued: totals.queued, no_address: totals.no_address, send_after: sendAfter },
      }),
    );
    return { request: request.id, ...totals, send_after: sendAfter };
  }
}
