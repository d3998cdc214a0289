import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { recordEvent } from '../../common/outbox/outbox';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { JobQueue } from '../../common/queue/job-queue.service';
import { JobContext } from '../../common/queue/queue.constants';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { tableNamesOf } from '../config/payroll-columns';
import { PayrollTablesService } from '../config/payroll-tables.service';
import { Payroll, PayrollStatus } from '../entities/payroll-run.entities';
import '../payroll.events';
import { PayrollChunksRepository } from './payroll-chunks.repository';
import { PayrollProcessingService, PlanFailure } from './payroll-processing.service';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';
import { PayrollRunsRepository } from './payroll-runs.repository';
import {
  chunkJobId,
  chunkPriority,
  finishJobId,
  internalFailure,
  isCurrentClaim,
  PAYROLL_CHUNK_JOB,
  PAYROLL_FINISH_JOB,
  PayrollChunkJobData,
  payrollJobId,
  PayrollJobData,
  PayrollRunJobData,
} from './payroll.jobs';
import { PAYROLL_STATES } from './payroll.states';
import { cellsOf } from './run-inputs';

/**
 * Processing a payroll in chunks (issue 70, docs/api/payroll.md "Processing in chunks"): the first
 * step (PAYROLL_PROCESS_JOB) cuts the selection into chunks of PAYROLL_CHUNK_SIZE employees and
 * queues one job per chunk, which any worker takes; a chunk computes its employees with the engine
 * and writes their cells, errors and inputs under the run's revision in its own transaction; the
 * last step (PAYROLL_FINISH_JOB), queued by the chunk that completes the run, makes the revision the
 * payroll's: Processed, or Failed with every chunk's errors. With jobs in process (no Redis), the
 * first step runs the chunks itself, one after another.
 */
