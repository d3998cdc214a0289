import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DomainException } from '../common/errors/domain.exception';
import { clientKey } from './client-key';

export type RateLimitName = 'login-address' | 'login-username' | 'password-change';

/**
 * Fixed-window attempt counters (rate-limiter-flexible): sign-ins per client address and per
 * username, password changes per user. With REDIS_URL the counters live in Redis under the queue
 * prefix, so every API process counts together; without it, in this process's memory. When Redis
 * does not answer, each process falls back to its own memory counters rather than letting all through.
 */
@Injectable()
export class RateLimitsService implements OnModuleDestroy {
  private readonly logger = new Logger('RateLimits');
  private readonly redis: Redis | null;
  private readonly limiters: ReadonlyMap<RateLimitName, RateLimiterAbstract>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false })
      : null;
    this.redis?.on('error', (err: Error) => this.logger.warn(`rate-limit store: ${err.message}`));
    const make = (name: RateLimitName, points: number, duration: number): [RateLimitName, RateLimiterAbstract] => {
      const memory = new RateLimiterMemory({ points, duration, keyPrefix: name });
      if (!this.redis) return [name, memory];
      return [
        name,
        new RateLimiterRedis({
          storeClient: this.redis,
          points,
          duration,
          keyPrefix: `${config.queuePrefix}:rl:${name}`,
          insuranceLimiter: memory,
        }),
      ];
    };
    const { loginRateLimit: login, passwordChangeRateLimit: change } = config;
    this.limiters = new Map([
      make('login-address', login.perAddress, login.windowSec),
      make('login-username', login.perUsername, login.windowSec),
      make('password-change', change.perUser, change.windowSec),
    ]);
  }

  /**
   * Counts one attempt; throws 429 RATE_LIMITED with Retry-After when the window's allowance is
   * spent. A client address counts by its clientKey (an IPv6 address by its /64).
   */
  async consume(name: RateLimitName, key: string, message: string): Promise<void> {
    const limiter = this.limiters.get(name) as RateLimiterAbstract;
    try {
      await limiter.consume(name === 'login-address' ? clientKey(key) : key);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      const wait = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
      throw new DomainException('RATE_LIMITED', `${message}; retry in ${wait} s`, undefined, { 'Retry-After': String(wait) });
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.redis) await this.redis.quit().catch(() => this.redis?.disconnect());
  }
}
