import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, LessThan } from 'typeorm';
import { transaction } from '../common/database/transaction';
import { recordEvent } from '../common/outbox/outbox';
import { PersonalData } from '../common/privacy/personal-data';
import { JobQueue } from '../common/queue/job-queue.service';
import { JobContext, workerDeathsReason } from '../common/queue/queue.constants';
import { FILE_STORE, FileStore } from '../common/storage/file-store';
import { CompanyClock } from '../common/time/company-clock';
import { toWholeSecond } from '../common/time/instants';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { PersonalDataExport } from './entities/personal-data-export.entity';
import { UNFINISHED } from './personal-data-exports.service';
import { exportJobId, PERSONAL_DATA_EXPORT_JOB, PERSONAL_DATA_EXPORTS_SWEEP_JOB, SWEEP_EVERY_MS } from './privacy.jobs';
import { SubjectZip } from './subject-zip';
import './privacy.events';

/** The largest archive kept: far above what a working life fills (ten years of records and hundreds of documents are 30 MiB). */
const MAX_ARCHIVE_BYTES = 8 * 1024 ** 3;
/** An unfinished export untouched this long, whose job is not live, died with its process. */
const STALLED_MS = 10 * 60_000;

/**
 * Builds subject-access exports (issue 69): each module that holds personal data writes its part
 * (common/privacy PersonalData, in the holders' order) into one ZIP streamed into the file store;
 * the export then turns Ready and records `personal_data.exported`. A failed attempt is retried
 * from the start (its partial upload is discarded by the store); the last one ends Failed. Every
 * 10 minutes expired exports lose their file and exports whose process died run again.
 */
@Injectable()
export class PersonalDataExportRunner implements OnModuleInit {
  private readonly logger = new Logger('Privacy');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(FILE_STORE) private readonly store: FileStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly personalData: PersonalData,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {
    // The person's exports go with its other data: their files removed, unfinished ones failed (a late build keeps nothing).
    personalData.register({
      name: 'personal-data-exports',
      order: 35,
      anonymise: async (em, subject) => {
        const repo = em.getRepository(PersonalDataExport);
        const exports = await repo.find({
          where: { employeeId: subject.employeeId },
          select: { id: true, fileKey: true, status: true },
        });
        if (!exports.length) return;
        const now = toWholeSecond(this.clock.now());
        const reason = 'the employee was anonymised';
        await repo.update(
          { employeeId: subject.employeeId, status: In([...UNFINISHED]) },
          { status: 'Failed', error: reason, finishedAt: now, updatedAt: now },
        );
        await repo.update(
          { employeeId: subject.employeeId, status: 'Ready' },
          { status: 'Expired', fileKey: null, updatedAt: now },
        );
        const keys = exports.flatMap((e) => (e.fileKey ? [e.fileKey] : []));
        return async () => {
          for (const key of keys) await this.store.remove(key);
        };
      },
    });
  }

  onModuleInit(): void {
    this.jobs.register(
      PERSONAL_DATA_EXPORT_JOB,
      ({ exportId }, ctx) => this.run(exportId, ctx),
      undefined,
      ({ exportId }, reason) => this.fail(exportId, reason),
    );
    this.jobs.register(PERSONAL_DATA_EXPORTS_SWEEP_JOB, () => this.sweep());
    void this.jobs.schedule(PERSONAL_DATA_EXPORTS_SWEEP_JOB, SWEEP_EVERY_MS);
  }

