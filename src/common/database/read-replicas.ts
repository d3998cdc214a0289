import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { DataSource, DataSourceOptions } from 'typeorm';
import { AppConfig } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { auditContext } from '../audit/audit-context';
import { DatabaseMetrics } from '../metrics/database-metrics';
import { Metrics } from '../metrics/metrics';
import { withTimeout } from '../async/with-timeout';

interface Replica {
  name: string;
  ds: DataSource;
  /** Usable: connected, both replication threads running, at most READ_REPLICA_MAX_LAG_S behind. */
  usable: boolean;
  /** Seconds behind the primary; null when unknown (down, not replicating, SQL thread stopped). */
  lagSec: number | null;
  why: string;
}

/** The routers of the primaries that have replicas: readerFor() is reached from helpers that get a DataSource only. */
const ROUTERS = new WeakMap<DataSource, ReadReplicas>();

/**
 * Where a read that may be a little behind goes (lists, exports, insights, the change feed): a
 * replica in use, else the primary. Every write, and every read in a transaction (an
 * EntityManager, never this DataSource), stays on the primary.
 */
export async function readerFor(ds: DataSource): Promise<DataSource> {
  const router = ROUTERS.get(ds);
  return router ? router.reader() : ds;
}

/**
 * DATABASE_READ_URLS (docs/api/decisions.md §24): a DataSource per replica, each one's replication state read
 * every READ_REPLICA_CHECK_MS (SHOW SLAVE STATUS: the threads running, Seconds_Behind_Master
 * within READ_REPLICA_MAX_LAG_S; a replica down or behind is skipped until it catches up), and
 * the rule that a caller reads its own writes: for READ_YOUR_WRITES_MS after a user's successful
 * write its reads go to the primary, in this process and, with Redis, in every other.
 */
@Injectable()
export class ReadReplicas implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReadReplicas');
  private readonly replicas: Replica[] = [];
  private readonly wrote = new Map<number, number>();
  private redis: Redis | null = null;
  private timer: NodeJS.Timeout | null = null;
  private next = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly primary: DataSource,
    @Optional() private readonly poolMetrics?: DatabaseMetrics,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  get configured(): boolean {
    return this.config.replicas.urls.length > 0;
  }

  async onModuleInit(): Promise<void> {
    if (!this.configured) return;
    const base = this.primary.options as DataSourceOptions & { url?: string };
    this.config.replicas.urls.forEach((url, i) => {
      const ds = new DataSource({
        ...base,
        url,
        entities: this.primary.entityMetadatas.map((m) => m.target),
        migrations: [],
        migrationsRun: false,
        poolSize: 10,
      } as DataSourceOptions);
      this.replicas.push({ name: `replica${i + 1}`, ds, usable: false, lagSec: null, why: 'not checked yet' });
      this.poolMetrics?.add(`replica${i + 1}`, ds);
    });
    if (this.config.redisUrl)
      this.redis = new Redis(this.config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    this.redis?.on('error', () => undefined);
    this.metrics?.gauge(
      'hr_db_replica_lag_seconds',
      'Seconds each replica is behind the primary (absent: unknown)',
      ['replica'],
      () => this.replicas.filter((r) => r.lagSec !== null).map((r) => [{ replica: r.name }, r.lagSec as number]),
    );
    this.metrics?.gauge('hr_db_replica_in_use', 'Whether reads go to each replica (1) or it is skipped (0)', ['replica'], () =>
      this.replicas.map((r) => [{ replica: r.name }, r.usable ? 1 : 0]),
    );
    ROUTERS.set(this.primary, this);
    await this.check();
    this.timer = setInterval(() => void this.check(), this.config.replicas.checkMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    ROUTERS.delete(this.primary);
    this.redis?.disconnect();
    await Promise.all(this.replicas.filter((r) => r.ds.isInitialized).map((r) => r.ds.destroy()));
  }

  /** Each replica's state, as the router last read it. */
  state(): Array<{ name: string; usable: boolean; lagSec: number | null; why: string }> {
    return this.replicas.map(({ name, usable, lagSec, why }) => ({ name, usable, lagSec, why }));
  }

  /** Reads every replica's replication state now (the timer does it every READ_REPLICA_CHECK_MS). */
  async check(): Promise<void> {
    const now = Date.now();
    for (const [user, until] of this.wrote) if (until <= now) this.wrote.delete(user);
    await Promise.all(this.replicas.map((r) => this.checkOne(r)));
  }

  private async checkOne(r: Replica): Promise<void> {
    const was = r.usable;
    try {
      if (!r.ds.isInitialized) await withTimeout(r.ds.initialize(), 3000);
      const [status] = await withTimeout(r.ds.query<Array<Record<string, string | number | null>>>('SHOW SLAVE STATUS'), 2000);
      const lag = status?.Seconds_Behind_Master;
      r.lagSec = lag === null || lag === undefined ? null : Number(lag);
      if (!status) r.why = 'not a replica (SHOW SLAVE STATUS is empty)';
      else if (status.Slave_IO_Running !== 'Yes' || status.Slave_SQL_Running !== 'Yes')
        r.why = `replication stopped (IO ${status.Slave_IO_Running}, SQL ${status.Slave_SQL_Running})`;
      else if (r.lagSec === null || r.lagSec > this.config.replicas.maxLagSec)
        r.why = `${r.lagSec ?? 'unknown'} s behind (READ_REPLICA_MAX_LAG_S ${this.config.replicas.maxLagSec})`;
      else r.why = 'in use';
      r.usable = r.why === 'in use';
    } catch (err) {
      r.usable = false;
      r.lagSec = null;
      r.why = `unreachable: ${(err as Error).message}`;
    }
    if (was !== r.usable) this.logger[r.usable ? 'log' : 'warn'](`${r.name}: ${r.why}`);
  }

  /** A user's write succeeded: its reads stay on the primary for READ_YOUR_WRITES_MS. */
  markWrite(userId: number): void {
    const ms = this.config.replicas.readYourWritesMs;
    if (!this.configured || ms === 0) return;
    this.wrote.set(userId, Date.now() + ms);
    this.redis?.set(`${this.config.queuePrefix}:rw:${userId}`, '1', 'PX', ms).catch(() => undefined);
  }

  /** The DataSource a replica-safe read of the current caller goes to. */
  async reader(): Promise<DataSource> {
    const usable = this.replicas.filter((r) => r.usable);
    if (!usable.length) return this.primary;
    const actor = auditContext().actor;
    if (typeof actor === 'number' && (await this.wroteRecently(actor))) return this.primary;
    this.next = (this.next + 1) % usable.length;
    return usable[this.next].ds;
  }

  private async wroteRecently(userId: number): Promise<boolean> {
    const until = this.wrote.get(userId);
    if (until !== undefined) {
      if (until > Date.now()) return true;
      this.wrote.delete(userId);
    }
    if (!this.redis) return false;
    // Another process's write; when Redis cannot say, the primary answers (never a stale read of one's own).
    return withTimeout(this.redis.exists(`${this.config.queuePrefix}:rw:${userId}`), 100).then(
      (n) => n === 1,
      () => true,
    );
  }
}
