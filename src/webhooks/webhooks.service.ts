import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, LessThan } from 'typeorm';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec, parseListQuery, findTablePage } from '../common/paging/list-request';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { CreateWebhookDto, UpdateWebhookDto, WebhookDeliveryDto, WebhookDto, WebhookWithSecretDto } from './dto/webhook.dto';
import { Webhook, WebhookDelivery } from './entities/webhook.entities';
import { postJson } from './post';
import { ADDRESS_PROBLEM, urlProblem } from './safe-address';
import { newSecret, signedHeaders } from './signing';

const RESOURCE = 'webhooks';

export function toWebhookDto(w: Webhook): WebhookDto {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    active: w.active,
    description: w.description,
    disabled_reason: w.disabledReason,
    created_at: w.createdAt.toISOString(),
  };
}

export function toDeliveryDto(d: WebhookDelivery): WebhookDeliveryDto {
  return {
    id: d.id,
    event: d.event,
    event_id: d.eventId,
    attempt: d.attempt,
    status_code: d.statusCode,
    duration_ms: d.durationMs,
    error: d.error,
    delivered: d.delivered,
    at: d.at.toISOString(),
  };
}

export const WEBHOOK_LIST_SPEC: ListSpec = { idColumn: 'w.id', sortFields: { id: 'w.id' } };
/** A webhook's deliveries: newest first. */
export const DELIVERY_LIST_SPEC: ListSpec = {
  idColumn: 'd.id',
  sortFields: { id: 'd.id' },
  defaultSort: { field: 'id', order: 'descend' },
};

/** Webhook subscriptions (Admins): the secret is made here and shown only when made. */
@Injectable()
export class WebhooksService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  private get repo() {
    return this.dataSource.getRepository(Webhook);
  }

  async list(query: ListQueryDto): Promise<Page<WebhookDto>> {
    const page = await findTablePage(this.repo, 'w', parseListQuery(query, WEBHOOK_LIST_SPEC));
    return page.map(toWebhookDto);
  }

  async get(id: number): Promise<WebhookDto> {
    return toWebhookDto(await this.find(id));
  }

  async create(dto: CreateWebhookDto): Promise<WebhookWithSecretDto> {
    await this.checkUrl(dto.url);
    const webhook = this.repo.create({
      url: dto.url,
      events: dto.events,
      active: dto.active ?? true,
      description: dto.description ?? null,
      secret: newSecret(),
      failingSince: null,
      disabledReason: null,
    });
    return transaction(this.dataSource, async (em) => {
      const saved = await em.getRepository(Webhook).save(webhook);
      const view = toWebhookDto(saved);
      await recordAudit(em, { action: 'create', resource: RESOURCE, resourceId: saved.id, after: view });
      return { ...view, secret: saved.secret };
    });
  }

  async update(id: number, dto: UpdateWebhookDto): Promise<WebhookDto> {
    const webhook = await this.find(id);
    const before = toWebhookDto(webhook);
    if (dto.url !== undefined) {
      await this.checkUrl(dto.url);
      webhook.url = dto.url;
    }
    if (dto.events !== undefined) webhook.events = dto.events;
    if (dto.description !== undefined) webhook.description = dto.description;
    if (dto.active !== undefined) {
      webhook.active = dto.active;
      // Switched on again by an Admin: its failures start afresh.
      if (dto.active) Object.assign(webhook, { failingSince: null, disabledReason: null });
    }
    return transaction(this.dataSource, async (em) => {
      const view = toWebhookDto(await em.getRepository(Webhook).save(webhook));
      await recordAudit(em, { action: 'update', resource: RESOURCE, resourceId: id, before, after: view });
      return view;
    });
  }

  async remove(id: number): Promise<{ id: number }> {
    const before = toWebhookDto(await this.find(id));
    await transaction(this.dataSource, async (em) => {
      await em.delete(Webhook, { id });
      await recordAudit(em, { action: 'delete', resource: RESOURCE, resourceId: id, before });
    });
    return { id };
  }

  /** A new secret, shown in this answer only; the old one stops signing at once. */
  async rotateSecret(id: number): Promise<WebhookWithSecretDto> {
    const webhook = await this.find(id);
    webhook.secret = newSecret();
    return transaction(this.dataSource, async (em) => {
      await em.update(Webhook, { id }, { secret: webhook.secret });
      // Recorded without the secret (the audit log never holds one): the entry says it changed.
      await recordAudit(em, {
        action: 'rotate-secret',
        resource: RESOURCE,
        resourceId: id,
        before: { rotated: false },
        after: { rotated: true },
      });
      return { ...toWebhookDto(webhook), secret: webhook.secret };
    });
  }

  async deliveries(id: number, query: ListQueryDto): Promise<Page<WebhookDeliveryDto>> {
    await this.find(id);
    const request = parseListQuery(query, DELIVERY_LIST_SPEC);
    const page = await findTablePage(this.dataSource.getRepository(WebhookDelivery), 'd', request, { webhook_id: id });
    return page.map(toDeliveryDto);
  }

  /** Sends a `webhook.ping` now, once, and answers with the attempt (recorded among the deliveries). */
  async test(id: number): Promise<WebhookDeliveryDto> {
    const webhook = await this.find(id);
    const eventId = randomUUID();
    const body = JSON.stringify({ type: 'webhook.ping', timestamp: new Date().toISOString(), data: { webhook: id } });
    const result = await postJson(webhook.url, body, signedHeaders(webhook.secret, `msg_${eventId}`, body), {
      timeoutMs: this.config.webhooks.timeoutMs,
      allowPrivate: this.config.webhooks.allowPrivate,
    });
    const delivery = await this.dataSource.getRepository(WebhookDelivery).save({
      webhookId: id,
      eventId,
      event: 'webhook.ping',
      attempt: 1,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
      error: result.error,
      delivered: result.error === null,
      at: new Date(),
    });
    return toDeliveryDto(delivery);
  }

  /** Deletes delivery attempts older than 30 days (maintenance:purge); returns how many. */
  async purgeDeliveries(now = new Date()): Promise<number> {
    const deliveries = await this.dataSource
      .getRepository(WebhookDelivery)
      .delete({ at: LessThan(new Date(now.getTime() - 30 * 86_400_000)) });
    return deliveries.affected ?? 0;
  }

  private async find(id: number): Promise<Webhook> {
    const webhook = await this.repo.findOne({ where: { id } });
    if (!webhook) throw new NotFoundException('Webhook');
    return webhook;
  }

  private async checkUrl(url: string): Promise<void> {
    const problem = await urlProblem(url, this.config.webhooks.allowPrivate);
    if (problem) {
      if (problem === ADDRESS_PROBLEM)
        throw new DomainException('WEBHOOK_URL_NOT_ALLOWED', `The webhook URL ${problem}`, [{ field: 'url', message: problem }]);
      throw ValidationException.field('url', problem);
    }
  }
}
