import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** A stream's callback: the ids of the user's new notifications. */
type Listener = (ids: number[]) => void;

/**
 * Fans new notifications out to the open streams of every API process: through Redis pub/sub when
 * REDIS_URL is set (a channel under QUEUE_PREFIX), in process otherwise. Messages carry ids only;
 * each stream reads its user's rows.
 */
@Injectable()
export class NotificationsHub implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('NotificationsHub');
  private readonly listeners = new Map<number, Set<Listener>>();
  /** How to end each open stream: a shutting-down process ends them, or its HTTP server would wait for them forever. */
  private readonly enders = new Set<() => void>();
  private publisher: Redis | null = null;
  private subscriber: Redis | null = null;
  private readonly channel: string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.channel = `${config.queuePrefix}:notifications`;
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.redisUrl) return;
    this.publisher = new Redis(this.config.redisUrl, { maxRetriesPerRequest: 1 });
    this.subscriber = new Redis(this.config.redisUrl, { maxRetriesPerRequest: null });
    for (const client of [this.publisher, this.subscriber])
      client.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
    this.subscriber.on('message', (_channel: string, message: string) =>
      this.deliver(JSON.parse(message) as Array<{ id: number; userId: number }>),
    );
    await this.subscriber.subscribe(this.channel);
  }

  /** Ends every open stream (clients reconnect, with Last-Event-ID, to another process). */
  beforeApplicationShutdown(): void {
    for (const end of [...this.enders]) end();
  }

  async onApplicationShutdown(): Promise<void> {
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  /** Streams open in this process, by user (the cap per user). */
  openStreams(userId: number): number {
    return this.listeners.get(userId)?.size ?? 0;
  }

  /**
   * Calls `listener` with the ids of the user's new notifications until the returned function is
   * called; `end` ends the stream when the process shuts down.
   */
  listen(userId: number, listener: Listener, end: () => void): () => void {
    const set = this.listeners.get(userId) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(userId, set);
    this.enders.add(end);
    return () => {
      set.delete(listener);
      this.enders.delete(end);
      if (!set.size) this.listeners.delete(userId);
    };
  }

  /** Tells every process's streams of new notifications. A lost message is caught up by a reconnecting stream (Last-Event-ID). */
  async publish(items: Array<{ id: number; userId: number }>): Promise<void> {
    if (!items.length) return;
    if (!this.publisher) return this.deliver(items);
    await this.publisher
      .publish(this.channel, JSON.stringify(items))
      .catch((err: Error) => this.logger.warn(`publish failed: ${err.message}`));
  }

  private deliver(items: Array<{ id: number; userId: number }>): void {
    const byUser = new Map<number, number[]>();
    for (const item of items) byUser.set(item.userId, [...(byUser.get(item.userId) ?? []), item.id]);
    for (const [userId, ids] of byUser) for (const listener of this.listeners.get(userId) ?? []) listener(ids);
  }
}
