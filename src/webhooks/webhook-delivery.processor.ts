import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob, JobContext } from '../common/queue/queue.constants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { TasksService } from '../tasks/tasks.service';
import { UsersService } from '../users/users.service';
import { OutboxEvent, Webhook, WebhookDelivery } from './entities/webhook.entities';
import { postJson } from './post';
import { signedHeaders } from './signing';
import { WebhooksRepository } from './webhooks.repository';

/** A datetime column as read raw: a Date (mysql2) or 'YYYY-MM-DD HH:MM:SS.mmm' in UTC (SQLite). */
const utc = (v: string | Date) => (v instanceof Date ? v.getTime() : Date.parse(`${v.replace(' ', 'T')}Z`));

export interface DeliverJobData {
  eventId: string;
  webhookId: number;
}

/** One event to one subscription; retried with exponential backoff (WEBHOOK_ATTEMPTS, WEBHOOK_RETRY_BACKOFF_MS). */
export const DELIVER_JOB = defineJob<DeliverJobData>('webhooks', 'deliver');
/** The outbox's dispatch, every WEBHOOK_DISPATCH_MS on the `schedule` queue: one run at a time across all processes. */
export const DISPATCH_JOB = defineJob<Record<string, never>>('schedule', 'webhooks-dispatch');

/**
 * Moves events from the outbox to the `webhooks` queue (one job per event and subscribed active
 * webhook, the job id made of the event's uuid and the webhook id) and delivers them. The
 * dispatch is a scheduled job (DISPATCH_JOB, every WEBHOOK_DISPATCH_MS) run by one consumer at a
 * time; on MariaDB `FOR UPDATE SKIP LOCKED` would still let several share the outbox. An event is marked dispatched in the
 * transaction that queued it: a crash before the commit dispatches it again (at least once: the
 * receiver de-duplicates on webhook-id).
 */
@Injectable()
export class WebhookDeliveryProcessor implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private dispatching: Promise<number> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly repository: WebhooksRepository,
    private readonly tasks: TasksService,
    private readonly users: UsersService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(DELIVER_JOB, (data, ctx) => this.deliver(data, ctx), {
      attempts: this.config.webhooks.attempts,
      backoffMs: this.config.webhooks.retryBackoffMs,
    });
    this.jobs.register(DISPATCH_JOB, async () => {
      await this.dispatch().catch((err: Error) => this.logger.warn(`dispatch failed: ${err.message}`));
    });
    void this.jobs.schedule(DISPATCH_JOB, this.config.webhooks.dispatchMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatching?.catch(() => undefined);
  }

  /** Queues the outbox's undispatched events (up to 500); returns how many events it took. */
  dispatch(): Promise<number> {
    this.dispatching ??= this.dispatchBatch().finally(() => (this.dispatching = null));
    return this.dispatching;
  }

  private dispatchBatch(): Promise<number> {
    // READ COMMITTED: the locking read locks the rows it takes and no gap. In REPEATABLE READ it
    // also locked the gap every new event is inserted into, for the whole batch (Redis calls
    // included): every audited change waited for the dispatcher, and deadlocked with it when the
    // dispatcher's UPDATE waited for that change in turn (a 500 on POST /leaves in the CI soak).
    return transaction(
      this.dataSource,
      async (em) => {
        const rows = await this.repository.undispatched(em, 500);
        if (!rows.length) return 0;
        const hooks = await em.find(Webhook, { where: { active: true }, select: { id: true, events: true, createdAt: true } });
        for (const row of rows)
          for (const hook of hooks)
            // A subscription gets the events of its own time on (created_at has whole seconds on SQLite).
            if (hook.events.includes(row.event) && utc(row.created_at) >= Math.floor(hook.createdAt.getTime() / 1000) * 1000)
              await this.jobs.add(
                DELIVER_JOB,
                { eventId: row.event_id, webhookId: hook.id },
                { jobId: `webhook-${hook.id}-${row.event_id}` },
              );
        await em.update(
          OutboxEvent,
          { id: In(rows.map((r) => Number(r.id))), dispatchedAt: IsNull() },
          { dispatchedAt: new Date() },
        );
        return rows.length;
      },
      { isolation: 'READ COMMITTED' },
    );
  }

  /** One attempt: signed POST, the attempt recorded; a failure throws (retried) until the subscription has failed for a day. */
  async deliver({ eventId, webhookId }: DeliverJobData, ctx: JobContext): Promise<void> {
    const hook = await this.dataSource.getRepository(Webhook).findOne({ where: { id: webhookId } });
    const event = await this.dataSource.getRepository(OutboxEvent).findOne({ where: { eventId } });
    if (!hook || !hook.active || !event) return; // deleted or switched off meanwhile
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
    const disabled = await transaction(this.dataSource, async (em) => {
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
      if (result.error === null) {
        if (hook.failingSince) await em.update(Webhook, { id: webhookId }, { failingSince: null });
        return false;
      }
      if (!hook.failingSince) await em.update(Webhook, { id: webhookId, failingSince: IsNull() }, { failingSince: now });
      if (!disable) return false;
      const off = await em.update(Webhook, { id: webhookId, active: true }, { active: false, disabledReason: reason });
      return off.affected === 1;
    });
    if (result.error === null) return;
    if (disable) {
      if (disabled) {
        this.logger.warn(`webhook ${webhookId} disabled: ${reason}`);
        await this.tasks.safely(`task of disabled webhook ${webhookId}`, async () =>
          this.tasks.assign('webhook-disabled', webhookId, await this.users.adminIds(), {
            title: `Webhook ${webhookId} was disabled`,
            description: `Deliveries to ${hook.url} failed for a day (${reason}). Fix the receiver, then PUT /webhooks/${webhookId} {"active": true}.`,
            priority: 'High',
            link: `/webhooks/${webhookId}/deliveries`,
          }),
        );
      }
      return;
    }
    throw new Error(`webhook ${webhookId}: ${result.error}`);
  }
}
