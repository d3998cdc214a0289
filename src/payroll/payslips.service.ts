import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { recordAudit } from '../common/audit/audit-log';
import { recordEvent } from '../common/outbox/outbox';
import { SET_REPLACEMENT, transaction } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { findPage, parseListQuery } from '../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { JobQueue } from '../common/queue/job-queue.service';
import { EmployeeAccessService } from '../employees/employee-access.service';
import { EmployeesService } from '../employees/employees.service';
import { ReferenceService } from '../reference/reference.service';
import { COMPANY_NAME } from '../settings/settings.registry';
import { SettingsService } from '../settings/settings.service';
import { PayrollDataDto, PayrollDto, PayslipDto, PayslipTemplateDto, SavePayslipTemplateDto } from './dto/payroll-run.dto';
import { PayFrequency } from './entities/payroll-config.entities';
import { Payroll, PayrollStatus, Payslip, PayslipTemplate } from './entities/payroll-run.entities';
import { PayrollGridService } from './payroll-grid.service';
import { PayrollProcessingService } from './payroll-processing.service';
import { PAYROLLS, PayrollRunsService } from './payroll-runs.service';
import { PAYROLL_STATES } from './payroll.states';
import { EMPLOYEE_PAYSLIP_LIST_SPEC, PAYROLL_PAYSLIP_LIST_SPEC, TEMPLATE_LIST_SPEC } from './payroll-lists';
import { PAYROLL_COMPLETED_EVENT, PayrollEvent } from './payroll.events';
import {
  contextProblems,
  formerEmployeeContext,
  overlayContext,
  PAYSLIP_CONTEXT_SHAPE,
  PayslipContextDto,
  PayslipEmployeeContextDto,
  SAMPLE_PAYSLIP_CONTEXT,
} from './payslip-context';
import { compilePayslipTemplate, RenderTemplate, TemplateRenderError, TemplateSyntaxError } from './payslip-template';
import { internalFailure, isCurrentClaim, PAYSLIPS_JOB, payrollJobId, PayrollJobData } from './payroll.jobs';

/** Checks a template and the names it uses (400 on `content` with the position of the problem) and returns its bounded renderer. */
export function compileTemplate(content: string): RenderTemplate {
  try {
    return compilePayslipTemplate(content, PAYSLIP_CONTEXT_SHAPE);
  } catch (err) {
    if (err instanceof TemplateSyntaxError) throw ValidationException.field('content', err.message);
    throw err;
  }
}

/** A preview's render: past a bound, 400 on `content`. */
function renderPreview(render: RenderTemplate, context: PayslipContextDto): { html: string } {
  try {
    return { html: render(context) };
  } catch (err) {
    if (err instanceof TemplateRenderError) throw ValidationException.field('content', err.message);
    throw err;
  }
}

/** The payslip templates' resource in the audit log. */
const TEMPLATES = 'payroll_config/payslip-templates';

function toTemplateDto(t: PayslipTemplate): PayslipTemplateDto {
  return { id: t.id, name: t.name, status: t.status, content: t.content };
}

function toPayslipDto(p: Payslip): PayslipDto {
  return { id: p.id, payroll: p.payrollId, employee: p.employeeId, html: p.html, created_at: p.createdAt.toISOString() };
}

/** Payslips per INSERT statement, and the rendered characters held before they are written. */
const INSERT_ROWS = 200;
const FLUSH_CHARS = 4_000_000;

/**
 * Payslip templates and payslips: generate-payslips (Processed → Completing, a job renders one
 * payslip per employee → Completed), delete-payslips (Completed → Processed), and reading them.
 */
