import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { recordEvent } from '../../common/outbox/outbox';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { JobQueue } from '../../common/queue/job-queue.service';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { PayrollDto, PayslipDto } from '../dto/payroll-run.dto';
import { Payroll, PayrollStatus, Payslip } from '../entities/payroll-run.entities';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PAYROLLS, PayrollRunsService } from '../runs/payroll-runs.service';
import { PayrollTransitionsService } from '../runs/payroll-transitions.service';
import { PAYROLL_STATES } from '../runs/payroll.states';
import { EMPLOYEE_PAYSLIP_LIST_SPEC, PAYROLL_PAYSLIP_LIST_SPEC } from '../entities/payroll-lists';
import '../payroll.events';
import { PayslipContextsService } from './payslip-contexts.service';
import { PAYSLIP_CONTEXT_SHAPE } from '../dto/payslip-context';
import { compileBoundedTemplate, RenderTemplate, TemplateRenderError, TemplateSyntaxError } from '../../common/template/template';
import { PayslipTemplatesService } from './payslip-templates.service';
import { PayslipPdfsService } from './payslip-pdfs.service';
import { PdfRenderer } from '../../common/pdf/pdf-renderer';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { FileConditions, FileResponse } from '../../common/http/file-response';
import { PayrollSettlements } from '../runs/payroll-settlements';
import { internalFailure, isCurrentClaim, PAYSLIPS_JOB, payrollJobId, PayrollJobData } from '../runs/payroll.jobs';

function toPayslipDto(p: Payslip): PayslipDto {
  return {
    id: p.id,
    payroll: p.payrollId,
    employee: p.employeeId,
    html: p.html,
    document: p.documentId,
    delivery_status: p.deliveryStatus,
    delivered_at: p.deliveredAt?.toISOString() ?? null,
    delivery_error: p.deliveryError,
    created_at: p.createdAt.toISOString(),
  };
}

/** A settling input refused the payroll's records (PayrollSettlements): its sentence is the payroll's error. */
class SettlementRefused extends Error {}

/** The rendered characters held before they are written. */
const FLUSH_CHARS = 4_000_000;

/**
 * Payslips: generate-payslips (Processed → Completing, a job renders one
 * payslip per employee → Completed), delete-payslips (Completed → Processed), and reading them.
 */
