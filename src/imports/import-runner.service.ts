import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { withBulkWriteCache } from '../common/database/sqlite-cache';
import { runAs } from '../common/audit/audit-context';
import { isDeadlock } from '../common/errors/db-errors';
import { DomainException } from '../common/errors/domain.exception';
import { JobContext } from '../common/queue/queue.constants';
import { AuthUser } from '../common/auth/auth-user';
import { outsideTransaction, transaction, TransactionOptions } from '../common/database/transaction';
import { ImportKind, ImportKinds, ImportSession } from '../common/import/import-kind';
import { SheetFileError } from '../common/import/sheet-readers';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { USER_DIRECTORY, UserDirectory } from '../auth/user-directory';
import { ImportRecord } from './entities/import.entities';
import { ImportFiles } from './import-files';
import { openSource, Source } from './import-source';
import { rowsOf, Tally } from './import-tally';
import { ImportsRepository } from './imports.repository';
import { FINISHED, IMPORT_STATES } from './imports.states';

/**
 * MariaDB: an import's transactions read committed data and take no gap locks, so that the sets
 * its rows replace (a salary, a payroll's cells) do not lock out other employees' writes while a
 * long import runs (ARCHITECTURE §15, the deadlock lesson).
 */
const IMPORT_TRANSACTION: TransactionOptions = { isolation: 'READ COMMITTED' };

/** Thrown inside a transaction to roll it back (a dry run, an all-or-nothing import with errors). */
class RollBack extends Error {}

/** Thrown when another attempt took the import over: this one stops without writing. */
class ClaimLost extends Error {}

/**
 * Runs an import's job: reads the file in batches, hands them to the kind's session, and keeps the
 * record's state, counters and errors. How it writes (docs/api/decisions.md §13):
 * - dry run: nothing stays (the kind checks without writing, or writes in a transaction that is
 *   rolled back); the import ends Validated with its errors.
 * - all-or-nothing: one transaction; any row error rolls it back and the import ends Failed. A
 *   worker that dies mid-import leaves nothing behind, and the next attempt starts over.
 * - valid-rows: a transaction per batch, which also records the rows done; the next attempt after
 *   a worker died continues after them.
 */
