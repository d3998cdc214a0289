import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { optimizeSqlite } from '../common/database/sqlite-statistics';
import { AuditService } from '../audit/audit.service';
import { TokenService } from '../auth/token.service';
import { IdempotencyInterceptor } from '../common/idempotency/idempotency.interceptor';
import { OutboxRelay } from '../common/outbox/outbox-relay';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { AUDIT_RETENTION_DAYS } from './maintenance.settings';
import { SettingsService } from '../settings/settings.service';
import { ImportsService } from '../imports/imports.service';
import { WebhooksService } from '../webhooks/webhooks.service';

/** The daily purge, on the `schedule` queue: once a day across all processes. */
export const PURGE_JOB = defineJob<Record<string, never>>('schedule', 'maintenance-purge');
export const PURGE_EVERY_MS = 24 * 3600_000;
/** SQLite's planner statistics, refreshed a minute after the start and hourly (MariaDB keeps its own: not scheduled there). */
export const STATISTICS_JOB = defineJob<Record<string, never>>('schedule', 'sqlite-statistics');
export const STATISTICS_EVERY_MS = 3600_000;

export interface PurgeCounts {
  tokens: number;
  idempotencyKeys: number;
  auditEntries: number;
  auditRetentionDays: number;
  /** Outbox events every subscriber has handled, recorded over 7 days ago. */
  outboxEvents: number;
  webhookDeliveries: number;
  /** Files of dry runs validated over a week ago and never committed. */
  importFiles: number;
}

/**
 * What has outlived its use: tokens expired for more than a day, expired idempotency keys, audit
 * entries past *Audit Log Retention Days*, outbox events every subscriber has handled and old
 * webhook delivery attempts, the
 * files of dry-run imports not committed within a week.
 * Run daily as a scheduled job; `hr maintenance:purge` runs it at once.
 */
@Injectable()
export class MaintenanceService implements OnModuleInit {
  private readonly logger = new Logger('Maintenance');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
    private readonly tokens: TokenService,
    private readonly idempotency: IdempotencyInterceptor,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly webhooks: WebhooksService,
    private readonly imports: ImportsService,
    private readonly outbox: OutboxRelay,
  ) {}

  onModuleInit(): void {
    this.jobs.register(PURGE_JOB, async () => {
      const counts = await this.purge();
      this.logger.log(`daily purge: ${JSON.stringify(counts)}`);
    });
    void this.jobs.schedule(PURGE_JOB, PURGE_EVERY_MS); // before the start: nothing to wait for
    this.jobs.register(STATISTICS_JOB, () => optimizeSqlite(this.dataSource));
    // Also a minute after the start: a database loaded since (an import, a restore) is planned with its statistics.
    if (this.dataSource.options.type === 'better-sqlite3') void this.jobs.schedule(STATISTICS_JOB, STATISTICS_EVERY_MS, 60_000);
  }

  async purge(): Promise<PurgeCounts> {
    const tokens = await this.tokens.purgeExpired();
    const idempotencyKeys = await this.idempotency.purgeExpired();
    const auditRetentionDays = Number(await this.settings.get(AUDIT_RETENTION_DAYS));
    const auditEntries = await this.audit.purgeOlderThan(auditRetentionDays);
    const outboxEvents = await this.outbox.purge(new Date(Date.now() - 7 * 86_400_000));
    const webhookDeliveries = await this.webhooks.purgeDeliveries();
    const importFiles = await this.imports.purgeStaleFiles();
    return {
      tokens,
      idempotencyKeys,
      auditEntries,
      auditRetentionDays,
      outboxEvents,
      webhookDeliveries,
      importFiles,
    };
  }
}
