import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { JobQueue } from '../../common/queue/job-queue.service';
import { EmployeeAccessService } from '../../employees/core/employee-access.service';
import { PayrollDto, PayslipDto } from '../dto/payroll-run.dto';
import { Payroll, PayrollStatus, Payslip } from '../entities/payroll-run.entities';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PAYROLLS, PayrollRunsService } from '../runs/payroll-runs.service';
import { PayrollTransitionsService } from '../runs/payroll-transitions.service';
import { PAYROLL_STATES } from '../runs/payroll.states';
import { EMPLOYEE_PAYSLIP_LIST_SPEC, PAYROLL_PAYSLIP_LIST_SPEC } from '../entities/payroll-lists';
import '../payroll.events';
import { PayslipTemplatesService } from './payslip-templates.service';
import { PayslipPdfsService } from './payslip-pdfs.service';
import { PdfRenderer } from '../../common/pdf/pdf-renderer';
import { GeneratedDocumentsService } from '../../documents/generated-documents.service';
import { FileConditions, FileResponse } from '../../common/http/file-response';
import { PayrollSettlements } from '../runs/payroll-settlements';
import { PAYSLIPS_JOB, payrollJobId } from '../runs/payroll.jobs';

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

/**
 * Payslips: generate-payslips (Processed → Completing; the job's chunks render one payslip per
 * employee, PayslipChunksService → Completed), delete-payslips (Completed → Processed), and reading them.
 */
@Injectable()
export class PayslipsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payslip) private readonly payslips: Repository<Payslip>,
    private readonly repository: PayrollRunsRepository,
    private readonly runs: PayrollRunsService,
    private readonly transitions: PayrollTransitionsService,
    private readonly templates: PayslipTemplatesService,
    private readonly access: EmployeeAccessService,
    private readonly jobs: JobQueue,
    private readonly pdfs: PayslipPdfsService,
    private readonly renderer: PdfRenderer,
    private readonly documents: GeneratedDocumentsService,
    private readonly settlements: PayrollSettlements,
  ) {}

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
