import { Injectable, OnModuleInit } from '@nestjs/common';
import { JobQueue } from '../../common/queue/job-queue.service';
import { PayrollProcessingService } from './payroll-processing.service';
import { PayrollTransitionsService } from './payroll-transitions.service';
import { PAYROLL_PROCESS_JOB, RECOVER_STALLED_EVERY_MS, RECOVER_STALLED_JOB } from './payroll.jobs';

/** Runs PAYROLL_PROCESS_JOB (the `payroll` queue) and the stalled-run recovery (`schedule`): thin, the service does the work. */
@Injectable()
export class PayrollProcessor implements OnModuleInit {
  constructor(
    private readonly jobs: JobQueue,
    private readonly transitions: PayrollTransitionsService,
    private readonly processing: PayrollProcessingService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(
      PAYROLL_PROCESS_JOB,
      (data) => this.processing.run(data),
      undefined,
      (data, reason) => this.transitions.abandon('Processing', data, reason),
    );
    this.jobs.register(RECOVER_STALLED_JOB, () => this.transitions.failStalled());
    void this.jobs.schedule(RECOVER_STALLED_JOB, RECOVER_STALLED_EVERY_MS); // before the start: nothing to wait for
  }
}
