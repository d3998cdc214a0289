import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { ErrorDetail, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { findTablePage, ListSpec, parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { ReferenceService } from '../reference/reference.service';
import {
  ChecklistTemplateDto,
  CreateChecklistTemplateDto,
  TemplateConditionsDto,
  UpdateChecklistTemplateDto,
} from './dto/checklists.dto';
import { ChecklistTemplate, CHECKLIST_TRIGGERS, ChecklistTrigger, TemplateItem } from './entities/checklist.entities';
import { ChecklistsRepository } from './checklists.repository';

export const TEMPLATE_LIST_SPEC: ListSpec = {
  idColumn: 't.id',
  sortFields: { id: 't.id', name: 't.name' },
  filterFields: { trigger: { column: 't.trigger_kind', type: 'string', values: CHECKLIST_TRIGGERS } },
};

function toTemplateDto(t: ChecklistTemplate): ChecklistTemplateDto {
  return { id: t.id, name: t.name, trigger: t.trigger, conditions: t.conditions, items: t.items };
}

/** /checklist-templates (Admin, issue 67): what a hire, termination, transfer or change starts. */
@Injectable()
export class ChecklistTemplatesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly reference: ReferenceService,
    private readonly repository: ChecklistsRepository,
  ) {}

  async list(query: ListQueryDto): Promise<Page<ChecklistTemplateDto>> {
    const page = await findTablePage(this.ds.getRepository(ChecklistTemplate), 't', parseListQuery(query, TEMPLATE_LIST_SPEC));
    return page.map(toTemplateDto);
  }

  async get(id: number): Promise<ChecklistTemplateDto> {
    const t = await this.ds.getRepository(ChecklistTemplate).findOne({ where: { id } });
    if (!t) throw new NotFoundException('Checklist template');
    return toTemplateDto(t);
  }

  create(dto: CreateChecklistTemplateDto): Promise<ChecklistTemplateDto> {
    return this.save(null, dto);
  }

  /** What the body names changes (items and conditions: the whole of each); checklists already started keep their items. */
  async update(id: number, dto: UpdateChecklistTemplateDto): Promise<ChecklistTemplateDto> {
    const current = await this.get(id);
    return this.save(id, {
      name: dto.name ?? current.name,
      trigger: dto.trigger ?? current.trigger,
      conditions: dto.conditions ?? current.conditions,
      items: dto.items ?? current.items,
    });
  }

  /** Checklists started from it stay as they are. */
  async remove(id: number): Promise<{ id: number }> {
    const before = await this.get(id);
    await transaction(this.ds, async (em) => {
      await em.delete(ChecklistTemplate, { id });
      await recordAudit(em, { action: 'delete', resource: 'checklist-templates', resourceId: id, before });
    });
    return { id };
  }

  private async save(id: number | null, dto: CreateChecklistTemplateDto): Promise<ChecklistTemplateDto> {
    const conditions: TemplateConditionsDto = dto.conditions ?? {};
    const problems: ErrorDetail[] = [];
    if (dto.trigger === 'change' && !conditions.fields?.length)
      problems.push({ field: 'conditions.fields', message: 'must name the dated fields whose change starts the checklist' });
    if (dto.trigger !== 'change' && conditions.fields?.length)
      problems.push({ field: 'conditions.fields', message: 'applies to change templates only' });
    await this.missing('departments', 'conditions.departments', conditions.departments, problems);
    await this.missing('job-titles', 'conditions.job_titles', conditions.job_titles, problems);
    await this.missing('employment-statuses', 'conditions.employment_statuses', conditions.employment_statuses, problems);
    for (const [i, item] of dto.items.entries()) {
      const named = /^employee:(\d+)$/.exec(item.assignee);
      if (named && !(await this.repository.employeeExists(Number(named[1]))))
        problems.push({ field: `items.${i}.assignee`, message: `employee ${named[1]} does not exist` });
      if (item.document_type != null && !(await this.repository.documentTypeExists(item.document_type)))
        problems.push({ field: `items.${i}.document_type`, message: 'does not exist' });
    }
    if (problems.length) throw new ValidationException(problems);
    const values = {
      name: dto.name,
      trigger: dto.trigger as ChecklistTrigger,
      conditions: Object.fromEntries(
        (['departments', 'job_titles', 'employment_statuses', 'fields'] as const).flatMap((k) =>
          conditions[k]?.length ? [[k, [...new Set<number | string>(conditions[k])]]] : [],
        ),
      ),
      items: dto.items.map((item): TemplateItem => ({
        title: item.title,
        description: item.description ?? null,
        assignee: item.assignee,
        offset_days: item.offset_days,
        document_type: item.document_type ?? null,
        required: item.required ?? true,
      })),
    };
    const saved = await transaction(this.ds, async (em) => {
      const repo = em.getRepository(ChecklistTemplate);
      const before = id === null ? null : await repo.findOneByOrFail({ id });
      const beforeDto = before && toTemplateDto({ ...before });
      const after = await repo.save(id === null ? repo.create(values) : Object.assign(before!, values));
      await recordAudit(em, {
        action: id === null ? 'create' : 'update',
        resource: 'checklist-templates',
        resourceId: after.id,
        before: beforeDto,
        after: toTemplateDto(after),
      });
      return after;
    });
    return toTemplateDto(saved);
  }

  /** Adds a problem at `field` naming the ids of `kind` that do not exist. */
  private async missing(
    kind: 'departments' | 'job-titles' | 'employment-statuses',
    field: string,
    ids: number[] | undefined,
    problems: ErrorDetail[],
  ): Promise<void> {
    const unique = [...new Set(ids ?? [])];
    if (unique.length && (await this.reference.countExisting(kind, unique)) !== unique.length)
      problems.push({ field, message: 'names one that does not exist' });
  }
}
