import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import {
  AbandonedHandler,
  AttemptOutcome,
  EnqueuedJob,
  JobHandler,
  JobRunner,
  QueueDepth,
  QueueName,
  RETIRED_SCHEDULES,
  RetryPolicy,
  workerDeathsReason,
} from './queue.constants';

const POLL_MS = 50;

/** Bull's failure of a job whose lock expired more than `maxStalledCount` times (its process died while running it). */
export const BULL_STALLED_FAILURE = 'job stalled more than allowable limit';

/**
 * Bull on Redis (REDIS_URL set). Jobs survive restarts and can be consumed by a separate worker
 * process; `consume` is false in an API process started with QUEUE_CONSUMER=false.
 */
export class BullRunner implements JobRunner {
  readonly kind = 'bull' as const;
  private readonly logger = new Logger('Jobs');
  private readonly queues: Map<QueueName, Queue>;
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly abandoned = new Map<string, AbandonedHandler<unknown>>();
  private started = false;

  constructor(
    queues: Queue[],
    private readonly consume: boolean,
    /** Attempts one process runs at once per queue (2 unless given: e-mails wait on SMTP, not on the CPU). */
    private readonly concurrency: Partial<Record<QueueName, number>> = {},
    /** Deaths of a job's process before Bull fails it (its queues' maxStalledCount is one less). */
    private readonly maxDeaths = 2,
  ) {
    this.queues = new Map(queues.map((q) => [q.name as QueueName, q]));
  }

  register(
    queue: QueueName,
    name: string,
    handler: JobHandler<unknown>,
    _retry?: RetryPolicy,
    abandoned?: AbandonedHandler<unknown>,
  ): void {
    this.handlers.set(`${queue}:${name}`, handler);
    if (abandoned) this.abandoned.set(`${queue}:${name}`, abandoned);
  }

  /**
   * One '*' processor per queue dispatches by job name. (Calling Bull's process() once per name
   * starts a blocking loop per name, and closing those races: "Connection is closed".)
   */
  async start(): Promise<void> {
    if (!this.consume || this.started) return;
    this.started = true;
    await this.removeRetiredSchedules();
    for (const [name, q] of this.queues) {
      q.on('failed', (job: Job, err: Error) => {
        // Bull fails a job that stalled too often without a retry, whatever its attempts: its record goes to Failed.
        if (err.message === BULL_STALLED_FAILURE) return void this.giveUp(name, job);
        const attempts = job.opts.attempts ?? 1;
        const final = job.attemptsMade >= attempts;
        this.logger[final ? 'error' : 'warn'](
          `job ${job.id} (${name}:${job.name}) attempt ${job.attemptsMade}/${attempts} failed: ${err.message}${final ? '' : '; will retry'}`,
        );
      });
      // process() resolves only when the queue closes, so it is not awaited here.
      q.process('*', this.concurrency[name] ?? 2, (job: Job) => {
        const handler = this.handlers.get(`${name}:${job.name}`);
        if (!handler) throw new Error(`no handler registered for job ${name}:${job.name}`);
        return handler(job.data, { jobId: String(job.id), attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1 });
      }).catch((err: unknown) => this.logger.error(`consumer of queue ${name} stopped: ${String(err)}`));
    }
  }

  /**
   * Schedules an upgrade retired (RETIRED_SCHEDULES) would otherwise fail in Redis at every
   * interval, forever, for want of a handler: they are removed once, with a log line. Only those
   * named: an older process started during a rolling upgrade must not remove a newer one's.
   */
  private async removeRetiredSchedules(): Promise<void> {
    for (const [name, q] of this.queues)
      for (const job of await q.getRepeatableJobs())
        if (RETIRED_SCHEDULES.includes(`${name}:${job.name}`) && !this.handlers.has(`${name}:${job.name}`)) {
          await q.removeRepeatableByKey(job.key);
          this.logger.warn(`scheduled job ${name}:${job.name} was retired: its schedule is removed from Redis`);
        }
  }

