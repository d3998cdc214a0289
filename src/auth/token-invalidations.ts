import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { randomUUID } from 'node:crypto';
import { withTimeout } from '../common/async/with-timeout';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** What a process's validated-token cache must forget: some tokens (by hash), some users', or all. */
export type Invalidation = { kind: 'tokens'; hashes: string[] } | { kind: 'users'; userIds: number[] } | { kind: 'all' };

/** How long an invalidation waits for the other processes' acknowledgements. */
const ACK_TIMEOUT_MS = 1000;

/**
 * Carries the token cache's invalidations to every other process of the installation (API
 * processes, workers, the CLI) through a Redis channel under the queue prefix, when REDIS_URL is
 * set. A revocation, a password change or a deactivation is published before the request that
 * made it answers, and the publisher waits until every other subscriber has applied it and said so
 * on the acknowledgement channel (at most ACK_TIMEOUT_MS): that a message sits in a process's
 * socket is not enough, a request already readable there could be served first. So the next
 * request, in any process, is refused.
 *
 * A process whose subscription is down may have missed messages: while it is (at start, after a
 * disconnection) `trusted` is false and the cache serves nothing, and once subscribed again the
 * whole cache is forgotten. Without Redis each process has only its own invalidations, and another
 * process's cache keeps a token for at most TOKEN_CACHE_MS.
 */
@Injectable()
export class TokenInvalidations implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('TokenInvalidations');
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly ackChannel: string;
  private sequence = 0;
  /** Invalidations of this process waiting for acknowledgements: how many came, how many are due (once known). */
  private readonly waiting = new Map<string, { acks: number; due?: number; done: () => void }>();
  private readonly listeners: Array<(invalidation: Invalidation) => void> = [];
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private subscribed = false;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.channel = `${config.queuePrefix}:auth:invalidate`;
    this.ackChannel = `${this.channel}:ack`;
  }

  onModuleInit(): void {
    const url = this.config.redisUrl;
    if (!url) return;
    this.publisher = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.publisher.on('error', (err: Error) => this.logger.warn(`token invalidations (publish): ${err.message}`));
    const subscriber = new Redis(url, { autoResubscribe: false, maxRetriesPerRequest: null });
    this.subscriber = subscriber;
    subscriber.on('error', (err: Error) => this.logger.warn(`token invalidations (subscribe): ${err.message}`));
    subscriber.on('close', () => (this.subscribed = false));
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel, this.ackChannel).then(
        () => {
          this.subscribed = true;
          // Whatever was published while this process was not listening is lost: forget everything.
          this.emit({ kind: 'all' });
        },
        (err: Error) => this.logger.warn(`token invalidations: cannot subscribe: ${err.message}`),
      );
    });
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === this.ackChannel) return this.acknowledged(text);
      let message: Invalidation & { origin?: string; id?: string };
      try {
        message = JSON.parse(text) as Invalidation & { origin: string; id: string };
      } catch {
        message = { kind: 'all' };
      }
      const { origin, id, ...invalidation } = message;
      if (origin === this.origin) return;
      this.emit(invalidation);
      if (id) void this.publisher?.publish(this.ackChannel, id).catch(() => undefined);
    });
  }

  onApplicationShutdown(): void {
    this.subscribed = false;
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  /** Whether cached tokens may be served: always without Redis, with it only while subscribed. */
  get trusted(): boolean {
    return !this.config.redisUrl || this.subscribed;
  }

  onInvalidate(listener: (invalidation: Invalidation) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Tells the other processes and waits until they have applied it. A publish that fails, or
   * acknowledgements that do not come, are logged: those processes' caches keep a token at most
   * TOKEN_CACHE_MS.
   */
  async publish(invalidation: Invalidation): Promise<void> {
    if (!this.publisher) return;
    const id = `${this.origin}:${++this.sequence}`;
    let done!: () => void;
    const applied = new Promise<void>((resolve) => (done = resolve));
    try {
      const text = JSON.stringify({ origin: this.origin, id, ...invalidation });
      const entry: { acks: number; due?: number; done: () => void } = { acks: 0, done };
      this.waiting.set(id, entry);
      // Every subscriber of the channel received it, this process's own included (when subscribed);
      // an acknowledgement may come before the answer to the publish does.
      const receivers = await withTimeout(this.publisher.publish(this.channel, text), ACK_TIMEOUT_MS);
      entry.due = receivers - (this.subscribed ? 1 : 0);
      if (entry.acks >= entry.due) done();
      await withTimeout(applied, ACK_TIMEOUT_MS);
    } catch (err) {
      this.logger.warn(`token invalidations: ${(err as Error).message} (publishing or waiting for the other processes)`);
    } finally {
      this.waiting.delete(id);
    }
  }

  private acknowledged(id: string): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    entry.acks += 1;
    if (entry.due !== undefined && entry.acks >= entry.due) entry.done();
  }

  private emit(invalidation: Invalidation): void {
    for (const listener of this.listeners) listener(invalidation);
  }
}