@Injectable()
export class PayslipsService implements OnModuleInit {
  private readonly logger = new Logger('Payslips');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payslip) private readonly payslips: Repository<Payslip>,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly repository: PayrollRunsRepository,
    private readonly runs: PayrollRunsService,
    private readonly transitions: PayrollTransitionsService,
    private readonly templates: PayslipTemplatesService,
    private readonly contexts: PayslipContextsService,
    private readonly grid: PayrollGridService,
    private readonly access: EmployeeAccessService,
    private readonly jobs: JobQueue,
    private readonly pdfs: PayslipPdfsService,
    private readonly renderer: PdfRenderer,
    private readonly documents: GeneratedDocumentsService,
    private readonly settlements: PayrollSettlements,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      PAYSLIPS_JOB,
      (data) => this.generate(data),
      undefined,
      (data, reason) => this.transitions.abandon('Completing', data, reason),
    );
  }

  /** Processed → Completing (one conditional UPDATE), then the job renders the payslips → Completed. */
  async startGenerate(caller: AuthUser, id: number): Promise<PayrollDto> {
    const payroll = await this.runs.get(caller, id);
    if (payroll.payslip_template === null)
      throw ValidationException.field('payslip_template', 'set a payslip template on the payroll first');
    await this.templates.find(payroll.payslip_template);
    const claim = await this.transitions.claim(id, 'generate-payslips');
    if (claim === null)
      throw PAYROLL_STATES.invalid('generate-payslips', (await this.runs.get(caller, id)).status as PayrollStatus);
    await this.jobs.add(PAYSLIPS_JOB, { payrollId: id, claim }, { jobId: payrollJobId('Completing', id, claim) });
    return this.runs.get(caller, id);
  }

  /**
   * The job: one payslip per employee of the grid, written in batches as they are rendered (memory
   * holds one batch, not the payroll's); Completed. A payslip whose render goes past a template
   * bound is listed in the payroll's errors by employee, and the payroll goes back to Processed
   * without payslips. Anything else that fails is logged with the job id; the payroll's `error`
   * says so in a stable sentence, never the failure's own text (it may be a driver's, with SQL).
   */
  async generate(data: PayrollJobData): Promise<void> {
    const payrollId = data.payrollId;
    const payroll = await this.payrolls.findOne({ where: { id: payrollId } });
    if (!payroll || !isCurrentClaim(data, payroll, 'Completing') || payroll.payslipTemplateId === null) return;
    const job = payrollJobId('Completing', payrollId, data.claim ?? 'unclaimed');
    try {
      const template = await this.templates.find(payroll.payslipTemplateId);
      let render: RenderTemplate;
      try {
        render = compileBoundedTemplate(template.content, PAYSLIP_CONTEXT_SHAPE);
      } catch (err) {
        if (!(err instanceof TemplateSyntaxError)) throw err;
        await this.backToProcessed(payrollId, `the payslip template ${template.id} cannot be used: ${err.message}`);
        return;
      }
      // A retried job starts over: an earlier attempt's payslips and errors go first.
      await this.removePayslips(payrollId, []);
      const failures: Array<{ employee: number; column: null; message: string }> = [];
      let batch: Array<Pick<Payslip, 'payrollId' | 'employeeId' | 'html'>> = [];
      let batchChars = 0;
      let written = 0;
      const flush = async () => {
        const rows = batch;
        batch = [];
        batchChars = 0;
        await this.repository.insertPayslips(null, rows);
        written += rows.length;
      };
      for (let page = 1; ; page++) {
        // Every row: the job renders the payroll's payslips, whoever asked for them.
        const grid = await this.grid.page(payroll, Object.assign(new PageQueryDto(), { page, limit: 500 }), null);
        const contexts = await this.contexts.of(payroll, grid);
        for (const [i, row] of grid.rows.entries()) {
          let html: string;
          try {
            html = render(contexts[i]);
          } catch (err) {
            if (!(err instanceof TemplateRenderError)) throw err;
            failures.push({ employee: row.employee.id, column: null, message: err.message });
            continue;
          }
          if (failures.length) continue; // no payslip is kept: only the failures are still of use
          batch.push({ payrollId, employeeId: row.employee.id, html });
          batchChars += html.length;
          if (batchChars >= FLUSH_CHARS) await flush();
        }
        if (!failures.length) await flush();
        if (page * 500 >= grid.total) break;
      }
      if (!failures.length) {
        // Each payslip's PDF, kept as the employee's document (nothing without a browser).
        const pdfFailures = await this.pdfs.renderAll(payroll, (done, total) =>
          this.payrolls
            .update({ id: payrollId, status: 'Completing' }, { progress: Math.min(99, Math.floor((done / total) * 100)) })
            .then(() => undefined),
        );
        failures.push(...pdfFailures.map((f) => ({ ...f, column: null })));
      }
      if (failures.length) {
        await this.removePayslips(payrollId, failures);
        await this.backToProcessed(payrollId, `${failures.length} payslips could not be rendered: see /errors`);
        return;
      }
      await transaction(this.dataSource, async (em) => {
        // What it paid once (the records a payroll input settles) is its, or it does not complete (PayrollSettlements).
        const refused = await this.settlements.settle(em, payroll);
        if (refused) throw new SettlementRefused(refused);
        const moved = await PAYROLL_STATES.move(em, Payroll, { id: payrollId }, 'complete', {
          progress: 100,
          completedAt: new Date(),
        });
        if (moved)
          await recordEvent(em, 'payroll.completed', { id: payrollId, status: 'Completed', employees: written, errors: 0 });
      });
    } catch (err) {
      if (err instanceof SettlementRefused) {
        await this.removePayslips(payrollId, []);
        return this.backToProcessed(payrollId, err.message);
      }
      this.logger.error(`payslips of payroll ${payrollId} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.removePayslips(payrollId, null).catch(() => undefined);
      await this.backToProcessed(payrollId, internalFailure('generating payslips', job));
    }
  }

  /**
   * Deletes the payroll's payslips and their PDFs (the files by the removal job) in one
   * transaction, and sets its errors to `errors` (null: leaves them).
   */
  private async removePayslips(
    payrollId: number,
    errors: Array<{ employee: number; column: null; message: string }> | null,
  ): Promise<void> {
    await transaction(
      this.dataSource,
      async (em) => {
        await this.pdfs.removeAll(em, payrollId);
        await em.delete(Payslip, { payrollId });
        if (errors) await this.repository.replaceErrors(em, payrollId, 'current', errors);
      },
      SET_REPLACEMENT,
    );
    await this.pdfs.removeFilesSoon();
  }

  private async backToProcessed(payrollId: number, error: string): Promise<void> {
    await PAYROLL_STATES.move(this.payrolls.manager, Payroll, { id: payrollId }, 'payslips-failed', {
      progress: 100,
      error: error.slice(0, 1000),
    });
  }

  /** Completed → Processed, its payslips removed. */
  async deleteAll(caller: AuthUser, id: number): Promise<PayrollDto> {
    await this.runs.get(caller, id);
    await transaction(this.dataSource, async (em) => {
      if (!(await PAYROLL_STATES.move(em, Payroll, { id }, 'delete-payslips', { completedAt: null })))
        throw PAYROLL_STATES.invalid('delete-payslips', (await this.runs.get(caller, id)).status as PayrollStatus);
      await this.pdfs.removeAll(em, id);
      await this.settlements.unsettle(em, id);
      const payslips = await em.delete(Payslip, { payrollId: id });
      await recordAudit(em, {
        action: 'delete-payslips',
        resource: PAYROLLS,
        resourceId: id,
        before: { status: 'Completed', payslips: payslips.affected ?? null },
        after: { status: 'Processed', payslips: 0 },
      });
    });
    await this.pdfs.removeFilesSoon();
    return this.runs.get(caller, id);
  }

  async ofPayroll(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<PayslipDto>> {
    await this.runs.get(caller, id);
    const scope = await this.runs.rowScope(caller);
    const page = await this.repository.payslipsOfPayroll(id, scope, parseListQuery(query, PAYROLL_PAYSLIP_LIST_SPEC));
    return page.map(toPayslipDto);
  }

  /** The employee's payslips: the employee itself, or an Admin / Restricted Admin administering it; others 404. */
  async ofEmployee(caller: AuthUser, employeeId: number, query: ListQueryDto): Promise<Page<PayslipDto>> {
    await this.assertReader(caller, employeeId);
    const page = await this.repository.payslipsOfEmployee(employeeId, parseListQuery(query, EMPLOYEE_PAYSLIP_LIST_SPEC));
    return page.map(toPayslipDto);
  }

  async oneOfEmployee(caller: AuthUser, employeeId: number, payslipId: number): Promise<PayslipDto> {
    await this.assertReader(caller, employeeId);
    const payslip = await this.payslips.findOne({ where: { id: payslipId, employeeId } });
    if (!payslip) throw new NotFoundException('Payslip');
    return toPayslipDto(payslip);
  }

  /** GET /employees/{id}/payslips/{payslipId}/pdf: the employee itself, or an Admin / Restricted Admin in scope. */
  async pdfOfEmployee(
    caller: AuthUser,
    employeeId: number,
    payslipId: number,
    conditions: FileConditions,
  ): Promise<FileResponse> {
    await this.assertReader(caller, employeeId);
    return this.pdfOf(await this.payslips.findOne({ where: { id: payslipId, employeeId } }), conditions);
  }

  /** GET /payroll_config/payrolls/{id}/payslips/{payslipId}/pdf: as the payroll's payslips list. */
  async pdfOfPayroll(caller: AuthUser, payrollId: number, payslipId: number, conditions: FileConditions): Promise<FileResponse> {
    await this.runs.get(caller, payrollId);
    const payslip = await this.payslips.findOne({ where: { id: payslipId, payrollId } });
    if (payslip && !(await this.access.administersId(caller, payslip.employeeId))) throw new NotFoundException('Payslip');
    return this.pdfOf(payslip, conditions);
  }

  /** The payslip's PDF, streamed from the document store; 503 without a browser, 404 for a payslip made without one. */
  private async pdfOf(payslip: Payslip | null, conditions: FileConditions): Promise<FileResponse> {
    if (!payslip) throw new NotFoundException('Payslip');
    if (payslip.documentId === null) {
      this.renderer.assertAvailable();
      throw new DomainException(
        'NOT_FOUND',
        'This payslip has no PDF: it was generated without a browser, or its document was deleted. Delete the payslips and generate them again.',
      );
    }
    return this.documents.generatedFile(payslip.employeeId, payslip.documentId, conditions);
  }

  private async assertReader(caller: AuthUser, employeeId: number): Promise<void> {
    if (caller.employeeId === employeeId) return;
    if (!(await this.access.administersId(caller, employeeId))) throw new NotFoundException('Employee');
  }
}