@Injectable()
export class PayrollChunksService {
  private readonly logger = new Logger('PayrollRuns');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly processing: PayrollProcessingService,
    private readonly repository: PayrollRunsRepository,
    private readonly chunks: PayrollChunksRepository,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly tables: PayrollTablesService,
    private readonly jobs: JobQueue,
  ) {}

  /**
   * The first step: the run's columns and table versions fixed, its employees cut into chunks
   * (once: a retried first step finds them), a job queued for each chunk not written yet.
   */
  async start(data: PayrollJobData): Promise<void> {
    const payroll = await this.payrolls.findOne({ where: { id: data.payrollId } });
    // Done already, deleted, or claimed again since this job was queued (that claim has its own job).
    if (!payroll || !isCurrentClaim(data, payroll, 'Processing') || !payroll.claim) return;
    const run: PayrollRunJobData = { payrollId: payroll.id, claim: payroll.claim, revision: payroll.runRevision };
    try {
      if (!(await this.chunks.exists(run.payrollId, run.revision))) {
        const columns = await this.processing.currentColumns(payroll);
        this.processing.plan(columns);
        const [ids, columnSetId, tables] = await Promise.all([
          this.processing.selectedIds(payroll),
          this.storedInputs.columnSetOf(columns),
          this.tables.inForce(tableNamesOf(columns), payroll.dateEnd),
        ]);
        const versions = [...tables.values()].map((t) => t.used);
        const size = this.config.payrollChunkSize;
        const count = await transaction(this.dataSource, (em) =>
          this.chunks.create(em, run.payrollId, run.revision, ids, size, columnSetId, versions),
        );
        // No employee selected: nothing to compute, the run ends with no cells.
        if (!count) return void (await this.finish(run));
      }
      const waiting = await this.chunks.waiting(run.payrollId, run.revision);
      if (waiting.length) await this.dispatch(run, waiting);
      else await this.queueFinish(run);
    } catch (err) {
      if (err instanceof PlanFailure) {
        // The errors the payroll shows (those of its current cells) are the columns'.
        await transaction(
          this.dataSource,
          (em) => this.repository.replaceErrors(em, payroll.id, payroll.cellsRevision, err.errors),
          SET_REPLACEMENT,
        );
        return void (await this.fail(run, err.message, 0, err.errors.length));
      }
      const job = payrollJobId('Processing', payroll.id, run.claim);
      this.logger.error(`payroll ${payroll.id} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.fail(run, internalFailure('processing', job), 0, 0);
    }
  }

  /**
   * A job for each of these chunks of the run, which any worker takes; with jobs in process (no
   * Redis), the chunks one after another in this job.
   */
  async dispatch(run: PayrollRunJobData, chunks: number[]): Promise<void> {
    if (this.jobs.kind === 'in-process') {
      for (const chunk of chunks) await this.chunk({ ...run, chunk });
      return;
    }
    for (const chunk of chunks)
      await this.jobs.add(
        PAYROLL_CHUNK_JOB,
        { ...run, chunk },
        { jobId: chunkJobId(run, chunk), priority: chunkPriority(chunk) },
      );
  }

  /**
   * One chunk: its employees' inputs read now, computed with the run's columns and table versions,
   * written with the chunk marked Done in one transaction. A failed attempt is retried; the last
   * one fails the payroll, naming the chunk.
   */
  async chunk(data: PayrollChunkJobData, ctx?: JobContext): Promise<void> {
    try {
      if ((await this.computeChunk(data)) === 'superseded') return;
    } catch (err) {
      if (ctx && ctx.attempt < ctx.attempts) throw err;
      const job = chunkJobId(data, data.chunk);
      this.logger.error(
        `payroll ${data.payrollId} chunk ${data.chunk} failed (job ${job}): ${(err as Error).stack ?? String(err)}`,
      );
      return void (await this.fail(data, internalFailure(`processing chunk ${data.chunk}`, job), 0, 0));
    }
    const progress = await this.chunks.progress(data.payrollId, data.revision);
    await this.chunks.showProgress(data, Math.min(99, Math.floor((progress.done * 100) / progress.total)));
    if (progress.done === progress.total) await this.queueFinish(data);
  }

  /**
   * The chunk's work. 'done': written now or by an earlier attempt (whose worker died before the
   * queue heard, and maybe before it queued the last step: the caller looks again);
   * 'superseded': its claim is no longer the payroll's.
   */
  private async computeChunk(data: PayrollChunkJobData): Promise<'done' | 'superseded'> {
    const payroll = await this.payrolls.findOne({ where: { id: data.payrollId } });
    if (!payroll || !isCurrentClaim(data, payroll, 'Processing')) return 'superseded';
    const row = await this.chunks.one(data.payrollId, data.revision, data.chunk);
    if (!row) return 'superseded';
    if (row.status === 'Done') return 'done';
    const columns = await this.storedInputs.columnSet(row.columnSetId);
    if (!columns) throw new Error(`column set ${row.columnSetId} of the run is gone`);
    const tables = await this.tables.used(row.tableVersions);
    const [inputs, edited] = await Promise.all([
      this.processing.liveInputs(payroll, row.employees, columns, tables),
      this.repository.editedCells(payroll.id, row.employees),
    ]);
    const result = await this.processing.computeFrom(inputs, row.employees, edited);
    return transaction(
      this.dataSource,
      async (em) => {
        // Under the payroll's row lock: a chunk of a claim superseded meanwhile writes nothing.
        const now = await this.chunks.lockForChunk(em, data.payrollId, data.revision, data.chunk);
        if (!now.payroll || !isCurrentClaim(data, now.payroll, 'Processing')) return 'superseded';
        if (now.done) return 'done';
        await this.storedInputs.insert(em, data.payrollId, data.revision, inputs.employees);
        await this.repository.insertCells(em, data.payrollId, data.revision, cellsOf(result, edited));
        await this.repository.insertErrors(em, data.payrollId, data.revision, result.errors);
        await this.chunks.markDone(em, data.payrollId, data.revision, data.chunk, result.errors.length);
        return 'done' as const;
      },
      SET_REPLACEMENT,
    );
  }

  /** Queues the last step: once per claim (its job id is the claim's; a second add finds it). */
  private async queueFinish(run: PayrollRunJobData): Promise<void> {
    await this.jobs.add(PAYROLL_FINISH_JOB, run, { jobId: finishJobId(run) });
  }

  /**
   * The last step: with every chunk written, the run's revision becomes the payroll's (its cells,
   * errors, inputs, columns and table versions) and the payroll Processed, or Failed when a chunk
   * found errors, in one transaction with its event; then what earlier runs left is removed.
   */
  async finish(run: PayrollRunJobData): Promise<void> {
    const payroll = await this.payrolls.findOne({ where: { id: run.payrollId } });
    if (!payroll) return;
    // Moved by an earlier attempt whose worker died while removing what earlier runs left: removes it.
    if (payroll.claim === run.claim && payroll.cellsRevision === run.revision && payroll.status !== 'Processing')
      return void (await this.cleanUp(run));
    if (!isCurrentClaim(run, payroll, 'Processing')) return;
    const progress = await this.chunks.progress(run.payrollId, run.revision);
    if (progress.done < progress.total) return;
    const plan = await this.chunks.plan(run.payrollId, run.revision);
    const older = await this.chunks.mayHaveOlderCells(payroll, run.revision);
    const failed = progress.errors > 0;
    const status: PayrollStatus = failed ? 'Failed' : 'Processed';
    const moved = await this.move(run, status, {
      error: failed ? `${progress.errors} cells could not be computed: see /errors` : null,
      processedAt: failed ? payroll.processedAt : new Date(),
      cellsRevision: run.revision,
      inputsRevision: run.revision,
      ...(plan ? { columnSetId: plan.columnSetId, tableVersions: plan.tableVersions } : {}),
      revision: () => 'revision + 1',
      employees: progress.employees,
      errors: progress.errors,
    });
    if (moved) await this.cleanUp(run, older);
  }

  private async cleanUp(run: PayrollRunJobData, cells = true): Promise<void> {
    await this.chunks.dropOlder(run.payrollId, run.revision, cells);
    await this.chunks.dropRun(run.payrollId, run.revision);
  }

  /** A chunk given up after its worker died JOB_MAX_WORKER_DEATHS times: the payroll Failed, naming it. */
  async abandonChunk(data: PayrollChunkJobData, reason: string): Promise<void> {
    await this.fail(data, `processing chunk ${data.chunk} was given up: ${reason}`, 0, 0);
  }

  private async fail(run: PayrollRunJobData, error: string, employees: number, errors: number): Promise<void> {
    await this.move(run, 'Failed', { error, employees, errors });
  }

  /** The outcome and its webhook event (payroll.processed or payroll.failed) in one transaction, for the run's claim only. */
  private async move(
    run: PayrollRunJobData,
    status: PayrollStatus,
    set: Partial<Record<keyof Payroll, unknown>> & { employees: number; errors: number },
  ): Promise<boolean> {
    const { employees, errors, ...fields } = set;
    const moved = await transaction(
      this.dataSource,
      async (em) => {
        const done = await PAYROLL_STATES.move(
          em,
          Payroll,
          { id: run.payrollId, status: 'Processing', claim: run.claim },
          status === 'Processed' ? 'processed' : 'fail',
          { progress: 100, ...fields } as QueryDeepPartialEntity<Payroll>,
        );
        if (done)
          await recordEvent(em, status === 'Processed' ? 'payroll.processed' : 'payroll.failed', {
            id: run.payrollId,
            status,
            employees,
            errors,
          });
        return done;
      },
      SET_REPLACEMENT,
    );
    if (moved)
      this.logger.log(`payroll ${run.payrollId} ${status} (claim ${run.claim}): ${employees} employees, ${errors} errors`);
    return moved;
  }
}
