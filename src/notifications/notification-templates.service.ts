import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { parseListQuery } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { TemplateRenderError, TemplateSyntaxError } from '../common/template/template';
import {
  CreateNotificationTemplateDto,
  NotificationTemplateDto,
  PreviewNotificationTemplateDto,
  RenderedTemplateDto,
  UpdateNotificationTemplateDto,
} from './dto/notification.dto';
import { NotificationTemplate } from './entities/notification.entities';
import {
  CompiledTemplate,
  compileTemplate,
  renderTemplate,
  sampleContextOf,
  shippedTemplate,
  TEMPLATE_KINDS,
  TemplateParts,
} from './notification-templates';
import { NOTIFICATION_TEMPLATE_LIST_SPEC, NotificationsRepository } from './notifications.repository';

/** How long a process keeps a kind's templates before reading them again (a write in this process forgets them at once). */
const CACHE_MS = 5_000;

/** 400 on `kind` unless it is a notification kind or the digest. */
function assertKind(kind: string): void {
  if (!TEMPLATE_KINDS.includes(kind))
    throw ValidationException.field('kind', `is not a notification kind (${TEMPLATE_KINDS.join(', ')})`);
}

const toDto = (t: NotificationTemplate): NotificationTemplateDto => ({
  id: t.id,
  kind: t.kind,
  lang: t.lang,
  subject: t.subject,
  html: t.html,
  text: t.text,
  updated_at: t.updatedAt.toISOString(),
});

/**
 * Notification e-mail templates (issue 30): one per kind and language, written by Admins, checked
 * and rendered by the payslip templates' bounded interpreter against the kind's shape. A user's
 * `lang` picks its language's template, else the English one an Admin wrote, else the shipped one.
 */
@Injectable()
export class NotificationTemplatesService {
  private readonly repo: Repository<NotificationTemplate>;
  private readonly cache = new Map<string, { template: CompiledTemplate; until: number }>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: NotificationsRepository,
  ) {
    this.repo = ds.getRepository(NotificationTemplate);
  }

  async list(query: ListQueryDto): Promise<Page<NotificationTemplateDto>> {
    return (await this.repository.templates(parseListQuery(query, NOTIFICATION_TEMPLATE_LIST_SPEC))).map(toDto);
  }

  async get(id: number): Promise<NotificationTemplateDto> {
    return toDto(await this.find(id));
  }

  async create(dto: CreateNotificationTemplateDto): Promise<NotificationTemplateDto> {
    assertKind(dto.kind);
    const parts = { subject: dto.subject, html: dto.html, text: dto.text };
    this.check(dto.kind, parts);
    const lang = dto.lang ?? 'en';
    try {
      const saved = await transaction(this.ds, async (em) => {
        const row = await em
          .getRepository(NotificationTemplate)
          .save(Object.assign(new NotificationTemplate(), { kind: dto.kind, lang, ...parts }));
        await recordAudit(em, {
          action: 'create',
          resource: 'notification-templates',
          resourceId: String(row.id),
          after: toDto(row),
        });
        return row;
      });
      this.cache.clear();
      return toDto(saved);
    } catch (err) {
      if (isUniqueViolation(err))
        throw new DomainException('DUPLICATE', `The ${lang} template of ${dto.kind} already exists: change it instead`, [
          { field: 'lang', message: 'already exists' },
        ]);
      throw err;
    }
  }

  async update(id: number, dto: UpdateNotificationTemplateDto): Promise<NotificationTemplateDto> {
    const before = await this.find(id);
    const parts = { subject: dto.subject ?? before.subject, html: dto.html ?? before.html, text: dto.text ?? before.text };
    this.check(before.kind, parts);
    const saved = await transaction(this.ds, async (em) => {
      const row = await em.getRepository(NotificationTemplate).save(Object.assign(new NotificationTemplate(), before, parts));
      await recordAudit(em, {
        action: 'update',
        resource: 'notification-templates',
        resourceId: String(id),
        before: toDto(before),
        after: toDto(row),
      });
      return row;
    });
    this.cache.clear();
    return toDto(saved);
  }

  async remove(id: number): Promise<{ id: number }> {
    const before = await this.find(id);
    await transaction(this.ds, async (em) => {
      await em.getRepository(NotificationTemplate).delete({ id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'notification-templates',
        resourceId: String(id),
        before: toDto(before),
      });
    });
    this.cache.clear();
    return { id };
  }

  /** The kind's e-mail rendered with a sample context: the parts given, the rest from the template of `lang`. */
  async preview(dto: PreviewNotificationTemplateDto): Promise<RenderedTemplateDto> {
    assertKind(dto.kind);
    const current = await this.partsOf(dto.kind, dto.lang ?? 'en');
    const parts = { subject: dto.subject ?? current.subject, html: dto.html ?? current.html, text: dto.text ?? current.text };
    const template = this.check(dto.kind, parts);
    try {
      return renderTemplate(template, sampleContextOf(dto.kind));
    } catch (err) {
      if (err instanceof TemplateRenderError) throw ValidationException.field('html', err.message);
      throw err;
    }
  }

  /** The compiled template a user of `lang` gets for `kind` (TemplateRenderError from rendering it is the caller's). */
  async templateFor(kind: string, lang: string | null): Promise<CompiledTemplate> {
    const key = `${kind}|${lang ?? 'en'}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.template;
    const template = compileTemplate(kind, await this.partsOf(kind, lang ?? 'en'));
    if (this.cache.size > 200) this.cache.clear();
    this.cache.set(key, { template, until: Date.now() + CACHE_MS });
    return template;
  }

  /** The parts of the template in `lang`, else the Admin's English one, else the shipped one. */
  private async partsOf(kind: string, lang: string): Promise<TemplateParts> {
    const rows = await this.repo.find({ where: { kind, lang: In([...new Set([lang, 'en'])]) } });
    const chosen = rows.find((r) => r.lang === lang) ?? rows.find((r) => r.lang === 'en');
    return chosen ? { subject: chosen.subject, html: chosen.html, text: chosen.text } : shippedTemplate(kind);
  }

  /** Compiles the parts; a syntax error or a name the kind's data lacks is a 400 on its part. */
  private check(kind: string, parts: TemplateParts): CompiledTemplate {
    try {
      return compileTemplate(kind, parts);
    } catch (err) {
      if (err instanceof TemplateSyntaxError)
        throw ValidationException.field((err as TemplateSyntaxError & { part?: string }).part ?? 'html', err.message);
      throw err;
    }
  }

  private async find(id: number): Promise<NotificationTemplate> {
    const row = await this.repo.findOne({ where: { id } });
    if (!row) throw new NotFoundException('Notification template');
    return row;
  }
}
