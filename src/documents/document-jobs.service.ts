import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { recordEvents } from '../common/outbox/outbox';
import { JobQueue } from '../common/queue/job-queue.service';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { addDays, daysBetween } from '../common/time/days';
import { documentStatus, dueMark, EXPIRED_MARK, expiringWindow } from './document-status';
import { DocumentTypesService } from './document-types.service';
import { DocumentsRepository, ExpiryCandidate } from './documents.repository';
import { DocumentExpiryPayload, DocumentReminderPayload } from './documents.events';
import {
  DOCUMENT_EXPIRY_EVERY_MS,
  DOCUMENT_EXPIRY_JOB,
  REMOVE_DOCUMENT_FILES_JOB,
  RETRY_DOCUMENT_FILE_REMOVALS_EVERY_MS,
  RETRY_DOCUMENT_FILE_REMOVALS_JOB,
} from './documents.jobs';
import { DocumentStatus } from './entities/document.entities';
import { DocumentType } from './entities/document-type.entity';

/** Documents read per batch of the expiry job. */
const BATCH = 500;

export interface ExpiryRun {
  /** Documents whose status changed. */
  marked: number;
  /** Reminders this run made (those another worker made first are not counted). */
  reminders: number;
}

/**
 * The documents' scheduled work: the daily expiry run (statuses, reminders as tasks and webhook
 * events, each once per document, version and mark whatever the number of workers) and the removal
 * of deleted documents' files (retried until the store has let them go).
 */
@Injectable()
export class DocumentJobsService implements OnModuleInit {
  private readonly logger = new Logger('Documents');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    private readonly repository: DocumentsRepository,
    private readonly types: DocumentTypesService,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {}

  onModuleInit(): void {
    this.jobs.register(DOCUMENT_EXPIRY_JOB, async () => {
      const run = await this.runExpiry();
      this.logger.log(`expiry run: ${run.marked} statuses changed, ${run.reminders} reminders`);
    });
    void this.jobs.schedule(DOCUMENT_EXPIRY_JOB, DOCUMENT_EXPIRY_EVERY_MS, 60_000);
    const removeFiles = async () => {
      const { failed } = await this.removeFiles();
      if (failed) throw new Error(`${failed} document files could not be removed from the store; retried later`);
    };
    this.jobs.register(REMOVE_DOCUMENT_FILES_JOB, removeFiles);
    this.jobs.register(RETRY_DOCUMENT_FILE_REMOVALS_JOB, removeFiles);
    void this.jobs.schedule(RETRY_DOCUMENT_FILE_REMOVALS_JOB, RETRY_DOCUMENT_FILE_REMOVALS_EVERY_MS);
  }

  /**
   * Brings every document's status to `day` and makes the reminders due: at each of its type's
   * notify_days_before marks, and on expiry. A batch's statuses, reminder rows and webhook events
   * commit together; tasks follow the commit.
   */
  async runExpiry(on?: string): Promise<ExpiryRun> {
    const day = on ?? (await this.clock.today());
    const types = new Map((await this.types.all()).map((t) => [t.id, t]));
    const horizon = addDays(day, Math.max(0, ...[...types.values()].map(expiringWindow)));
    const result: ExpiryRun = { marked: 0, reminders: 0 };
    for (const read of [
      (after: number) => this.repository.expiryCandidates(horizon, after, BATCH),
      (after: number) => this.repository.staleExpiring(horizon, after, BATCH),
    ]) {
      for (let after = 0; ;) {
        const batch = await read(after);
        if (!batch.length) break;
        after = batch[batch.length - 1].id;
        const done = await this.expiryBatch(batch, types, day);
        result.marked += done.marked;
        result.reminders += done.reminders;
      }
    }
    return result;
  }

  private async expiryBatch(batch: ExpiryCandidate[], types: Map<number, DocumentType>, day: string): Promise<ExpiryRun> {
    const changes = new Map<DocumentStatus, number[]>();
    const due: Array<{ documentId: number; version: number; mark: number }> = [];
    for (const doc of batch) {
      const type = types.get(doc.documentTypeId);
      if (!type) continue;
      const status = documentStatus(doc.validUntil, type, day);
      if (status !== doc.status) changes.set(status, [...(changes.get(status) ?? []), doc.id]);
      const mark = dueMark(doc.validUntil, type, day);
      if (mark !== null) due.push({ documentId: doc.id, version: doc.version, mark });
    }
    const byId = new Map(batch.map((d) => [d.id, d]));
    const run = randomUUID();
    const claimed = await transaction(this.ds, async (em) => {
      for (const [status, ids] of changes) await this.repository.setStatus(em, status, ids);
      const reminders = due.length ? await this.repository.claimReminders(em, run, due) : [];
      await recordEvents(
        em,
        reminders.map((r) => {
          const doc = byId.get(r.documentId)!;
          return {
            event: r.mark === EXPIRED_MARK ? ('document.expired' as const) : ('document.expiring' as const),
            data: {
              id: doc.id,
              employee: doc.employeeId,
              document_type: doc.documentTypeId,
              name: doc.name,
              version: r.version,
              valid_until: doc.validUntil!,
              days_left: daysBetween(day, doc.validUntil!),
            } satisfies DocumentExpiryPayload,
          };
        }),
      );
      // For the tasks (documents.reactions.ts): one per reminder, with its id.
      await recordEvents(
        em,
        reminders.map((r) => {
          const doc = byId.get(r.documentId)!;
          return {
            event: 'document.reminder' as const,
            data: {
              reminder: r.id,
              document: doc.id,
              employee: doc.employeeId,
              document_type: doc.documentTypeId,
              name: doc.name,
              valid_until: doc.validUntil!,
              days_left: r.mark === EXPIRED_MARK ? null : daysBetween(day, doc.validUntil!),
            } satisfies DocumentReminderPayload,
          };
        }),
      );
      return reminders;
    });
    return { marked: [...changes.values()].reduce((n, ids) => n + ids.length, 0), reminders: claimed.length };
  }

  /** Removes the files queued for removal; those the store refuses stay queued (their attempts counted). */
  async removeFiles(): Promise<{ removed: number; failed: number }> {
    let removed = 0;
    let failed = 0;
    for (let after = 0; ;) {
      const batch = await this.repository.pendingRemovals(after, 100);
      if (!batch.length) break;
      after = batch[batch.length - 1].id;
      const done: number[] = [];
      const refused: number[] = [];
      for (const removal of batch) {
        try {
          if (!(await this.repository.keyInUse(removal.fileKey))) await this.store.remove(removal.fileKey);
          done.push(removal.id);
        } catch (err) {
          this.logger.warn(`document file removal ${removal.id}: ${(err as Error).message}`);
          refused.push(removal.id);
        }
      }
      await this.repository.removalsDone(done);
      await this.repository.removalsFailed(refused);
      removed += done.length;
      failed += refused.length;
    }
    return { removed, failed };
  }
}
