import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../common/queue/job-queue.service';
import { PayrollChunksService } from './payroll-chunks.service';
import { PayrollTransitionsService } from './payroll-transitions.service';
import {
  PAYROLL_CHUNK_JOB,
  PAYROLL_FINISH_JOB,
  PAYROLL_PROCESS_JOB,
  RECOVER_STALLED_EVERY_MS,
  RECOVER_STALLED_JOB,
} from './payroll.jobs';

/**
 * Runs a payroll's processing (the `payroll` queue: its first step, its chunks and its last step)
 * and the stalled-run recovery (`schedule`): thin, the services do the work.
 */
@Injectable()
export class PayrollProcessor implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly transitions: PayrollTransitionsService,
    private readonly chunks: PayrollChunksService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      PAYROLL_PROCESS_JOB,
      (data) => this.chunks.start(data),
      undefined,
      (data, reason) => this.transitions.abandon('Processing', data, reason),
    );
    this.jobs.register(
      PAYROLL_CHUNK_JOB,
      (data, ctx) => this.chunks.chunk(data, ctx),
      undefined,
      (data, reason) => this.chunks.abandonChunk(data, reason),
    );
    this.jobs.register(PAYROLL_FINISH_JOB, (data) => this.chunks.finish(data));
    this.jobs.register(RECOVER_STALLED_JOB, () => this.transitions.failStalled());
    void this.jobs.schedule(RECOVER_STALLED_JOB, RECOVER_STALLED_EVERY_MS); // before the start: nothing to wait for
  }
}
