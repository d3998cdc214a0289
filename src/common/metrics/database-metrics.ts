import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics, Sample } from './metrics';

/** What mysql2's pool keeps (not in its typings): the connections made, the idle ones, the callers waiting. */
interface Mysql2Pool {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
  config?: { connectionLimit?: number };
}

/** The pools of DataSources this process reads and writes (the primary; replicas add theirs). */
export type PoolSource = [name: string, ds: DataSource];

/** mysql2's pool in use, idle, waited for and its limit, per pool; nothing on SQLite (one connection, no pool). */
export function poolSamples(sources: readonly PoolSource[]): { connections: Sample[]; waiting: Sample[]; max: Sample[] } {
  const out = { connections: [] as Sample[], waiting: [] as Sample[], max: [] as Sample[] };
  for (const [name, ds] of sources) {
    const pool = (ds.driver as unknown as { pool?: Mysql2Pool }).pool;
    if (!ds.isInitialized || !pool?._allConnections) continue;
    const all = pool._allConnections.length;
    const idle = pool._freeConnections?.length ?? 0;
    out.connections.push([{ pool: name, state: 'active' }, all - idle], [{ pool: name, state: 'idle' }, idle]);
    out.waiting.push([{ pool: name }, pool._connectionQueue?.length ?? 0]);
    out.max.push([{ pool: name }, pool.config?.connectionLimit ?? 0]);
  }
  return out;
}

/** The database pool's gauges (MariaDB/MySQL). */
@Injectable()
export class DatabaseMetrics implements OnModuleInit {
  private readonly sources: PoolSource[];

  constructor(
    private readonly metrics: Metrics,
    @InjectDataSource() ds: DataSource,
  ) {
    this.sources = [['primary', ds]];
  }

  /** A replica's DataSource, whose pool is reported beside the primary's. */
  add(name: string, ds: DataSource): void {
    this.sources.push([name, ds]);
  }

  onModuleInit(): void {
    const read = () => poolSamples(this.sources);
    this.metrics.gauge(
      'hr_db_pool_connections',
      'Database connections by pool and state (active, idle)',
      ['pool', 'state'],
      () => read().connections,
    );
    this.metrics.gauge(
      'hr_db_pool_waiting',
      'Callers waiting for a database connection, by pool',
      ['pool'],
      () => read().waiting,
    );
    this.metrics.gauge('hr_db_pool_max', 'The most connections a pool opens', ['pool'], () => read().max);
  }
}
