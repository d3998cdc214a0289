import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, IsNull, LessThan, Repository } from 'typeorm';
import { randomUUID } from 'node:crypto';
import { AuthUser } from '../../common/auth/auth-user';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { JobQueue } from '../../common/queue/job-queue.service';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { Inject } from '@nestjs/common';
import { PayrollDto } from '../dto/payroll-run.dto';
import { Payroll } from '../entities/payroll-run.entities';
import { PAYROLLS, PayrollRunsService, toPayrollDto } from './payroll-runs.service';
import { PAYROLL_STATES } from './payroll.states';
import {
  chunkJobId,
  finishJobId,
  JOB_STATES,
  JobRunState,
  PAYROLL_CHUNK_JOB,
  PAYROLL_FINISH_JOB,
  PAYROLL_PROCESS_JOB,
  PayrollJobData,
  payrollJobId,
  PayrollRunJobData,
  PAYSLIP_CHUNK_JOB,
  payslipChunkJobId,
  PAYSLIPS_FINISH_JOB,
  payslipsFinishJobId,
} from './payroll.jobs';
import { PayrollChunksRepository } from './payroll-chunks.repository';
import { PayslipChunksRepository } from './payslip-chunks.repository';

/**
 * The payroll runs' transitions that start or recover a job (issue 26): claiming Processing or
 * Completing with one conditional UPDATE, queueing the job, and recovering runs whose job is gone.
 * The jobs' own outcomes are PayrollChunksService's and PayslipChunksService's.
 */
@Injectable()
export class PayrollTransitionsService {
  private readonly logger = new Logger('PayrollRuns');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(Payroll) private readonly payrolls: Repository<Payroll>,
    private readonly runs: PayrollRunsService,
    private readonly jobs: JobQueue,
    private readonly chunks: PayrollChunksRepository,
    private readonly payslipChunks: PayslipChunksRepository,
  ) {}

  /**
   * Claims Processing with one conditional UPDATE (two concurrent calls: one wins, the other gets
   * 409), then queues the job; answers at once. The job id is the claim's, so a retry never doubles.
   */
  async process(caller: AuthUser, id: number): Promise<PayrollDto> {
    const payroll = await this.runs.visible(caller, id);
    const claim = await this.claim(id, 'process');
    if (claim === null)
      throw PAYROLL_STATES.invalid('process', (await this.payrolls.findOneOrFail({ where: { id } }).catch(() => payroll)).status);
    await this.jobs.add(PAYROLL_PROCESS_JOB, { payrollId: id, claim }, { jobId: payrollJobId('Processing', id, claim) });
    return toPayrollDto(await this.payrolls.findOneOrFail({ where: { id } }));
  }

  /**
   * Moves the payroll to a job-run state by `action` (process: Processing; generate-payslips:
   * Completing) with one conditional UPDATE (of concurrent claims one wins) and returns the claim's
   * token, or null when the payroll was not in a state the action starts from.
   */
  async claim(id: number, action: 'process' | 'generate-payslips'): Promise<string | null> {
    const claim = randomUUID();
    return transaction(this.dataSource, async (em) => {
      const before = await em.findOne(Payroll, { where: { id }, select: { id: true, status: true } });
      const moved = await PAYROLL_STATES.move(em, Payroll, { id }, action, {
        progress: 0,
        error: null,
        claimedAt: new Date(),
        claim,
        // Processing: the revision this claim's chunks write under, its own (issue 70).
        ...(action === 'process' ? { runRevision: () => 'run_revision + 1' } : {}),
      });
      if (!moved) return null;
      // The caller's request to run the job (the job's own outcome is the service's).
      await recordAudit(em, {
        action,
        resource: PAYROLLS,
        resourceId: id,
        before: { status: before?.status ?? null },
        after: { status: PAYROLL_STATES.transitions[action].to },
      });
      return claim;
    });
  }

  /**
   * The job of a payroll's claim was given up after its process died JOB_MAX_WORKER_DEATHS times:
   * the run goes to Failed (Processing) or back to Processed (Completing), with the reason.
   */
  async abandon(state: JobRunState, data: PayrollJobData, reason: string): Promise<void> {
    const moved = await PAYROLL_STATES.move(
      this.payrolls.manager,
      Payroll,
      { id: data.payrollId, status: state, claim: data.claim ?? IsNull() },
      JOB_STATES[state].recover,
      { error: `${state === 'Processing' ? 'processing' : 'generating payslips'} was given up: ${reason}` },
    );
    if (moved) this.logger.error(`payroll ${data.payrollId}: ${state} given up (${reason})`);
  }

  /**
   * Whether a job of the claim is waiting or running: its first job, and for a run in chunks (issue
   * 70) a chunk not written yet or the last step.
   */
  private async hasLiveJob(state: JobRunState, run: PayrollRunJobData): Promise<boolean> {
    if (await this.jobs.isLive(JOB_STATES[state].job, payrollJobId(state, run.payrollId, run.claim))) return true;
    if (state === 'Completing') {
      if (await this.jobs.isLive(PAYSLIPS_FINISH_JOB, payslipsFinishJobId(run))) return true;
      for (const chunk of await this.payslipChunks.waiting(run.payrollId, run.claim))
        if (await this.jobs.isLive(PAYSLIP_CHUNK_JOB, payslipChunkJobId(run, chunk))) return true;
      return false;
    }
    if (await this.jobs.isLive(PAYROLL_FINISH_JOB, finishJobId(run))) return true;
    for (const chunk of await this.chunks.waiting(run.payrollId, run.revision))
      if (await this.jobs.isLive(PAYROLL_CHUNK_JOB, chunkJobId(run, chunk))) return true;
    return false;
  }

  /**
   * A payroll left in Processing or Completing past PAYROLL_RUN_TIMEOUT whose job is no longer
   * live (its worker died and no stalled-job check took it up, or the queue lost it) goes to Failed
   * (Processing) or back to Processed (Completing), with an error saying so. A job still waiting
   * for a worker, or running with its lock held, is left alone however long it takes.
   */
  async failStalled(): Promise<number> {
    const cutoff = new Date(Date.now() - this.config.payrollRunTimeoutSec * 1000);
    const stale = await this.payrolls.find({
      select: { id: true, status: true, claim: true, runRevision: true },
      where: { status: In(Object.keys(JOB_STATES)), claimedAt: LessThan(cutoff) },
    });
    let reset = 0;
    for (const p of stale) {
      const state = p.status as JobRunState;
      // A claim without a token predates tokens: its job cannot be looked up, the timeout decides.
      if (p.claim && (await this.hasLiveJob(state, { payrollId: p.id, claim: p.claim, revision: p.runRevision }))) continue;
      const moved = await PAYROLL_STATES.move(
        this.payrolls.manager,
        Payroll,
        { id: p.id, claim: p.claim ?? IsNull() },
        JOB_STATES[state].recover,
        {
          error:
            state === 'Processing'
              ? 'processing did not finish in time and its job is gone (the worker stopped?); process it again'
              : 'generating payslips did not finish in time and its job is gone (the worker stopped?); generate them again',
        },
      );
      if (moved) {
        this.logger.warn(
          `payroll ${p.id}: ${state} past PAYROLL_RUN_TIMEOUT without a live job, now ${PAYROLL_STATES.transitions[JOB_STATES[state].recover].to}`,
        );
        reset++;
      }
    }
    return reset;
  }
}
