import { Logger } from '@nestjs/common';
import type { Job, Queue } from 'bull';
import { AttemptOutcome, EnqueuedJob, JobHandler, JobRunner, QueueName, RetryPolicy } from './queue.constants';

type Waiter = (outcome: AttemptOutcome) => void;

/**
 * Bull on Redis (REDIS_URL set). Jobs survive restarts and can be consumed by a separate worker
 * process; `consume` is false in an API process started with QUEUE_CONSUMER=false.
 */
export class BullRunner implements JobRunner {
  readonly kind = 'bull' as const;
  private readonly logger = new Logger('Jobs');
  private readonly queues: Map<QueueName, Queue>;
  private readonly handlers: Array<{ queue: QueueName; name: string; handler: JobHandler<unknown> }> = [];
  private readonly waiters = new Map<string, Set<Waiter>>();
  private listening = false;
  private started = false;
  private readonly logging = new Set<QueueName>();

  constructor(
    queues: Queue[],
    private readonly consume: boolean,
    private readonly concurrency = 2,
  ) {
    this.queues = new Map(queues.map((q) => [q.name as QueueName, q]));
  }

  register(queue: QueueName, name: string, handler: JobHandler<unknown>): void {
    this.handlers.push({ queue, name, handler });
    if (this.started) this.consumeWith(queue, name, handler);
  }

  async start(): Promise<void> {
    this.started = true;
    for (const { queue, name, handler } of this.handlers) this.consumeWith(queue, name, handler);
  }

  private consumeWith(queue: QueueName, name: string, handler: JobHandler<unknown>): void {
    if (!this.consume) return;
    const q = this.queue(queue);
    if (!this.logging.has(queue)) {
      this.logging.add(queue);
      q.on('failed', (job: Job, err: Error) => {
        const attempts = job.opts.attempts ?? 1;
        const final = job.attemptsMade >= attempts;
        this.logger[final ? 'error' : 'warn'](
          `job ${job.id} attempt ${job.attemptsMade}/${attempts} failed: ${err.message}${final ? '' : '; will retry'}`,
        );
      });
    }
    // process() resolves only when the queue closes, so it is not awaited here.
    q.process(name, this.concurrency, (job: Job) =>
      handler(job.data, { jobId: String(job.id), attempt: job.attemptsMade + 1, attempts: job.opts.attempts ?? 1 }),
    ).catch((err: unknown) => this.logger.error(`consumer of ${queue}:${name} stopped: ${String(err)}`));
  }

  async add(queue: QueueName, name: string, data: unknown, jobId: string, retry: RetryPolicy): Promise<EnqueuedJob> {
    const q = this.queue(queue);
    this.listen();
    await q.add(name, data, {
      jobId,
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.backoffMs },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    return { id: jobId, firstAttempt: (timeoutMs) => this.waitFirstAttempt(q, jobId, timeoutMs) };
  }

  async ping(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.client.ping()));
  }

  async close(): Promise<void> {
    // Bull's close() waits for the jobs this process is running.
    await Promise.all([...this.queues.values()].map((q) => q.close()));
  }

  private queue(name: QueueName): Queue {
    const q = this.queues.get(name);
    if (!q) throw new Error(`unknown queue ${name}`);
    return q;
  }

  /** Global events reach this process whichever process ran the job. */
  private listen(): void {
    if (this.listening) return;
    this.listening = true;
    for (const q of this.queues.values()) {
      q.on('global:completed', (jobId: string | number) => this.settle(String(jobId), 'completed'));
      q.on('global:failed', (jobId: string | number) => this.settle(String(jobId), 'failed'));
    }
  }

  private settle(jobId: string, outcome: AttemptOutcome): void {
    const set = this.waiters.get(jobId);
    if (!set) return;
    this.waiters.delete(jobId);
    for (const w of set) w(outcome);
  }

  private waitFirstAttempt(q: Queue, jobId: string, timeoutMs: number): Promise<AttemptOutcome> {
    return new Promise<AttemptOutcome>((resolve) => {
      let done = false;
      const finish = (outcome: AttemptOutcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.waiters.get(jobId)?.delete(finish);
        resolve(outcome);
      };
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      const set = this.waiters.get(jobId) ?? new Set<Waiter>();
      set.add(finish);
      this.waiters.set(jobId, set);
      // The attempt may have ended before we subscribed: ask the job itself once.
      void q
        .getJob(jobId)
        .then(async (job) => {
          if (!job) return;
          if (await job.isCompleted()) finish('completed');
          else if (job.attemptsMade > 0 && !(await job.isActive())) finish('failed');
        })
        .catch(() => undefined);
    });
  }
}
