import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { OutboxEvent } from '../common/outbox/outbox.entities';
import { OutboxRelay, OutboxSubscriber, RelayedEvent } from '../common/outbox/outbox-relay';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob, JobContext } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { recordEvent } from '../common/outbox/outbox';
import './webhooks.events';
import { Webhook, WebhookDelivery } from './entities/webhook.entities';
import { postJson } from './post';
import { signedHeaders } from './signing';

export interface DeliverJobData {
  eventId: string;
  webhookId: number;
}

/** One event to one subscription; retried with exponential backoff (WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_BACKOFF_MS). */
export const DELIVER_JOB = defineJob<DeliverJobData>('webhooks', 'deliver');
/**
 * The webhooks' subscriber of the outbox relay (issue 42): for each event, one job on the
 * `webhooks` queue per active subscription to it, its job id made of the webhook id and the event's
 * uuid; then the cursor moves. A process that dies between the two queues the batch again: the job
 * ids make that a no-op while the jobs are kept (the last 1 000 completed), and a delivery already
 * made is not made again (`deliver` looks for it first). Receivers still de-duplicate on webhook-id,
 * as Standard Webhooks asks: a process that dies during the POST cannot know whether it arrived.
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnModuleInit, OutboxSubscriber {
  readonly name = 'webhooks';
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly relay: OutboxRelay,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      DELIVER_JOB,
      (data, ctx) => this.deliver(data, ctx),
      { attempts: this.config.webhooks.attempts, backoffMs: this.config.webhooks.retryBackoffMs },
      (data, reason) => this.abandon(data, reason),
    );
    this.relay.subscribe(this);
  }

  async handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<void> {
    const hooks = await em.find(Webhook, { where: { active: true }, select: { id: true, events: true, createdAt: true } });
    for (const event of events)
      for (const hook of hooks)
        // A subscription gets the events of its own time on (created_at has whole seconds on SQLite).
        if (hook.events.includes(event.event) && event.createdAt.getTime() >= Math.floor(hook.createdAt.getTime() / 1000) * 1000)
          await this.jobs.add(
            DELIVER_JOB,
            { eventId: event.eventId, webhookId: hook.id },
            { jobId: `webhook-${hook.id}-${event.eventId}` },
          );
  }

  /**
   * The job was given up after its process died JOB_MAX_WORKER_DEATHS times (during the POST, so
   * the receiver may or may not have it): the deliveries list says so, as an attempt that failed
   * with the reason, so an Admin sees why the event stopped and can ask the receiver.
   */
  async abandon({ eventId, webhookId }: DeliverJobData, reason: string): Promise<void> {
    const event = await this.dataSource.getRepository(OutboxEvent).findOne({ where: { eventId } });
    if (!event || !(await this.dataSource.getRepository(Webhook).exists({ where: { id: webhookId } }))) return;
    await this.dataSource.getRepository(WebhookDelivery).insert({
      webhookId,
      eventId,
      event: event.event,
      attempt: 0,
      statusCode: null,
      durationMs: 0,
      error: `given up: ${reason}; the receiver may or may not have it`.slice(0, 500),
      delivered: false,
      at: new Date(),
    });
  }

  /** One attempt: signed POST, the attempt recorded; a failure throws (retried) until the subscription has failed for a day. */
  async deliver({ eventId, webhookId }: DeliverJobData, ctx: JobContext): Promise<void> {
    const hook = await this.dataSource.getRepository(Webhook).findOne({ where: { id: webhookId } });
    const event = await this.dataSource.getRepository(OutboxEvent).findOne({ where: { eventId } });
    if (!hook || !hook.active || !event) return; // deleted or switched off meanwhile
    // Queued again by a relay that died before its cursor moved, after the job was removed: delivered once.
    if (await this.dataSource.getRepository(WebhookDelivery).exists({ where: { webhookId, eventId, delivered: true } })) return;
    const body = JSON.stringify({
      type: event.event,
      timestamp: event.createdAt.toISOString(),
      data: JSON.parse(event.payload) as unknown,
    });
    const result = await postJson(hook.url, body, signedHeaders(hook.secret, `msg_${eventId}`, body), {
      timeoutMs: this.config.webhooks.timeoutMs,
      allowPrivate: this.config.webhooks.allowPrivate,
    });
    const now = new Date();
    const since = hook.failingSince ?? now;
    const disable = result.error !== null && now.getTime() - since.getTime() >= this.config.webhooks.disableAfterSec * 1000;
    const reason = `deliveries failed since ${since.toISOString()}; last: ${result.error}`.slice(0, 500);
    // The attempt and what it means for the subscription (its failures' start, or its disabling), together.
    // The subscription's row is written before the attempt is inserted: the insert's foreign key takes a
    // shared lock on that row, and a shared lock raised to an exclusive one deadlocked on MariaDB with
    // any other writer of the row waiting in between (a secret's rotation, another attempt's update).
    const disabled = await transaction(this.dataSource, async (em) => {
      let off = false;
      if (result.error === null) {
        if (hook.failingSince) await em.update(Webhook, { id: webhookId }, { failingSince: null });
      } else {
        if (!hook.failingSince) await em.update(Webhook, { id: webhookId, failingSince: IsNull() }, { failingSince: now });
        if (disable) {
          off =
            (await em.update(Webhook, { id: webhookId, active: true }, { active: false, disabledReason: reason })).affected === 1;
          // Disabled here and now (once, whichever attempt got here first): the Admins' task is its reaction.
          if (off) await recordEvent(em, 'webhook.disabled', { webhook: webhookId, url: hook.url, reason });
        }
      }
      await em.insert(WebhookDelivery, {
        webhookId,
        eventId,
        event: event.event,
        attempt: ctx.attempt,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        delivered: result.error === null,
        at: now,
      });
      return off;
    });
    if (result.error === null) return;
    if (disable) {
      if (disabled) this.logger.warn(`webhook ${webhookId} disabled: ${reason}`);
      return;
    }
    throw new Error(`webhook ${webhookId}: ${result.error}`);
  }
}
