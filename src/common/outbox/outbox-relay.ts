import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { transaction } from '../database/transaction';
import { fromSqlInstant } from '../time/instants';
import { Metrics, Sample } from '../metrics/metrics';
import { JobQueue } from '../queue/job-queue.service';
import { defineJob } from '../queue/queue.constants';
import { OutboxRepository, OutboxRow } from './outbox.repository';

/** The relay, every OUTBOX_RELAY_MS on the `schedule` queue: one run at a time across all processes. */
export const OUTBOX_RELAY_JOB = defineJob<Record<string, never>>('schedule', 'outbox-relay');

/** After this many failed batches in a row a subscriber gets one event at a time, so its last_error names the event. */
export const RELAY_SINGLE_AFTER = 3;

/** An event as subscribers get it. */
export interface RelayedEvent {
  seq: number;
  /** The stable uuid (webhook-id, notification source key). */
  eventId: string;
  event: string;
  data: unknown;
  createdAt: Date;
}

/**
 * A subscriber of the outbox: notifications, tasks, webhooks. `handle` gets the events after its
 * cursor, in order, with the transaction `em` that moves its cursor past them: what it writes with
 * `em` commits exactly when the cursor moves, so each event is handled once, also when the process
 * dies mid-batch (the batch is rolled back and handed over again). Work outside the database (a
 * queue) must be idempotent by event id. What `handle` returns runs after the commit (pushing new
 * notifications to open streams). A throw rolls the batch back; it is handed over again next run.
 */
export interface OutboxSubscriber {
  readonly name: string;
  /**
   * After this many failures in a row of one event alone (RELAY_SINGLE_AFTER failed batches first),
   * the event is passed over for this subscriber, logged as an error and named in its last_error:
   * for subscribers whose failures are the data's (a row deleted meanwhile), not an outage's.
   * Unset: never (webhooks, which fail while Redis is away).
   */
  readonly skipAfter?: number;
  handle(em: EntityManager, events: readonly RelayedEvent[]): Promise<(() => Promise<void>) | void>;
}