@Injectable()
export class ImportRunner {
  private readonly logger = new Logger('Imports');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
    private readonly kinds: ImportKinds,
    private readonly repository: ImportsRepository,
    private readonly files: ImportFiles,
  ) {}

  async run(importId: number, attempt: Pick<JobContext, 'attempt' | 'attempts'> = { attempt: 1, attempts: 1 }): Promise<void> {
    const record = await this.ds.getRepository(ImportRecord).findOne({ where: { id: importId } });
    if (!record || FINISHED.includes(record.status)) return; // it ended once already
    const claim = randomUUID();
    // A valid-rows import resumes after its rows done; any other pass starts over, its errors too.
    const resumes = record.mode === 'valid-rows' && !record.dryRun;
    const reset = resumes ? {} : { rowsTotal: 0, rowsValid: 0, rowsFailed: 0, rowsDone: 0 };
    const took = await transaction(this.ds, async (em) => {
      const moved = await IMPORT_STATES.move(
        em,
        ImportRecord,
        { id: importId, status: record.status },
        record.dryRun ? 'validate' : 'import',
        { claim, updatedAt: new Date(), ...reset },
      );
      if (moved && !resumes) await this.repository.deleteErrors(em, importId);
      return moved;
    });
    if (!took) return;
    Object.assign(record, { claim, ...reset });
    try {
      const caller = await this.callerOf(record.createdBy);
      if (!caller) throw new SheetFileError('The user who started the import is no longer an active administrator');
      const kind = this.kinds.get(record.kind);
      if (!kind) throw new SheetFileError(`Unknown kind ${record.kind}`);
      const session = await kind.start({ id: record.id, caller, payroll: record.payrollId });
      const copy = await this.files.localCopy(record);
      if (!copy) throw new SheetFileError('The uploaded file is no longer stored; upload it again');
      try {
        await runAs(caller.id, `import-${record.id}`, () =>
          withBulkWriteCache(this.ds, this.config.database, async () => {
            const tally = new Tally();
            const source = await openSource(copy.path, record, kind, tally, this.config.imports, session);
            if (resumes) await this.validRows(record, session, source, tally);
            else await this.wholeFile(record, kind, session, source, tally);
          }),
        );
      } finally {
        await copy.done();
      }
    } catch (err) {
      if (err instanceof ClaimLost) return;
      // A deadlock victim's attempt is retried by the queue: the next attempt takes the import over.
      if (isDeadlock(err) && attempt.attempt < attempt.attempts) throw err;
      // A file refused for what it is, or a kind's refusal of the whole import (a payroll that cannot be edited).
      const known = err instanceof SheetFileError || err instanceof DomainException;
      if (!known) this.logger.error({ err, import: importId }, 'import failed');
      const message = known
        ? err.message
        : `The import failed with an internal error (import ${importId}); the service log has the details`;
      await this.fail(record, message, null);
    }
  }

  /**
   * The import's user as its token would give it (level and departments as of now); null once it
   * is inactive or no longer an Admin or Restricted Admin (who alone may import).
   */
  private async callerOf(userId: number): Promise<AuthUser | null> {
    const user = await this.users.findById(userId);
    if (!user || !user.active || (user.userLevel !== 'Admin' && user.userLevel !== 'Restricted Admin')) return null;
    return {
      id: user.id,
      username: user.username,
      email: user.email,
      level: user.userLevel,
      employeeId: user.employeeId,
      departmentIds: user.userLevel === 'Restricted Admin' ? await this.users.departmentsOf(user.id) : [],
      mustChangePassword: false,
      grantId: `import-${userId}`,
    };
  }

  /** A dry run, or an all-or-nothing import: one pass, nothing kept unless every row is valid. */
  private async wholeFile(
    record: ImportRecord,
    kind: ImportKind,
    session: ImportSession,
    source: Source,
    tally: Tally,
  ): Promise<void> {
    const writes = !(record.dryRun && kind.validatesWithoutWriting);
    const work = async (em: EntityManager) => {
      for await (const batch of source.batches) {
        // A kind that checks without writing stops writing at the first invalid row (all is lost);
        // the others go on writing, since their checks are their writes.
        const apply = writes && (!kind.validatesWithoutWriting || tally.failed === 0);
        tally.add(batch, await session.batch(em, batch, apply));
        await this.progress(record, tally, source.progress(), writes);
      }
      if (record.dryRun || tally.failed > 0) throw new RollBack();
      await this.finish(em, record, 'complete', tally);
    };
    try {
      if (writes) await transaction(this.ds, work, IMPORT_TRANSACTION);
      else await work(this.ds.manager);
    } catch (err) {
      if (!(err instanceof RollBack)) throw err;
    }
    if (record.dryRun) await transaction(this.ds, (em) => this.finish(em, record, 'validated', tally));
    else if (tally.failed > 0)
      await this.fail(
        record,
        `${tally.failed} of ${rowsOf(tally.total, 'row')} ${tally.failed === 1 ? 'is' : 'are'} invalid: nothing was imported`,
        tally,
      );
    if (!record.dryRun) await this.files.remove(record);
  }

  /** valid-rows: a transaction per batch, with the batch's errors and the rows done; resumable after them. */
  private async validRows(record: ImportRecord, session: ImportSession, source: Source, tally: Tally): Promise<void> {
    const done = record.rowsDone;
    for await (const batch of source.batches) {
      const fresh = batch.filter((r) => r.row > done);
      if (fresh.length < batch.length) session.remember?.(batch.filter((r) => r.row <= done));
      if (fresh.length === 0) continue;
      await transaction(
        this.ds,
        async (em) => {
          const failed = tally.add(fresh, await session.batch(em, fresh, true));
          await this.repository.insertErrors(em, record.id, tally.take());
          const moved = await em.update(
            ImportRecord,
            { id: record.id, claim: record.claim!, status: 'Importing' },
            {
              rowsTotal: () => `rows_total + ${fresh.length}`,
              rowsFailed: () => `rows_failed + ${failed}`,
              rowsValid: () => `rows_valid + ${fresh.length - failed}`,
              rowsDone: fresh[fresh.length - 1].row,
              progress: source.progress(),
              updatedAt: new Date(),
            },
          );
          if (moved.affected !== 1) throw new ClaimLost();
        },
        IMPORT_TRANSACTION,
      );
    }
    await transaction(this.ds, async (em) => {
      await this.repository.insertErrors(em, record.id, tally.take());
      const moved = await IMPORT_STATES.move(em, ImportRecord, { id: record.id, claim: record.claim! }, 'complete', {
        progress: 100,
        finishedAt: new Date(),
        updatedAt: new Date(),
      });
      if (!moved) throw new ClaimLost();
    });
    await this.files.remove(record);
  }

  /**
   * The counters and progress so far, for GET /imports/{id}. Inside a pass's long transaction they
   * are written beside it (MariaDB), or not at all (SQLite, where no other statement runs until it ends).
   */
  private async progress(record: ImportRecord, tally: Tally, progress: number, inTransaction: boolean): Promise<void> {
    const write = async () => {
      const moved = await this.ds
        .getRepository(ImportRecord)
        .update({ id: record.id, claim: record.claim! }, { rowsTotal: tally.total, progress, updatedAt: new Date() });
      if (moved.affected !== 1) throw new ClaimLost();
    };
    if (!inTransaction) await write();
    else await outsideTransaction(this.ds, write);
  }

  private async finish(em: EntityManager, record: ImportRecord, action: 'complete' | 'validated', tally: Tally): Promise<void> {
    const moved = await IMPORT_STATES.move(em, ImportRecord, { id: record.id, claim: record.claim! }, action, {
      rowsTotal: tally.total,
      rowsValid: tally.total - tally.failed,
      rowsFailed: tally.failed,
      rowsDone: action === 'complete' ? tally.total : 0,
      progress: 100,
      finishedAt: new Date(),
      updatedAt: new Date(),
    });
    if (!moved) throw new ClaimLost();
    await this.repository.insertErrors(em, record.id, tally.take());
  }

  /**
   * Ends a running import Failed with `reason`, whichever attempt holds it: its job was given up
   * after its process died JOB_MAX_WORKER_DEATHS times.
   */
  async abandon(importId: number, reason: string): Promise<void> {
    const record = await this.ds.getRepository(ImportRecord).findOne({ where: { id: importId } });
    if (!record || FINISHED.includes(record.status)) return;
    const moved = await IMPORT_STATES.move(this.ds.manager, ImportRecord, { id: importId }, 'fail', {
      error: `The import was given up: ${reason} (the file may exceed what a worker can hold)`.slice(0, 500),
      progress: 100,
      finishedAt: new Date(),
      updatedAt: new Date(),
    });
    if (moved) {
      this.logger.error(`import ${importId} given up: ${reason}`);
      await this.files.remove(record);
    }
  }

  /** Ends the import Failed with `message` (and the rows' errors when a pass counted them); its file goes. */
  private async fail(record: ImportRecord, message: string, tally: Tally | null): Promise<void> {
    await transaction(this.ds, async (em) => {
      const counters = tally ? { rowsTotal: tally.total, rowsValid: tally.total - tally.failed, rowsFailed: tally.failed } : {};
      const moved = await IMPORT_STATES.move(em, ImportRecord, { id: record.id, claim: record.claim! }, 'fail', {
        ...counters,
        error: message.slice(0, 500),
        progress: 100,
        finishedAt: new Date(),
        updatedAt: new Date(),
      });
      if (moved && tally) await this.repository.insertErrors(em, record.id, tally.take());
    });
    await this.files.remove(record);
  }
}
