import { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import {
  AttemptOutcome,
  EnqueuedJob,
  JobHandler,
  JobRunner,
  QueueDepth,
  QueueName,
  QUEUE_NAMES,
  RetryPolicy,
} from './queue.constants';

interface Tracked {
  queue: QueueName;
  state: 'waiting' | 'active' | 'delayed' | 'completed' | 'failed';
  attemptsMade: number;
  events: EventEmitter;
}

/** Attempts of one queue running at once in this process (Bull's consumers run 2 a queue per worker). */
const CONCURRENCY = 8;

/**
 * Runs jobs inside this process (no REDIS_URL): same handlers, same retry policy and job-id
 * de-duplication as Bull, at most `concurrency` attempts of a queue at once (a burst of 10 000
 * e-mail jobs waits its turn instead of opening 10 000 SMTP connections), but nothing survives a
 * restart. close() waits for running attempts; jobs waiting for their turn or their backoff are
 * dropped with a warning.
 */
export class InProcessRunner implements JobRunner {
  readonly kind = 'in-process' as const;
  private readonly logger = new Logger('Jobs');
  private readonly handlers = new Map<string, JobHandler<unknown>>();
  private readonly jobs = new Map<string, Tracked>();
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly repeating = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly active = new Map<QueueName, number>();
  private readonly turns = new Map<QueueName, Array<() => void>>();

  constructor(private readonly concurrency = CONCURRENCY) {}

  register(queue: QueueName, name: string, handler: JobHandler<unknown>): void {
    this.handlers.set(`${queue}:${name}`, handler);
  }

  async start(): Promise<void> {}

  /** A timer of this process; a run still going when the next is due is not doubled. */
  async repeat(queue: QueueName, name: string, everyMs: number, firstAfterMs?: number): Promise<void> {
    const handler = this.handlers.get(`${queue}:${name}`);
    if (!handler) throw new Error(`no handler registered for job ${queue}:${name}`);
    let current: Promise<void> | null = null;
    let runs = 0;
    const tick = () => {
      if (current || this.closed) return;
      runs += 1;
      current = handler({}, { jobId: `repeat:${name}:${runs}`, attempt: 1, attempts: 1 })
        .then(() => undefined)
        .catch((err: Error) => this.logger.error(`scheduled job ${queue}:${name} failed: ${err.message}`))
        .finally(() => {
          this.running.delete(current as Promise<void>);
          current = null;
        });
      this.running.add(current);
    };
    const timer = setInterval(tick, everyMs);
    timer.unref();
    this.repeating.add(timer);
    if (firstAfterMs !== undefined) {
      const first = setTimeout(tick, firstAfterMs);
      first.unref();
      this.repeating.add(first);
    }
  }

  async add(queue: QueueName, name: string, data: unknown, jobId: string, retry: RetryPolicy): Promise<EnqueuedJob> {
    if (this.closed) throw new Error('job runner is closed');
    const handler = this.handlers.get(`${queue}:${name}`);
    if (!handler) throw new Error(`no handler registered for job ${queue}:${name}`);
    // Like Bull, a job id that is waiting, running or recently finished is not added again.
    let job = this.jobs.get(jobId);
    if (!job) {
      job = { queue, state: 'waiting', attemptsMade: 0, events: new EventEmitter() };
      this.jobs.set(jobId, job);
      this.schedule(job, 0, () => this.inTurn(queue, () => this.attempt(queue, job as Tracked, jobId, handler, data, retry)));
    }
    return this.handle(jobId, job);
  }

  async isLive(_queue: QueueName, jobId: string): Promise<boolean> {
    const state = this.jobs.get(jobId)?.state;
    return state === 'waiting' || state === 'active' || state === 'delayed';
  }

  async ping(): Promise<void> {}

  async depth(): Promise<QueueDepth[]> {
    const counts = new Map<QueueName, QueueDepth>(
      QUEUE_NAMES.map((queue) => [queue, { queue, waiting: 0, active: 0, delayed: 0, failed: 0 }]),
    );
    for (const job of this.jobs.values()) {
      const c = counts.get(job.queue);
      if (c && job.state !== 'completed') c[job.state] += 1;
    }
    return [...counts.values()];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.repeating) clearInterval(t);
    this.repeating.clear();
    if (this.timers.size) this.logger.warn(`dropping ${this.timers.size} job(s) not started yet or waiting for a retry`);
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const waiting = [...this.turns.values()].flat();
    this.turns.clear();
    if (waiting.length) this.logger.warn(`dropping ${waiting.length} job(s) waiting for their turn`);
    for (const resolve of waiting) resolve();
    await Promise.allSettled([...this.running]);
  }

  private schedule(job: Tracked, delayMs: number, run: () => Promise<void>): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const p = run().finally(() => this.running.delete(p));
      this.running.add(p);
    }, delayMs);
    this.timers.add(timer);
    job.state = delayMs ? 'delayed' : 'waiting';
  }

  private async attempt(
    queue: QueueName,
    job: Tracked,
    jobId: string,
    handler: JobHandler<unknown>,
    data: unknown,
    retry: RetryPolicy,
  ): Promise<void> {
    job.state = 'active';
    job.attemptsMade += 1;
    const attempt = job.attemptsMade;
    try {
      await handler(data, { jobId, attempt, attempts: retry.attempts });
      job.state = 'completed';
      job.events.emit('attempt', 'completed');
      this.forgetLater(jobId);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      job.events.emit('attempt', 'failed');
      if (attempt < retry.attempts && !this.closed) {
        const delay = retry.backoffMs * 2 ** (attempt - 1);
        this.logger.warn(`job ${jobId} attempt ${attempt}/${retry.attempts} failed (${message}); retry in ${delay} ms`);
        this.schedule(job, delay, () => this.inTurn(queue, () => this.attempt(queue, job, jobId, handler, data, retry)));
      } else {
        job.state = 'failed';
        this.logger.error(`job ${jobId} failed after ${attempt} attempt(s): ${message}`);
        this.forgetLater(jobId);
      }
    }
  }

  /** Runs `run` when fewer than `concurrency` attempts of `queue` run; nothing once the runner is closed. */
  private async inTurn(queue: QueueName, run: () => Promise<void>): Promise<void> {
    while (!this.closed && (this.active.get(queue) ?? 0) >= this.concurrency) {
      let waiting = this.turns.get(queue);
      if (!waiting) this.turns.set(queue, (waiting = []));
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    if (this.closed) return;
    this.active.set(queue, (this.active.get(queue) ?? 0) + 1);
    try {
      await run();
    } finally {
      this.active.set(queue, (this.active.get(queue) ?? 1) - 1);
      this.turns.get(queue)?.shift()?.();
    }
  }

  /** Finished jobs are kept for a while: their id de-duplicates, and a late firstAttempt() sees the outcome. */
  private forgetLater(jobId: string): void {
    const t = setTimeout(() => this.jobs.delete(jobId), 10 * 60_000);
    t.unref();
  }

  private handle(jobId: string, job: Tracked): EnqueuedJob {
    return {
      id: jobId,
      firstAttempt: (timeoutMs: number) =>
        new Promise<AttemptOutcome>((resolve) => {
          if (job.attemptsMade > 0 && job.state !== 'active') {
            resolve(job.state === 'completed' ? 'completed' : 'failed');
            return;
          }
          const timer = setTimeout(() => {
            job.events.off('attempt', done);
            resolve('timeout');
          }, timeoutMs);
          const done = (outcome: AttemptOutcome) => {
            clearTimeout(timer);
            resolve(outcome);
          };
          job.events.once('attempt', done);
        }),
    };
  }
}