  async run(exportId: number, ctx: Pick<JobContext, 'attempt' | 'attempts'> = { attempt: 1, attempts: 1 }): Promise<void> {
    const repo = this.ds.getRepository(PersonalDataExport);
    const took = await repo.update(
      { id: exportId, status: In([...UNFINISHED]) },
      { status: 'Running', updatedAt: toWholeSecond(this.clock.now()) },
    );
    if (took.affected !== 1) return; // it ended once already
    const record = await repo.findOneByOrFail({ id: exportId });
    try {
      const stored = await this.build(record);
      const finished = await transaction(this.ds, async (em) => {
        const now = toWholeSecond(this.clock.now());
        const moved = await em
          .getRepository(PersonalDataExport)
          .update(
            { id: exportId, status: 'Running' },
            { status: 'Ready', fileKey: stored.key, size: stored.size, finishedAt: now, updatedAt: now, error: null },
          );
        if (moved.affected !== 1) return false;
        await recordEvent(em, 'personal_data.exported', {
          id: record.id,
          employee: record.employeeId,
          requested_by: record.requestedBy,
          size: stored.size,
          expires_at: record.expiresAt.toISOString(),
        });
        return true;
      });
      if (!finished) await this.store.remove(stored.key); // another attempt ended it meanwhile
    } catch (err) {
      const message = (err as Error).message;
      this.logger.warn(`export ${exportId}, attempt ${ctx.attempt}: ${message}`);
      if (ctx.attempt < ctx.attempts) throw err;
      await this.fail(exportId, message);
    }
  }

  /** The ZIP of the employee's data, streamed into the store as the holders write it. */
  private async build(record: PersonalDataExport): Promise<{ key: string; size: number }> {
    const zip = new SubjectZip(this.ds.manager, this.store, record.createdAt);
    const putting = this.store.put(zip.output, { maxBytes: MAX_ARCHIVE_BYTES, contentType: 'application/zip' });
    putting.catch(() => zip.abort());
    const writing = (async () => {
      for (const holder of this.personalData.all())
        if (holder.export) await holder.export(this.ds.manager, record.employeeId, zip);
      await zip.finish();
    })();
    writing.catch(() => zip.abort());
    const [stored] = await Promise.all([putting, writing]);
    return { key: stored.key, size: stored.size };
  }

  /** The export ends Failed with `reason` (its last attempt failed, or its process died too often). */
  async fail(exportId: number, reason: string): Promise<void> {
    const now = toWholeSecond(this.clock.now());
    await this.ds
      .getRepository(PersonalDataExport)
      .update(
        { id: exportId, status: In([...UNFINISHED]) },
        { status: 'Failed', error: reason.slice(0, 500), finishedAt: now, updatedAt: now },
      );
  }

  /** Expired exports lose their file (Ready → Expired); unfinished exports whose job died run again. */
  async sweep(now = this.clock.now()): Promise<{ expired: number; restarted: number }> {
    const repo = this.ds.getRepository(PersonalDataExport);
    let expired = 0;
    for (const e of await repo.find({ where: { status: 'Ready', expiresAt: LessThan(now) }, take: 500 })) {
      if (e.fileKey) await this.store.remove(e.fileKey);
      const moved = await repo.update(
        { id: e.id, status: 'Ready' },
        { status: 'Expired', fileKey: null, updatedAt: toWholeSecond(now) },
      );
      expired += moved.affected ?? 0;
    }
    let restarted = 0;
    const before = new Date(now.getTime() - STALLED_MS);
    for (const e of await repo.find({ where: { status: In([...UNFINISHED]), updatedAt: LessThan(before) }, take: 100 })) {
      if (await this.jobs.isLive(PERSONAL_DATA_EXPORT_JOB, exportJobId(e.id, e.restarts ? `-r${e.restarts}` : ''))) continue;
      if (e.status === 'Running' && e.restarts + 1 >= this.config.jobMaxDeaths) {
        await this.fail(e.id, workerDeathsReason(e.restarts + 1));
        continue;
      }
      const restarts = e.restarts + 1;
      const moved = await repo.update({ id: e.id, restarts: e.restarts }, { restarts, updatedAt: toWholeSecond(now) });
      if (moved.affected !== 1) continue;
      await this.jobs.add(PERSONAL_DATA_EXPORT_JOB, { exportId: e.id }, { jobId: exportJobId(e.id, `-r${restarts}`) });
      restarted++;
    }
    if (expired || restarted) this.logger.log(`personal data exports: ${expired} expired, ${restarted} restarted`);
    return { expired, restarted };
  }
}
