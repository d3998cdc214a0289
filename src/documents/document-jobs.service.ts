import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { recordEvents } from '../common/outbox/outbox';
import { JobQueue } from '../common/queue/job-queue.service';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { EmployeeAccessService } from '../employees/employee-access.service';
import { ReferenceService } from '../reference/reference.service';
import { UsersService } from '../users/users.service';
import { addDays, daysBetween, documentStatus, dueMark, EXPIRED_MARK, expiringWindow, today } from './document-status';
import { DocumentTypesService } from './document-types.service';
import { DocumentsRepository, ExpiryCandidate } from './documents.repository';
import { DOCUMENT_REMINDER_EVENT, DocumentExpiryPayload, DocumentReminderEvent } from './documents.events';
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
    private readonly access: EmployeeAccessService,
    private readonly reference: ReferenceService,
    private readonly users: UsersService,
    private readonly events: EventEmitter2,
    private readonly jobs: JobQueue,
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
  async runExpiry(day = today()): Promise<ExpiryRun> {
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
      return reminders;
    });
    for (const r of claimed) {
      const doc = byId.get(r.documentId)!;
      const type = types.get(doc.documentTypeId)!;
      try {
        await this.events.emitAsync(DOCUMENT_REMINDER_EVENT, {
          reminderId: r.id,
          documentId: doc.id,
          employeeId: doc.employeeId,
          documentName: doc.name,
          validUntil: doc.validUntil!,
          daysLeft: r.mark === EXPIRED_MARK ? null : daysBetween(day, doc.validUntil!),
          userIds: await this.recipients(doc.employeeId, type.visibleToEmployee),
        } satisfies DocumentReminderEvent);
      } catch (err) {
        this.logger.error(`reminder ${r.id} of document ${doc.id}: ${(err as Error).message}`);
      }
    }
    return { marked: [...changes.values()].reduce((n, ids) => n + ids.length, 0), reminders: claimed.length };
  }

  /** Who hears of a document's expiry: as `recipients`, for a document of type `typeId` (notifications). */
  async recipientsOf(employeeId: number, typeId: number): Promise<number[]> {
    const type = await this.types.byId(typeId);
    return this.recipients(employeeId, type?.visibleToEmployee ?? false);
  }

  /** The employee's HR (its department's Restricted Admins, else the Admins), and the employee's user where the type is visible to it. */
  private async recipients(employeeId: number, employeeToo: boolean): Promise<number[]> {
    const employee = await this.access.employee(employeeId);
    const departments = employee?.departmentId ? await this.reference.ancestors(employee.departmentId) : [];
    const hr = await this.users.administratorsOf(departments);
    const own = employeeToo ? (await this.users.usersOfEmployees([employeeId])).map((u) => u.user) : [];
    return [...new Set([...hr, ...own])];
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