/**
 * The one reader of the outbox (issue 42). Each run: sequences the events committed since the last
 * run (under one lock: the order subscribers see), reads the events after the slowest cursor once,
 * and hands each subscriber those after its own cursor, in its own transaction with its cursor
 * (locked, so two processes never hand one subscriber the same events). A failing subscriber holds
 * only its own cursor back; the others go on.
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private readonly subscribers = new Map<string, OutboxSubscriber>();
  private running: Promise<number> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: OutboxRepository,
    private readonly jobs: JobQueue,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** Adds a subscriber (in its module's onModuleInit); its cursor row is made on its first batch, at the start of the outbox. */
  subscribe(subscriber: OutboxSubscriber): void {
    if (this.subscribers.has(subscriber.name)) throw new Error(`outbox subscriber ${subscriber.name} registered twice`);
    this.subscribers.set(subscriber.name, subscriber);
  }

  onModuleInit(): void {
    this.jobs.register(OUTBOX_RELAY_JOB, async () => {
      await this.relay().catch((err: Error) => this.logger.warn(`relay failed: ${err.message}`));
    });
    void this.jobs.schedule(OUTBOX_RELAY_JOB, this.config.outbox.relayMs);
    this.metrics?.gauge(
      'hr_outbox_relay_lag_seconds',
      'Per subscriber, the age of the oldest event it has not handled yet (0: none waiting)',
      ['subscriber'],
      () => this.lag(),
    );
  }

  /** Each subscriber's lag: how long ago the oldest event it has not handled was recorded, in seconds. */
  async lag(now = Date.now()): Promise<Sample[]> {
    const unsequenced = await this.repository.oldestUnsequenced();
    const cursors = await this.repository.cursors([...this.subscribers.keys()]);
    const firsts = new Map<number, Promise<string | Date | null>>();
    const samples: Sample[] = [];
    for (const [name, cursor] of cursors) {
      if (!firsts.has(cursor)) firsts.set(cursor, this.repository.firstAfter(cursor));
      const oldest = [await firsts.get(cursor), unsequenced]
        .filter((at): at is string | Date => at !== null)
        .map((at) => fromSqlInstant(at).getTime());
      samples.push([{ subscriber: name }, oldest.length ? Math.max(0, (now - Math.min(...oldest)) / 1000) : 0]);
    }
    return samples;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running?.catch(() => undefined);
  }

  /** One run (one at a time in this process); the most events one subscriber was handed. */
  relay(): Promise<number> {
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /** Deletes the events recorded before `before` that every subscriber has handled (maintenance:purge); how many. */
  purge(before: Date): Promise<number> {
    return this.repository.purge(before, [...this.subscribers.keys()]);
  }

  /** Relays until no subscriber is handed anything (tests, the demo's seed). */
  async drain(): Promise<void> {
    while ((await this.relay()) > 0);
  }

  /**
   * Hands one subscriber every event committed before the call, batch after batch (at most
   * `rounds`), beside the scheduled runs: for a subscriber whose writes a caller reads at once (the
   * leave accrual's changes, read by the daily job and the liability). Stops early while the
   * subscriber fails (the scheduled runs retry it, as for every subscriber).
   */
  async catchUp(name: string, rounds = 100): Promise<void> {
    const subscriber = this.subscribers.get(name);
    if (!subscriber) throw new Error(`outbox subscriber ${name} is not registered`);
    for (let round = 0; round < rounds; round++) {
      await this.sequenceWaiting();
      const cursor = (await this.repository.cursors([name])).get(name) ?? 0;
      const events = (await this.repository.after(cursor, this.config.outbox.batch)).map(toRelayed);
      if (!events.length || !(await this.hand(subscriber, events))) return;
    }
  }

  /** Gives the events committed and not sequenced yet their sequence (one batch). */
  private async sequenceWaiting(): Promise<void> {
    const from = await this.repository.firstUnsequenced();
    if (from !== null)
      await transaction(this.ds, (em) => this.repository.sequence(em, from, this.config.outbox.batch), {
        isolation: 'READ COMMITTED',
      });
  }

  private async run(): Promise<number> {
    const batch = this.config.outbox.batch;
    await this.sequenceWaiting();
    const cursors = await this.repository.cursors([...this.subscribers.keys()]);
    // Subscribers at one position (the usual case: all of them) share one read.
    const reads = new Map<number, Promise<RelayedEvent[]>>();
    const after = (cursor: number) => {
      let read = reads.get(cursor);
      if (!read) reads.set(cursor, (read = this.repository.after(cursor, batch).then((rows) => rows.map(toRelayed))));
      return read;
    };
    let most = 0;
    for (const [name, subscriber] of this.subscribers) {
      const events = await after(cursors.get(name) ?? 0);
      if (events.length) most = Math.max(most, await this.hand(subscriber, events));
    }
    return most;
  }

  /** Hands `subscriber` the events after its cursor; how many it handled. */
  private async hand(subscriber: OutboxSubscriber, events: readonly RelayedEvent[]): Promise<number> {
    let single: RelayedEvent | null = null;
    let failures = 0;
    try {
      const { handled, after } = await transaction(
        this.ds,
        async (em) => {
          const cursor = await this.repository.lockCursor(em, subscriber.name);
          let mine = events.filter((e) => e.seq > cursor.lastSeq);
          failures = cursor.failures;
          if (failures >= RELAY_SINGLE_AFTER) mine = mine.slice(0, 1);
          single = failures >= RELAY_SINGLE_AFTER ? (mine[0] ?? null) : null;
          if (!mine.length) return { handled: 0, after: undefined };
          this.logger.debug(`${subscriber.name}: handling seq ${mine[0].seq}..${mine[mine.length - 1].seq}`);
          const after = await subscriber.handle(em, mine);
          await this.repository.moveCursor(em, subscriber.name, mine[mine.length - 1].seq);
          return { handled: mine.length, after };
        },
        { isolation: 'READ COMMITTED' },
      );
      if (after) await after().catch((err: Error) => this.logger.warn(`${subscriber.name} after its batch: ${err.message}`));
      return handled;
    } catch (err) {
      const failed = single as RelayedEvent | null;
      const what = failed
        ? `event ${failed.eventId} (${failed.event}, seq ${failed.seq})`
        : `the batch from seq ${events[0].seq}`;
      const message = `${what}: ${(err as Error).message}`;
      const skip = failed && subscriber.skipAfter !== undefined && failures - RELAY_SINGLE_AFTER + 1 >= subscriber.skipAfter;
      if (failed && skip) {
        this.logger.error(`${subscriber.name}: passed over ${message}`);
        await transaction(this.ds, (em) =>
          this.repository.moveCursor(em, subscriber.name, failed.seq, `passed over ${message}`),
        ).catch(() => undefined);
        return 1;
      }
      const count = await this.repository.recordFailure(subscriber.name, message).catch(() => null);
      this.logger.warn(`${subscriber.name} failed${count ? ` ${count} times in a row` : ''} on ${message}`);
      return 0;
    }
  }
}

function toRelayed(row: OutboxRow): RelayedEvent {
  return {
    seq: Number(row.seq),
    eventId: row.event_id,
    event: row.event,
    data: JSON.parse(row.payload) as unknown,
    createdAt: fromSqlInstant(row.created_at),
  };
}
