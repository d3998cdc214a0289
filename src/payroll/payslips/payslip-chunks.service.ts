import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Repository } from 'typeorm';
import { SET_REPLACEMENT, transaction } from '../../common/database/transaction';
import { recordEvent } from '../../common/outbox/outbox';
import { JobQueue } from '../../common/queue/job-queue.service';
import { JobContext } from '../../common/queue/queue.constants';
import { TemplateRenderError } from '../../common/template/template';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Payroll, Payslip, PayslipFailure } from '../entities/payroll-run.entities';
import '../payroll.events';
import { PayrollChunksRepository } from '../runs/payroll-chunks.repository';
import { PayrollGridService } from '../runs/payroll-grid.service';
import { PayrollRunsRepository } from '../runs/payroll-runs.repository';
import { PayrollSettlements } from '../runs/payroll-settlements';
import { PayrollTransitionsService } from '../runs/payroll-transitions.service';
import {
  chunkPriority,
  internalFailure,
  isCurrentClaim,
  PAYSLIP_CHUNK_JOB,
  payslipChunkJobId,
  PayslipChunkJobData,
  PAYSLIPS_FINISH_JOB,
  payslipsFinishJobId,
  PAYSLIPS_JOB,
  PayslipsJobData,
  payrollJobId,
  PayrollJobData,
} from '../runs/payroll.jobs';
import { PAYROLL_STATES } from '../runs/payroll.states';
import { PayslipChunksRepository } from '../runs/payslip-chunks.repository';
import { PayslipContextsService } from './payslip-contexts.service';
import { PayslipPdfsService } from './payslip-pdfs.service';
import { PayslipTemplatesService } from './payslip-templates.service';

/** A settling input refused the payroll's records (PayrollSettlements): its sentence is the payroll's error. */
class SettlementRefused extends Error {}

/**
 * Generating a payroll's payslips in chunks (issue 70, docs/api/payroll.md "Payslips in chunks"):
 * the first step (PAYSLIPS_JOB) cuts the payroll's employees into chunks of PAYSLIP_CHUNK_SIZE and
 * queues one job per chunk, which any worker takes (each worker with its own browser); a chunk
 * renders its employees' payslips and writes them under the claim's row lock, then their PDFs, and
 * is marked Done with what could not be made; the last step (PAYSLIPS_FINISH_JOB), queued by the
 * chunk that completes the claim, settles and completes the payroll, or sends it back to Processed
 * with every chunk's failures and no payslips. With jobs in process (no Redis), the first step runs
 * the chunks itself, one after another.
 */