@Injectable()
export class PayslipsService implements OnModuleInit {
  private readonly logger = new Logger('Payslips');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayslipTemplate) private readonly templates: Repository<PayslipTemplate>,
    @InjectRepository(Payslip) private readonly payslips: Repository<Payslip>,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly runs: PayrollRunsService,
    private readonly grid: PayrollGridService,
    private readonly processing: PayrollProcessingService,
    private readonly access: EmployeeAccessService,
    private readonly employees: EmployeesService,
    private readonly reference: ReferenceService,
    private readonly settings: SettingsService,
    private readonly jobs: JobQueue,
    private readonly events: EventEmitter2,
  ) {}

  onModuleInit(): void {
    this.jobs.register(PAYSLIPS_JOB, (data) => this.generate(data));
  }

  async listTemplates(query: ListQueryDto): Promise<Page<PayslipTemplateDto>> {
    const page = await findPage(this.templates.createQueryBuilder('t'), parseListQuery(query, TEMPLATE_LIST_SPEC));
    return page.map(toTemplateDto);
  }

  async getTemplate(id: number): Promise<PayslipTemplateDto> {
    return toTemplateDto(await this.findTemplate(id));
  }

  async saveTemplate(dto: SavePayslipTemplateDto): Promise<PayslipTemplateDto> {
    compileTemplate(dto.content);
    const template = dto.id === undefined ? this.templates.create({ status: 'Active' }) : await this.findTemplate(dto.id);
    const before = dto.id === undefined ? null : toTemplateDto(template);
    template.name = dto.name;
    template.content = dto.content;
    if (dto.status) template.status = dto.status as PayslipTemplate['status'];
    try {
      return await transaction(this.dataSource, async (em) => {
        const view = toTemplateDto(await em.getRepository(PayslipTemplate).save(template));
        await recordAudit(em, {
          action: before ? 'update' : 'create',
          resource: TEMPLATES,
          resourceId: view.id,
          before,
          after: view,
        });
        return view;
      });
    } catch (err) {
      if (isUniqueViolation(err))
        throw new DomainException('DUPLICATE', `A template named ${dto.name} exists`, [
          { field: 'name', message: 'already used' },
        ]);
      throw err;
    }
  }

  async removeTemplate(id: number): Promise<{ id: number }> {
    const template = await this.findTemplate(id);
    const users = await this.payrolls.find({ select: { id: true }, where: { payslipTemplateId: id } });
    if (users.length) {
      throw new DomainException('IN_USE', `Payslip template ${id} is in use by payroll ${users.map((p) => p.id).join(', ')}`);
    }
    await transaction(this.dataSource, async (em) => {
      await em.delete(PayslipTemplate, { id });
      await recordAudit(em, { action: 'delete', resource: TEMPLATES, resourceId: id, before: toTemplateDto(template) });
    });
    return { id };
  }

  /**
   * Renders a template with the first processed payroll's first row the caller may see, or the
   * sample context; `data` (checked against the context) is laid over it.
   */
  async preview(caller: AuthUser, content: string, data?: object): Promise<{ html: string }> {
    const render = compileTemplate(content);
    if (data !== undefined) {
      const problems = contextProblems(data);
      if (problems.length) throw new ValidationException(problems);
    }
    const context = (await this.firstContext(caller)) ?? {
      ...SAMPLE_PAYSLIP_CONTEXT,
      company: { name: await this.settings.get(COMPANY_NAME) },
    };
    return renderPreview(render, data ? overlayContext(context, data) : context);
  }

  private async firstContext(caller: AuthUser): Promise<PayslipContextDto | null> {
    const payroll = await this.payrolls.findOne({ where: { status: In(['Processed', 'Completed']) }, order: { id: 'ASC' } });
    if (!payroll) return null;
    const grid = await this.runs
      .data(caller, payroll.id, Object.assign(new PageQueryDto(), { page: 1, limit: 1 }))
      .catch(() => null);
    const row = grid?.rows[0];
    if (!grid || !row) return null;
    const contexts = await this.contexts(payroll, grid);
    return contexts[0];
  }

  async previewSaved(caller: AuthUser, id: number): Promise<{ html: string }> {
    return this.preview(caller, (await this.findTemplate(id)).content);
  }

  /** Processed → Completing (one conditional UPDATE), then the job renders the payslips → Completed. */
  async startGenerate(caller: AuthUser, id: number): Promise<PayrollDto> {
    const payroll = await this.runs.get(caller, id);
    if (payroll.payslip_template === null)
      throw ValidationException.field('payslip_template', 'set a payslip template on the payroll first');
    await this.findTemplate(payroll.payslip_template);
    const claim = await this.runs.claim(id, 'generate-payslips');
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
      const template = await this.findTemplate(payroll.payslipTemplateId);
      let render: RenderTemplate;
      try {
        render = compilePayslipTemplate(template.content, PAYSLIP_CONTEXT_SHAPE);
      } catch (err) {
        if (!(err instanceof TemplateSyntaxError)) throw err;
        await this.backToProcessed(payrollId, `the payslip template ${template.id} cannot be used: ${err.message}`);
        return;
      }
      // A retried job starts over: an earlier attempt's payslips and errors go first.
      await transaction(
        this.dataSource,
        async (em) => {
          await em.delete(Payslip, { payrollId });
          await this.processing.replaceErrors(em, payrollId, []);
        },
        SET_REPLACEMENT,
      );
      const failures: Array<{ employee: number; column: null; message: string }> = [];
      let batch: Array<Partial<Payslip>> = [];
      let batchChars = 0;
      let written = 0;
      const flush = async () => {
        const rows = batch;
        batch = [];
        batchChars = 0;
        for (let i = 0; i < rows.length; i += INSERT_ROWS)
          await this.payslips
            .createQueryBuilder()
            .insert()
            .into(Payslip)
            .values(rows.slice(i, i + INSERT_ROWS))
            .execute();
        written += rows.length;
      };
      for (let page = 1; ; page++) {
        // Every row: the job renders the payroll's payslips, whoever asked for them.
        const grid = await this.grid.page(payroll, Object.assign(new PageQueryDto(), { page, limit: 500 }), null);
        const contexts = await this.contexts(payroll, grid);
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
      if (failures.length) {
        await transaction(
          this.dataSource,
          async (em) => {
            await em.delete(Payslip, { payrollId });
            await this.processing.replaceErrors(em, payrollId, failures);
          },
          SET_REPLACEMENT,
        );
        await this.backToProcessed(payrollId, `${failures.length} payslips could not be rendered: see /errors`);
        return;
      }
      const done = await transaction(this.dataSource, async (em) => {
        const moved = await PAYROLL_STATES.move(em, Payroll, { id: payrollId }, 'complete', {
          progress: 100,
          completedAt: new Date(),
        });
        if (moved)
          await recordEvent(em, 'payroll.completed', { id: payrollId, status: 'Completed', employees: written, errors: 0 });
        return moved;
      });
      if (done) {
        await this.events.emitAsync(PAYROLL_COMPLETED_EVENT, {
          payrollId,
          status: 'Completed',
          employees: written,
          errors: 0,
        } satisfies PayrollEvent);
      }
    } catch (err) {
      this.logger.error(`payslips of payroll ${payrollId} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.payslips.delete({ payrollId }).catch(() => undefined);
      await this.backToProcessed(payrollId, internalFailure('generating payslips', job));
    }
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
      const payslips = await em.delete(Payslip, { payrollId: id });
      await recordAudit(em, {
        action: 'delete-payslips',
        resource: PAYROLLS,
        resourceId: id,
        before: { status: 'Completed', payslips: payslips.affected ?? null },
        after: { status: 'Processed', payslips: 0 },
      });
    });
    return this.runs.get(caller, id);
  }

  async ofPayroll(caller: AuthUser, id: number, query: ListQueryDto): Promise<Page<PayslipDto>> {
    await this.runs.get(caller, id);
    const qb = this.payslips.createQueryBuilder('s').where('s.payroll_id = :id', { id });
    const scope = await this.runs.employeeScope(caller, 's.employee_id');
    if (scope) qb.andWhere(scope.sql, scope.params);
    const page = await findPage(qb, parseListQuery(query, PAYROLL_PAYSLIP_LIST_SPEC));
    return page.map(toPayslipDto);
  }

  /** The employee's payslips: the employee itself, or an Admin / Restricted Admin administering it; others 404. */
  async ofEmployee(caller: AuthUser, employeeId: number, query: ListQueryDto): Promise<Page<PayslipDto>> {
    await this.assertReader(caller, employeeId);
    const page = await findPage(
      this.payslips.createQueryBuilder('s').where('s.employee_id = :employeeId', { employeeId }),
      parseListQuery(query, EMPLOYEE_PAYSLIP_LIST_SPEC),
    );
    return page.map(toPayslipDto);
  }

  async oneOfEmployee(caller: AuthUser, employeeId: number, payslipId: number): Promise<PayslipDto> {
    await this.assertReader(caller, employeeId);
    const payslip = await this.payslips.findOne({ where: { id: payslipId, employeeId } });
    if (!payslip) throw new NotFoundException('Payslip');
    return toPayslipDto(payslip);
  }

  private async assertReader(caller: AuthUser, employeeId: number): Promise<void> {
    if (caller.employeeId === employeeId) return;
    if (!(await this.access.administersId(caller, employeeId))) throw new NotFoundException('Employee');
  }

  /** The render contexts of a page of the payroll's grid, a row each: one query for the page's employees. */
  private async contexts(payroll: Payroll, grid: PayrollDataDto): Promise<PayslipContextDto[]> {
    const employees = await this.employeeContexts(grid.rows.map((r) => r.employee.id));
    const company = { name: await this.settings.get(COMPANY_NAME) };
    const payrollContext = { id: payroll.id, name: payroll.name, date_start: payroll.dateStart, date_end: payroll.dateEnd };
    return grid.rows.map((row) => ({
      employee: employees.get(row.employee.id) ?? formerEmployeeContext(row.employee.id),
      payroll: payrollContext,
      company,
      columns: grid.columns.map((c) => ({ name: c.name, value: row.values[String(c.id)] })),
    }));
  }

  /** The template's view of employees: names, references by name, and the payroll employee's currency and frequency. */
  private async employeeContexts(ids: number[]): Promise<Map<number, PayslipEmployeeContextDto>> {
    const fields = [...(await this.employees.payslipFieldsOf(ids)).values()];
    const [jobTitles, departments, payGrades] = await Promise.all([
      this.reference.namesOf(
        'job-titles',
        fields.map((e) => e.job_title),
      ),
      this.reference.namesOf(
        'departments',
        fields.map((e) => e.department),
      ),
      this.reference.namesOf(
        'pay-grades',
        fields.map((e) => e.pay_grade),
      ),
    ]);
    const payrollEmployees = await this.grid.payrollEmployeesOf(ids);
    const frequencies = new Map((await this.dataSource.getRepository(PayFrequency).find()).map((f) => [f.id, f.name]));
    const name = (names: Map<number, string>, id: number | null) => (id === null ? null : (names.get(id) ?? null));
    return new Map(
      fields.map((e) => {
        const p = payrollEmployees.get(e.id);
        const context: PayslipEmployeeContextDto = {
          ...e,
          name: `${e.first_name} ${e.last_name}`,
          job_title: name(jobTitles, e.job_title),
          department: name(departments, e.department),
          pay_grade: name(payGrades, e.pay_grade),
          currency: p?.currency ?? null,
          pay_frequency: p ? name(frequencies, p.payFrequencyId) : null,
        };
        return [e.id, context];
      }),
    );
  }

  private async findTemplate(id: number): Promise<PayslipTemplate> {
    const template = await this.templates.findOne({ where: { id } });
    if (!template) throw new NotFoundException('Payslip template');
    return template;
  }
}
