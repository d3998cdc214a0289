import { defineJob, JobDefinition } from '../../common/queue/queue.constants';
import type { PayrollStatus } from '../entities/payroll-run.entities';
import type { PayrollAction } from './payroll.states';

/**
 * A job of one claim of a payroll's job-run state. `claim` is the claim's token: the job does
 * nothing once the payroll has been claimed again (or left the state).
 * Jobs queued before claims existed carry none and are accepted.
 */
export interface PayrollJobData {
  payrollId: number;
  claim?: string;
}

/**
 * Queue priorities on `payroll` (1 first): a run's first and last steps and payslips 1, its n-th
 * chunk n + 1, so that the chunks of concurrent runs take turns: a small payroll queued behind a
 * large one waits for one chunk of it, not for all of them.
 */
export function chunkPriority(chunk: number): number {
  return Math.min(chunk + 1, 2_000_000);
}
export const STEP_PRIORITY = 1;

const payrollOf = (data: PayrollJobData) => ({ payroll: data.payrollId });

/** Processing a payroll (Processing → Processed | Failed): its first step. */
export const PAYROLL_PROCESS_JOB = defineJob<PayrollJobData>(
  'payroll',
  'process',
  { attempts: 3, backoffMs: 5000 },
  payrollOf,
  STEP_PRIORITY,
);

/** A run of a claim (issue 70): the revision its chunks write under. */
export interface PayrollRunJobData extends PayrollJobData {
  claim: string;
  revision: number;
}

/** One chunk of a run: computes and writes its employees' cells (docs/api/payroll.md, "Processing in chunks"). */
export interface PayrollChunkJobData extends PayrollRunJobData {
  chunk: number;
}

export const PAYROLL_CHUNK_JOB = defineJob<PayrollChunkJobData>('payroll', 'chunk', { attempts: 3, backoffMs: 2000 }, (d) => ({
  payroll: d.payrollId,
  chunk: d.chunk,
}));

/** A run's last step, once every chunk is written: makes the revision the payroll's; Processed or Failed. */
export const PAYROLL_FINISH_JOB = defineJob<PayrollRunJobData>(
  'payroll',
  'finish',
  { attempts: 5, backoffMs: 2000 },
  payrollOf,
  STEP_PRIORITY,
);

/** The job of a run's chunk: deterministic, as payrollJobId. */
export function chunkJobId(data: PayrollRunJobData, chunk: number): string {
  return `payroll-${data.payrollId}-${data.claim}-chunk-${chunk}`;
}

export function finishJobId(data: PayrollRunJobData): string {
  return `payroll-${data.payrollId}-${data.claim}-finish`;
}

/** Rendering its payslips (Completing → Completed). */
export const PAYSLIPS_JOB = defineJob<PayrollJobData>(
  'payroll',
  'payslips',
  { attempts: 3, backoffMs: 5000 },
  payrollOf,
  STEP_PRIORITY,
);

/** A claim to generate a payroll's payslips (issue 70): the claim its chunks belong to. */
export interface PayslipsJobData extends PayrollJobData {
  claim: string;
}

/** One chunk of a claim to generate payslips: its employees' payslips and PDFs (docs/api/payroll.md, "Payslips in chunks"). */
export interface PayslipChunkJobData extends PayslipsJobData {
  chunk: number;
}

export const PAYSLIP_CHUNK_JOB = defineJob<PayslipChunkJobData>(
  'payroll',
  'payslip-chunk',
  { attempts: 3, backoffMs: 2000 },
  (d) => ({ payroll: d.payrollId, chunk: d.chunk }),
);

/** A generation's last step, once every chunk is written: settles and completes, or back to Processed with the failures. */
export const PAYSLIPS_FINISH_JOB = defineJob<PayslipsJobData>(
  'payroll',
  'payslips-finish',
  { attempts: 5, backoffMs: 2000 },
  payrollOf,
  STEP_PRIORITY,
);

export function payslipChunkJobId(data: PayslipsJobData, chunk: number): string {
  return `payslips-${data.payrollId}-${data.claim}-chunk-${chunk}`;
}

export function payslipsFinishJobId(data: PayslipsJobData): string {
  return `payslips-${data.payrollId}-${data.claim}-finish`;
}

/**
 * Finds the runs whose job is gone past PAYROLL_RUN_TIMEOUT and sets them back (failStalled), every
 * RECOVER_STALLED_EVERY_MS on the `schedule` queue: once across all processes, never in a read.
 */
export const RECOVER_STALLED_JOB = defineJob<Record<string, never>>('schedule', 'payroll-recover-stalled');
export const RECOVER_STALLED_EVERY_MS = 60_000;

/** The state a job of each kind runs in, and the action (PAYROLL_STATES) that moves a run whose job is gone. */
export const JOB_STATES = {
  Processing: { job: PAYROLL_PROCESS_JOB, prefix: 'payroll', recover: 'fail' },
  Completing: { job: PAYSLIPS_JOB, prefix: 'payslips', recover: 'payslips-failed' },
} as const satisfies Record<string, { job: JobDefinition<PayrollJobData>; prefix: string; recover: PayrollAction }>;

export type JobRunState = keyof typeof JOB_STATES;

/** Deterministic: the same claim is the same job, so a retried add never doubles work; a new claim is a new job. */
export function payrollJobId(state: JobRunState, payrollId: number, claim: string): string {
  return `${JOB_STATES[state].prefix}-${payrollId}-${claim}`;
}

/** True when the job was queued for this claim of the payroll (or predates claims). */
export function isCurrentClaim(
  data: PayrollJobData,
  payroll: { status: PayrollStatus; claim: string | null },
  state: JobRunState,
): boolean {
  return payroll.status === state && (data.claim === undefined || data.claim === payroll.claim);
}

/**
 * A payroll's `error` for a job that failed unexpectedly: a stable sentence with the job's id,
 * under which the service log holds the detail. Never the failure's own text, which may be a
 * driver's (SQL, column names) and is not for clients.
 */
export function internalFailure(what: string, job: string): string {
  return `${what} failed with an internal error (job ${job}); the service log has the details, and it may be started again`;
}