@Injectable()
export class PayslipChunksService implements OnModuleInit {
  private readonly logger = new Logger('Payslips');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly repository: PayrollRunsRepository,
    private readonly chunks: PayslipChunksRepository,
    private readonly runChunks: PayrollChunksRepository,
    private readonly transitions: PayrollTransitionsService,
    private readonly templates: PayslipTemplatesService,
    private readonly contexts: PayslipContextsService,
    private readonly grid: PayrollGridService,
    private readonly pdfs: PayslipPdfsService,
    private readonly settlements: PayrollSettlements,
    private readonly jobs: JobQueue,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      PAYSLIPS_JOB,
      (data) => this.start(data),
      undefined,
      (data, reason) => this.transitions.abandon('Completing', data, reason),
    );
    this.jobs.register(
      PAYSLIP_CHUNK_JOB,
      (data, ctx) => this.chunk(data, ctx),
      undefined,
      (data, reason) => this.failRun(data, `generating payslips chunk ${data.chunk} was given up: ${reason}`),
    );
    this.jobs.register(PAYSLIPS_FINISH_JOB, (data) => this.finish(data));
  }

  /**
   * The first step: the template checked, earlier generations' payslips removed and the payroll's
   * employees cut into chunks (once: a retried first step finds them), a job queued for each chunk
   * not written yet.
   */
  async start(data: PayrollJobData): Promise<void> {
    const payroll = await this.payrolls.findOne({ where: { id: data.payrollId } });
    if (!payroll || !isCurrentClaim(data, payroll, 'Completing') || !payroll.claim || payroll.payslipTemplateId === null) return;
    const run: PayslipsJobData = { payrollId: payroll.id, claim: payroll.claim };
    try {
      if (!(await this.chunks.exists(run.payrollId, run.claim))) {
        const render = await this.templates.renderer(payroll.payslipTemplateId);
        if (typeof render === 'string') return void (await this.backToProcessed(run, render));
        // What an earlier generation left (one given up midway) goes first, its errors too.
        await this.removePayslips(run.payrollId, []);
        await this.chunks.dropOthers(run.payrollId, run.claim);
        const employees = (await this.repository.cellEmployees(run.payrollId, null)).sort((a, b) => a - b);
        const count = await transaction(this.dataSource, (em) =>
          this.chunks.create(em, run.payrollId, run.claim, employees, this.config.payslipChunkSize),
        );
        if (!count) return void (await this.finish(run));
      }
      const waiting = await this.chunks.waiting(run.payrollId, run.claim);
      if (waiting.length) await this.dispatch(run, waiting);
      else await this.queueFinish(run);
    } catch (err) {
      const job = payrollJobId('Completing', run.payrollId, run.claim);
      this.logger.error(`payslips of payroll ${run.payrollId} failed (job ${job}): ${(err as Error).stack ?? String(err)}`);
      await this.failRun(run, internalFailure('generating payslips', job));
    }
  }

  /** A job for each of these chunks, which any worker takes; with jobs in process, the chunks one after another here. */
  private async dispatch(run: PayslipsJobData, chunks: number[]): Promise<void> {
    if (this.jobs.kind === 'in-process') {
      for (const chunk of chunks) await this.chunk({ ...run, chunk });
      return;
    }
    for (const chunk of chunks)
      await this.jobs.add(
        PAYSLIP_CHUNK_JOB,
        { ...run, chunk },
        { jobId: payslipChunkJobId(run, chunk), priority: chunkPriority(chunk) },
      );
  }

  /** One chunk; a failed attempt is retried, the last one sends the payroll back to Processed, naming the chunk. */
  async chunk(data: PayslipChunkJobData, ctx?: JobContext): Promise<void> {
    try {
      if ((await this.renderChunk(data)) === 'superseded') return;
    } catch (err) {
      if (ctx && ctx.attempt < ctx.attempts) throw err;
      const job = payslipChunkJobId(data, data.chunk);
      this.logger.error(
        `payslips of payroll ${data.payrollId} chunk ${data.chunk} failed (job ${job}): ${(err as Error).stack ?? String(err)}`,
      );
      return void (await this.failRun(data, internalFailure(`generating payslips chunk ${data.chunk}`, job)));
    }
    const progress = await this.chunks.progress(data.payrollId, data.claim);
    await this.runChunks.showProgress(data, Math.min(99, Math.floor((progress.done * 100) / progress.total)), 'Completing');
    if (progress.done === progress.total) await this.queueFinish(data);
  }

  /**
   * The chunk's payslips rendered and written in place of an earlier attempt's (under the payroll's
   * row lock: a superseded claim writes nothing), then their PDFs, then the chunk marked Done with
   * what could not be made. 'done': written now or before; 'superseded': the claim is no longer the
   * payroll's.
   */
  private async renderChunk(data: PayslipChunkJobData): Promise<'done' | 'superseded'> {
    const payroll = await this.payrolls.findOne({ where: { id: data.payrollId } });
    if (!payroll || !isCurrentClaim(data, payroll, 'Completing') || payroll.payslipTemplateId === null) return 'superseded';
    const row = await this.chunks.one(data.payrollId, data.claim, data.chunk);
    if (!row) return 'superseded';
    if (row.status === 'Done') return 'done';
    const failures: PayslipFailure[] = [];
    const payslips: Array<Pick<Payslip, 'payrollId' | 'employeeId' | 'html'>> = [];
    // The template changed since the first step checked it: each of the chunk's payslips says so.
    const render = await this.templates.renderer(payroll.payslipTemplateId);
    if (typeof render === 'string') failures.push(...row.employees.map((employee) => ({ employee, message: render })));
    else {
      const grid = await this.grid.rowsOf(payroll, row.employees);
      const contexts = await this.contexts.of(payroll, grid);
      for (const [i, r] of grid.rows.entries()) {
        try {
          payslips.push({ payrollId: payroll.id, employeeId: r.employee.id, html: render(contexts[i]) });
        } catch (err) {
          if (!(err instanceof TemplateRenderError)) throw err;
          failures.push({ employee: r.employee.id, message: err.message.slice(0, 500) });
        }
      }
    }
    const written = await this.underClaim(data, async (em) => {
      // An earlier attempt's payslips of these employees, and their PDFs, go first.
      await this.pdfs.removeAll(em, data.payrollId, row.employees);
      await em.delete(Payslip, { payrollId: data.payrollId, employeeId: In(row.employees) });
      // A chunk with failures keeps no payslip: the payroll goes back to Processed with them.
      if (!failures.length) await this.repository.insertPayslips(em, payslips);
    });
    await this.pdfs.removeFilesSoon();
    if (written !== 'written') return written;
    if (!failures.length) failures.push(...(await this.pdfs.renderAll(payroll, row.employees)));
    const done = await this.underClaim(data, (em) => this.chunks.markDone(em, data.payrollId, data.claim, data.chunk, failures));
    return done === 'superseded' ? 'superseded' : 'done';
  }

  /** `write` in a transaction under the payroll's row lock, for the chunk's claim and while the chunk is not Done. */
  private underClaim(
    data: PayslipChunkJobData,
    write: (em: EntityManager) => Promise<void>,
  ): Promise<'written' | 'done' | 'superseded'> {
    return transaction(
      this.dataSource,
      async (em) => {
        const now = await this.chunks.lockForChunk(em, data.payrollId, data.claim, data.chunk);
        if (!now.payroll || !isCurrentClaim(data, now.payroll, 'Completing')) return 'superseded' as const;
        if (now.done) return 'done' as const;
        await write(em);
        return 'written' as const;
      },
      SET_REPLACEMENT,
    );
  }

  /** Queues the last step: once per claim (its job id is the claim's). */
  private async queueFinish(run: PayslipsJobData): Promise<void> {
    await this.jobs.add(PAYSLIPS_FINISH_JOB, { payrollId: run.payrollId, claim: run.claim }, { jobId: payslipsFinishJobId(run) });
  }

  /**
   * The last step, with every chunk written: the payroll settled and Completed with its event in one
   * transaction, or, when some payslip could not be made, back to Processed with every chunk's
   * failures as its errors and no payslip kept.
   */
  async finish(run: PayslipsJobData): Promise<void> {
    const payroll = await this.payrolls.findOne({ where: { id: run.payrollId } });
    if (!payroll || !isCurrentClaim(run, payroll, 'Completing')) return;
    const progress = await this.chunks.progress(run.payrollId, run.claim);
    if (progress.done < progress.total) return;
    const { employees, failures } = await this.chunks.outcome(run.payrollId, run.claim);
    if (failures.length) {
      await this.removePayslips(
        run.payrollId,
        failures.map((f) => ({ ...f, column: null })),
      );
      return void (await this.backToProcessed(run, `${failures.length} payslips could not be rendered: see /errors`));
    }
    try {
      await transaction(this.dataSource, async (em) => {
        // What it paid once (the records a payroll input settles) is its, or it does not complete (PayrollSettlements).
        const refused = await this.settlements.settle(em, payroll);
        if (refused) throw new SettlementRefused(refused);
        const moved = await PAYROLL_STATES.move(em, Payroll, { id: run.payrollId, claim: run.claim }, 'complete', {
          progress: 100,
          completedAt: new Date(),
        });
        if (moved) await recordEvent(em, 'payroll.completed', { id: run.payrollId, status: 'Completed', employees, errors: 0 });
        // With the move: once Completed shows, none of the generation's chunks is left.
        await this.chunks.dropClaim(em, run.payrollId, run.claim);
      });
    } catch (err) {
      if (!(err instanceof SettlementRefused)) throw err;
      await this.removePayslips(run.payrollId, []);
      await this.backToProcessed(run, err.message);
    }
  }

  /** Back to Processed without payslips, with `error`, for the run's claim only. */
  private async failRun(run: PayslipsJobData, error: string): Promise<void> {
    const payroll = await this.payrolls.findOne({
      where: { id: run.payrollId },
      select: { id: true, status: true, claim: true },
    });
    if (!payroll || !isCurrentClaim(run, payroll, 'Completing')) return;
    await this.removePayslips(run.payrollId, null).catch(() => undefined);
    await this.backToProcessed(run, error);
  }

  /**
   * Deletes the payroll's payslips and their PDFs (the files by the removal job) in one
   * transaction, and sets its errors to `errors` (null: leaves them).
   */
  private async removePayslips(
    payrollId: number,
    errors: Array<{ employee: number; column: null; message: string }> | null,
  ): Promise<void> {
    await transaction(
      this.dataSource,
      async (em) => {
        await this.pdfs.removeAll(em, payrollId);
        await em.delete(Payslip, { payrollId });
        if (errors) await this.repository.replaceErrors(em, payrollId, 'current', errors);
      },
      SET_REPLACEMENT,
    );
    await this.pdfs.removeFilesSoon();
  }

  /** The generation ended without payslips: the payroll back to Processed with `error`, the claim's chunks gone with the move. */
  private async backToProcessed(run: PayslipsJobData, error: string): Promise<void> {
    await transaction(this.dataSource, async (em) => {
      await PAYROLL_STATES.move(em, Payroll, { id: run.payrollId, claim: run.claim }, 'payslips-failed', {
        progress: 100,
        error: error.slice(0, 1000),
      });
      await this.chunks.dropClaim(em, run.payrollId, run.claim);
    });
  }
}
