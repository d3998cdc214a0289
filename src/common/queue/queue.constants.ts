/**
 * Queue names (docs/api/decisions.md: welcome e-mails on `mail`, payroll runs on `payroll`; webhook deliveries on
 * `webhooks`; imports of files on `imports`; removals of document files on `documents`; periodic
 * work, run once per interval across all processes, on `schedule`).
 */
export const QUEUE_NAMES = ['mail', 'payroll', 'webhooks', 'imports', 'documents', 'schedule'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Exponential backoff: the n-th retry waits backoffMs * 2^(n-1). */
export interface RetryPolicy {
  attempts: number;
  backoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 2000 };

/** A named, typed job. Modules declare these as constants beside their processors. */
export interface JobDefinition<TData> {
  queue: QueueName;
  name: string;
  retry?: RetryPolicy;
  /** Fields of a job's data its log lines carry (a payroll id). */
  logFields?: (data: TData) => Record<string, unknown>;
  /** Its place among the queue's jobs (1 first, with Redis) unless JobQueue.add gives one: a queue whose jobs take turns gives every job one. */
  priority?: number;
  /** Phantom field carrying the payload type. */
  readonly __data?: TData;
}

/** Every job defined in this process ("queue:name"): JobQueue refuses to start while one has no handler. */
export const DEFINED_JOBS = new Set<string>();

export function defineJob<TData>(
  queue: QueueName,
  name: string,
  retry?: RetryPolicy,
  logFields?: (data: TData) => Record<string, unknown>,
  priority?: number,
): JobDefinition<TData> {
  DEFINED_JOBS.add(`${queue}:${name}`);
  return { queue, name, retry, logFields, priority };
}

export interface JobContext {
  jobId: string;
  /** 1 for the first attempt. */
  attempt: number;
  attempts: number;
}

export type JobHandler<TData> = (data: TData, ctx: JobContext) => Promise<unknown>;

/**
 * Called once a job is given up because its process died while running it JOB_MAX_WORKER_DEATHS
 * times (a file that takes the worker past its heap would otherwise kill every worker that takes
 * it): the record the job works on ends Failed with `reason`.
 */
export type AbandonedHandler<TData> = (data: TData, reason: string) => Promise<unknown>;

/** The reason a job given up after its process died `deaths` times carries. */
export function workerDeathsReason(deaths: number): string {
  return `the worker stopped while running this job ${deaths} time${deaths === 1 ? '' : 's'}`;
}

export interface QueueDepth {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export type AttemptOutcome = 'completed' | 'failed' | 'timeout';

export interface EnqueuedJob {
  id: string;
  /** Resolves with the outcome of the job's first attempt, or 'timeout' after timeoutMs. */
  firstAttempt(timeoutMs: number): Promise<AttemptOutcome>;
}

/** What executes jobs: Bull on Redis, or the in-process runner. */
export interface JobRunner {
  readonly kind: 'bull' | 'in-process';
  register(
    queue: QueueName,
    name: string,
    handler: JobHandler<unknown>,
    retry: RetryPolicy,
    abandoned?: AbandonedHandler<unknown>,
  ): void;
  /** Starts consuming registered handlers. */
  start(): Promise<void>;
  /** `priority`: 1 first (Bull's); the in-process runner takes jobs in the order they come. */
  add(queue: QueueName, name: string, data: unknown, jobId: string, retry: RetryPolicy, priority?: number): Promise<EnqueuedJob>;
  /**
   * Whether the job is waiting, delayed or running in a live process: false when it finished, was
   * never added, or its process died (a Bull job whose lock expired; a job of an earlier process).
   */
  isLive(queue: QueueName, jobId: string): Promise<boolean>;
  /**
   * Runs the job every `everyMs`, once per interval across every process (Bull: a repeatable job,
   * the same one whichever process declares it; in process: a timer of this process).
   */
  repeat(queue: QueueName, name: string, everyMs: number, firstAfterMs?: number): Promise<void>;
  /** Throws when the backend is unreachable. */
  ping(): Promise<void>;
  /** Jobs per queue and state, for the metrics (Bull: across every process; in process: this one's). */
  depth(): Promise<QueueDepth[]>;
  /** Stops taking jobs and waits for the running ones. */
  close(): Promise<void>;
}

export const JOB_RUNNER = Symbol('JOB_RUNNER');
/** The defined jobs JobQueue checks (DEFINED_JOBS unless a test provides its own). */
export const DEFINED_JOB_NAMES = Symbol('DEFINED_JOB_NAMES');

/**
 * Scheduled jobs of earlier releases that no handler runs any more; a consumer removes their
 * repeatable entries from Redis at start. schedule:payslip-deliveries: the mail outbox's sweep
 * (schedule:mail-outbox) took it over (issue 42).
 */
export const RETIRED_SCHEDULES: readonly string[] = ['schedule:payslip-deliveries'];
