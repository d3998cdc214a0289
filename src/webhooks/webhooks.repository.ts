import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';

/** An outbox row the dispatcher takes. */
export interface OutboxRow {
  id: number;
  event_id: string;
  event: string;
  created_at: string | Date;
}

/** The outbox's one locking read (issue 26): the dispatcher's batch. */
@Injectable()
export class WebhooksRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * The oldest undispatched events, `limit` of them, locked for the caller's transaction: on MariaDB
   * `FOR UPDATE SKIP LOCKED`, so several dispatchers share the outbox (SQLite has one writer).
   */
  @RecordSql(SAMPLE_MANAGER, 500)
  undispatched(em: EntityManager, limit: number): Promise<OutboxRow[]> {
    const lock = this.ds.options.type === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '';
    return em.query<OutboxRow[]>(
      `SELECT id, event_id, event, created_at FROM webhook_outbox WHERE dispatched_at IS NULL ORDER BY id LIMIT ${Number(limit)}${lock}`,
    );
  }
}
