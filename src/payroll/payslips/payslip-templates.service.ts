import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../../common/errors/domain.exception';
import { parseListQuery } from '../../common/paging/list-request';
import { ListQueryDto, PageQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { SettingsService } from '../../settings/settings.service';
import { PayslipTemplateDto, SavePayslipTemplateDto } from '../dto/payroll-run.dto';
import { Payroll, PayslipTemplate } from '../entities/payroll-run.entities';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PayrollRunsService } from '../runs/payroll-runs.service';
import { TEMPLATE_LIST_SPEC } from '../entities/payroll-lists';
import {
  contextProblems,
  overlayContext,
  PAYSLIP_CONTEXT_SHAPE,
  PayslipContextDto,
  SAMPLE_PAYSLIP_CONTEXT,
} from '../dto/payslip-context';
import { companyContext, PayslipContextsService } from './payslip-contexts.service';
import { compileBoundedTemplate, RenderTemplate, TemplateRenderError, TemplateSyntaxError } from '../../common/template/template';

/** Checks a template and the names it uses (400 on `content` with the position of the problem) and returns its bounded renderer. */
export function compileTemplate(content: string): RenderTemplate {
  try {
    return compileBoundedTemplate(content, PAYSLIP_CONTEXT_SHAPE);
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

/** Payslip templates: their CRUD (a template is checked, names included, before it is saved) and previews. */
@Injectable()
export class PayslipTemplatesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(PayslipTemplate) private readonly templates: Repository<PayslipTemplate>,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly repository: PayrollRunsRepository,
    private readonly runs: PayrollRunsService,
    private readonly contexts: PayslipContextsService,
    private readonly settings: SettingsService,
  ) {}

  async listTemplates(query: ListQueryDto): Promise<Page<PayslipTemplateDto>> {
    const page = await this.repository.templates(parseListQuery(query, TEMPLATE_LIST_SPEC));
    return page.map(toTemplateDto);
  }

  async getTemplate(id: number): Promise<PayslipTemplateDto> {
    return toTemplateDto(await this.find(id));
  }

  async saveTemplate(dto: SavePayslipTemplateDto): Promise<PayslipTemplateDto> {
    compileTemplate(dto.content);
    const template = dto.id === undefined ? this.templates.create({ status: 'Active' }) : await this.find(dto.id);
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
    const template = await this.find(id);
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
      company: await companyContext(this.settings),
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
    const contexts = await this.contexts.of(payroll, grid);
    return contexts[0];
  }

  async previewSaved(caller: AuthUser, id: number): Promise<{ html: string }> {
    return this.preview(caller, (await this.find(id)).content);
  }

  /** The template's bounded renderer, or why it cannot be used (its syntax: a template changed since it was saved under older rules). */
  async renderer(id: number): Promise<RenderTemplate | string> {
    try {
      return compileBoundedTemplate((await this.find(id)).content, PAYSLIP_CONTEXT_SHAPE);
    } catch (err) {
      if (!(err instanceof TemplateSyntaxError)) throw err;
      return `the payslip template ${id} cannot be used: ${err.message}`;
    }
  }

  /** The template, or 404. */
  async find(id: number): Promise<PayslipTemplate> {
    const template = await this.templates.findOne({ where: { id } });
    if (!template) throw new NotFoundException('Payslip template');
    return template;
  }
}
