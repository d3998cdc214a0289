import { BeforeApplicationShutdown, Inject, Injectable, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { runInJob } from '../audit/audit-context';
import { Metrics, Sample } from '../metrics/metrics';
import { runTraced, runUntraced, withTraceContext } from '../tracing/job-trace';
import {
  AbandonedHandler,
  DEFAULT_RETRY,
  DEFINED_JOB_NAMES,
  DEFINED_JOBS,
  EnqueuedJob,
  JOB_RUNNER,
  JobDefinition,
  JobContext,
  JobHandler,
  JobRunner,
  RetryPolicy,
} from './queue.constants';

/**
 * The producer/consumer facade. Modules register handlers for their job definitions (in
 * onModuleInit) and add jobs; whether Bull or the in-process runner executes them is decided in
 * QueueModule alone.
 */
@Injectable()
export class JobQueue implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly retries = new Map<string, RetryPolicy>();
  private started = false;
  private readonly schedules = new Map<
    string,
    { job: JobDefinition<Record<string, never>>; everyMs: number; firstAfterMs?: number }
  >();

  constructor(
    @Inject(JOB_RUNNER) private readonly runner: JobRunner,
    @Optional() @Inject(DEFINED_JOB_NAMES) private readonly defined: ReadonlySet<string> = DEFINED_JOBS,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  get kind(): JobRunner['kind'] {
    return this.runner.kind;
  }

  /**
   * Registers the job's handler (a processor does, in onModuleInit). `retry` overrides the
   * definition's policy when it depends on configuration; jobs added later use it too. `abandoned`
   * ends the job's record Failed when the job is given up after its process died while running it
   * JOB_MAX_WORKER_DEATHS times (Bull; in process, the record's own recovery counts the restarts).
   */
  register<T>(job: JobDefinition<T>, handler: JobHandler<T>, retry?: RetryPolicy, abandoned?: AbandonedHandler<T>): void {
    const policy = retry ?? job.retry ?? DEFAULT_RETRY;
    this.retries.set(`${job.queue}:${job.name}`, policy);
    // A job's changes are the service's own, whichever request queued it (the in-process runner
    // would otherwise run it in that request's audit context).
    // Its log lines name the queue, the job and the fields its definition picks (a payroll id).
    const run = handler as JobHandler<unknown>;
    const fields = job.logFields as ((data: unknown) => Record<string, unknown>) | undefined;
    this.runner.register(
      job.queue,
      job.name,
      (data, ctx) =>
        runInJob({ queue: job.queue, id: ctx.jobId, fields: fields?.(data) }, () =>
          this.timed(job.queue, job.name, run, data, ctx),
        ),
      policy,
      abandoned &&
        ((data, reason) =>
          runInJob({ queue: job.queue, id: 'abandoned', fields: fields?.(data) }, () =>
            (abandoned as AbandonedHandler<unknown>)(data, reason),
          )),
    );
  }

  /** Runs one attempt in its trace, its duration and outcome counted in the metrics. */
  private async timed(queue: string, name: string, run: JobHandler<unknown>, data: unknown, ctx: JobContext): Promise<unknown> {
    const started = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      // Periodic work is not traced (the relay would start a trace every 250 ms); the rest continues its request's trace.
      const result =
        queue === 'schedule'
          ? await runUntraced(() => run(data, ctx))
          : await runTraced(queue, name, ctx.jobId, data, (d) => run(d, ctx));
      outcome = 'completed';
      return result;
    } finally {
      this.metrics?.observeJob(queue, name, outcome, (performance.now() - started) / 1000);
    }
  }

  /**
   * Runs a registered job every `everyMs` from the application's start, once per interval across
   * every process (a Bull repeatable job on Redis, visible in the queue dashboard; a timer in
   * process). Periodic work goes here, never in a request handler or a process's own setInterval.
   * `firstAfterMs`: also one run that long after the start (SQLite's statistics, a minute after a
   * start that loaded data), not only at the first interval's end.
   */
  async schedule(job: JobDefinition<Record<string, never>>, everyMs: number, firstAfterMs?: number): Promise<void> {
    this.schedules.set(`${job.queue}:${job.name}`, { job, everyMs, firstAfterMs });
    if (this.started) await this.runner.repeat(job.queue, job.name, everyMs, firstAfterMs);
  }

  /** The scheduled jobs ("queue:name" → interval in ms). */
  scheduled(): Map<string, number> {
    return new Map([...this.schedules].map(([key, s]) => [key, s.everyMs]));
  }

  /**
   * Adds a job. A deterministic `jobId` de-duplicates: while a job with that id exists, no second
   * one is added. `priority` (1 first; with Redis): this job's place, instead of its definition's.
   */
  add<T>(job: JobDefinition<T>, data: T, opts: { jobId?: string; priority?: number } = {}): Promise<EnqueuedJob> {
    const policy = this.retries.get(`${job.queue}:${job.name}`) ?? job.retry ?? DEFAULT_RETRY;
    return this.runner.add(
      job.queue,
      job.name,
      withTraceContext(data),
      opts.jobId ?? randomUUID(),
      policy,
      opts.priority ?? job.priority,
    );
  }

  /** Whether a job with this id is waiting, delayed or running in a live process. */
  isLive<T>(job: JobDefinition<T>, jobId: string): Promise<boolean> {
    return this.runner.isLive(job.queue, jobId);
  }

  ping(): Promise<void> {
    return this.runner.ping();
  }

  /**
   * Starts the runner, once every defined job has a handler: a job added without one would wait
   * forever in Redis (or fail at add time in process), long after the deployment that lost it.
   */
  async onApplicationBootstrap(): Promise<void> {
    const missing = [...this.defined].filter((job) => !this.retries.has(job));
    if (missing.length)
      throw new Error(`jobs defined without a handler: ${missing.join(', ')} (register them in their processor's onModuleInit)`);
    await this.runner.start();
    this.started = true;
    this.metrics?.gauge(
      'hr_queue_jobs',
      'Jobs by queue and state (waiting, active, delayed, failed): with Redis, across every process',
      ['queue', 'state'],
      async () =>
        (await this.runner.depth()).flatMap((d) =>
          (['waiting', 'active', 'delayed', 'failed'] as const).map((state) => [{ queue: d.queue, state }, d[state]] as Sample),
        ),
    );
    for (const { job, everyMs, firstAfterMs } of this.schedules.values())
      await this.runner.repeat(job.queue, job.name, everyMs, firstAfterMs);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.runner.close();
  }
}