  /** A job whose process died while running it maxDeaths times: logged, and its record ends Failed. */
  private giveUp(queue: QueueName, job: Job): void {
    const reason = workerDeathsReason(this.maxDeaths);
    this.logger.error(`job ${job.id} (${queue}:${job.name}) given up: ${reason}`);
    const abandoned = this.abandoned.get(`${queue}:${job.name}`);
    abandoned?.(job.data, reason).catch((err: unknown) =>
      this.logger.error({ err, job: job.id }, `job ${job.id} (${queue}:${job.name}): its record could not be marked Failed`),
    );
  }

  async add(
    queue: QueueName,
    name: string,
    data: unknown,
    jobId: string,
    retry: RetryPolicy,
    priority?: number,
  ): Promise<EnqueuedJob> {
    const q = this.queue(queue);
    await q.add(name, data, {
      jobId,
      ...(priority === undefined ? {} : { priority }),
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return { id: jobId, firstAttempt: (timeoutMs) => this.waitFirstAttempt(q, jobId, timeoutMs) };
  }

  async repeat(queue: QueueName, name: string, everyMs: number, firstAfterMs?: number): Promise<void> {
    const q = this.queue(queue);
    // One repeatable job per name: an earlier interval of the same name (a changed setting) goes.
    for (const old of await q.getRepeatableJobs())
      if (old.name === name && Number(old.every) !== everyMs) await q.removeRepeatableByKey(old.key);
    await q.add(name, {}, { repeat: { every: everyMs }, attempts: 1, removeOnComplete: 100, removeOnFail: 100 });
    // The early run: one delayed job, its id the interval's, so processes started together add one.
    if (firstAfterMs !== undefined)
      await q.add(
        name,
        {},
        { jobId: `${name}:first:${Math.floor(Date.now() / everyMs)}`, delay: firstAfterMs, attempts: 1, removeOnComplete: true },
      );
  }

  async isLive(queue: QueueName, jobId: string): Promise<boolean> {
    const q = this.queue(queue);
    const job = await q.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    if (state === 'waiting' || state === 'delayed' || state === 'paused') return true;
    // An active job's lock is renewed while its process lives; an expired lock means it died.
    return state === 'active' && (await q.client.exists(job.lockKey())) === 1;
  }

  async ping(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.client.ping()));
  }

  async depth(): Promise<QueueDepth[]> {
    return Promise.all(
      [...this.queues].map(async ([queue, q]) => {
        const c = await q.getJobCounts();
        return { queue, waiting: c.waiting, active: c.active, delayed: c.delayed, failed: c.failed };
      }),
    );
  }

  async close(): Promise<void> {
    // Bull's close() waits for the jobs this process is running. It first ends the consumer's
    // blocking connection with QUIT, which Redis reads only once the blocking BRPOPLPUSH returns, so
    // it gives up after 500 ms and disconnects: every close took half a second. Disconnected at once
    // here, as Bull does after the wait; the running jobs finish on the other connection meanwhile.
    for (const q of this.queues.values()) {
      const consumer = q as Queue & { bclientInitialized?: boolean; bclient?: { disconnect(): void } };
      if (consumer.bclientInitialized) consumer.bclient?.disconnect();
    }
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  private queue(name: QueueName): Queue {
    const q = this.queues.get(name);
    if (!q) throw new Error(`unknown queue ${name}`);
    return q;
  }

  /**
   * Polls the job's state in Redis: Bull publishes no global event for a failed attempt that will
   * be retried, and the attempt may run in another process (the worker).
   */
  private async waitFirstAttempt(q: Queue, jobId: string, timeoutMs: number): Promise<AttemptOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await q.getJob(jobId);
      if (job) {
        const state = await job.getState();
        if (state === 'completed') return 'completed';
        if (state === 'failed' || job.attemptsMade > 0) return 'failed';
      }
      const left = deadline - Date.now();
      if (left <= 0) return 'timeout';
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, left)));
    }
  }
}
