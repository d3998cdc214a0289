import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../database/record-sql';
import { sqlInstant } from '../time/instants';
import { OUTBOX_TABLE } from './outbox';
import { OutboxCursor } from './outbox.entities';

/** The cursor row that holds the last sequence the relay gave. */
export const SEQUENCE_CURSOR = '$sequence';

/** An event as the relay reads it. */
export interface OutboxRow {
  id: number;
  seq: number | string;
  event_id: string;
  event: string;
  payload: string;
  created_at: string | Date;
}

/** The relay's SQL (issue 42): sequencing committed events, reading after a cursor, moving cursors, purging. */
@Injectable()
export class OutboxRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private get forUpdate(): string {
    return this.ds.options.type === 'mysql' ? ' FOR UPDATE' : '';
  }

  /** The lowest id of an event committed and not sequenced yet; null when there is none (the idle relay's one query). */
  @RecordSql()
  async firstUnsequenced(em: EntityManager = this.ds.manager): Promise<number | null> {
    const [row] = await em.query<Array<{ id: number | null }>>(`SELECT MIN(id) AS id FROM ${OUTBOX_TABLE} WHERE seq IS NULL`);
    return row?.id == null ? null : Number(row.id);
  }

  /**
   * Sequences the committed events with ids from `from` up to `limit` of them, after the last
   * sequence given: `seq = id + offset`, so within a batch the order is the ids' and every number is
   * above all numbers given before. Runs under the '$sequence' cursor's lock (one sequencer at a time);
   * an event committed later than one with a higher id gets a higher sequence than it, so a cursor
   * never passes an event that was not there yet when it moved. Returns the last sequence given.
   */
  @RecordSql(SAMPLE_MANAGER, 1, 500)
  async sequence(em: EntityManager, from: number, limit: number): Promise<number> {
    const [cursor] = await em.query<Array<{ last_seq: number | string }>>(
      `SELECT last_seq FROM outbox_cursors WHERE subscriber = ?${this.forUpdate}`,
      [SEQUENCE_CURSOR],
    );
    const last = Number(cursor?.last_seq ?? 0);
    const offset = last - from + 1;
    await em.query(`UPDATE ${OUTBOX_TABLE} SET seq = id + ? WHERE seq IS NULL AND id >= ? AND id < ?`, [
      offset,
      from,
      from + limit,
    ]);
    const [max] = await em.query<Array<{ n: number | string | null }>>(`SELECT MAX(seq) AS n FROM ${OUTBOX_TABLE}`);
    const given = Number(max?.n ?? last);
    await this.moveCursor(em, SEQUENCE_CURSOR, given);
    return given;
  }

  /** The cursors of these subscribers (subscriber → last sequence handled; 0 for one without a row yet). */
  @RecordSql(['notifications', 'webhooks'])
  async cursors(subscribers: string[]): Promise<Map<string, number>> {
    const rows = subscribers.length
      ? await this.ds.query<Array<{ subscriber: string; last_seq: number | string }>>(
          `SELECT subscriber, last_seq FROM outbox_cursors WHERE subscriber IN (${subscribers.map(() => '?').join(', ')})`,
          subscribers,
        )
      : [];
    const out = new Map(subscribers.map((s) => [s, 0]));
    for (const r of rows) out.set(r.subscriber, Number(r.last_seq));
    return out;
  }

  /** When the oldest event not sequenced yet was recorded; null when there is none (the metrics' relay lag). */
  @RecordSql()
  async oldestUnsequenced(): Promise<string | Date | null> {
    const [row] = await this.ds.query<Array<{ at: string | Date | null }>>(
      `SELECT MIN(created_at) AS at FROM ${OUTBOX_TABLE} WHERE seq IS NULL`,
    );
    return row?.at ?? null;
  }

  /** When the first event after `afterSeq` was recorded; null when there is none (a subscriber's lag). */
  @RecordSql(0)
  async firstAfter(afterSeq: number): Promise<string | Date | null> {
    const [row] = await this.ds.query<Array<{ created_at: string | Date }>>(
      `SELECT created_at FROM ${OUTBOX_TABLE} WHERE seq > ? ORDER BY seq LIMIT 1`,
      [afterSeq],
    );
    return row?.created_at ?? null;
  }

  /** The events after `afterSeq` in sequence order, at most `limit`. */
  @RecordSql(0, 500)
  after(afterSeq: number, limit: number): Promise<OutboxRow[]> {
    return this.ds.query<OutboxRow[]>(
      `SELECT id, seq, event_id, event, payload, created_at FROM ${OUTBOX_TABLE} WHERE seq > ? ORDER BY seq LIMIT ${Number(limit)}`,
      [afterSeq],
    );
  }

  /**
   * The subscriber's cursor and failures, locked for the caller's transaction (on MariaDB; SQLite has
   * one writer): two processes never hand the same events to one subscriber at once.
   */
  @RecordSql(SAMPLE_MANAGER, 'notifications')
  async lockCursor(em: EntityManager, subscriber: string): Promise<{ lastSeq: number; failures: number }> {
    const read = () =>
      em.query<Array<{ last_seq: number | string; failures: number }>>(
        `SELECT last_seq, failures FROM outbox_cursors WHERE subscriber = ?${this.forUpdate}`,
        [subscriber],
      );
    let [row] = await read();
    if (!row) {
      // A subscriber without a row starts at the beginning of what the outbox holds.
      await em
        .createQueryBuilder()
        .insert()
        .into(OutboxCursor)
        .values({ subscriber, lastSeq: '0', failures: 0 })
        .orIgnore()
        .execute();
      [row] = await read();
    }
    return { lastSeq: Number(row.last_seq), failures: Number(row.failures) };
  }

  /** Moves the cursor on, its failures reset; `note` stays as its last_error (an event passed over). */
  @RecordSql(SAMPLE_MANAGER, 'notifications', 10)
  async moveCursor(em: EntityManager, subscriber: string, lastSeq: number, note: string | null = null): Promise<void> {
    await em.query('UPDATE outbox_cursors SET last_seq = ?, failures = 0, last_error = ?, updated_at = ? WHERE subscriber = ?', [
      lastSeq,
      note?.slice(0, 500) ?? null,
      sqlInstant(),
      subscriber,
    ]);
  }

  @RecordSql('notifications', 'connection refused')
  async recordFailure(subscriber: string, error: string): Promise<number> {
    // A subscriber whose first batch failed has no row yet (it was made in the rolled-back
    // transaction): without one its failures were never counted, and it never got single events.
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(OutboxCursor)
      .values({ subscriber, lastSeq: '0', failures: 0 })
      .orIgnore()
      .updateEntity(false)
      .execute();
    await this.ds.query(
      'UPDATE outbox_cursors SET failures = failures + 1, last_error = ?, updated_at = ? WHERE subscriber = ?',
      [error.slice(0, 500), sqlInstant(), subscriber],
    );
    const [row] = await this.ds.query<Array<{ failures: number }>>('SELECT failures FROM outbox_cursors WHERE subscriber = ?', [
      subscriber,
    ]);
    return Number(row?.failures ?? 0);
  }

  /**
   * Deletes the events older than `before` that these subscribers have all handled; an event one of
   * them has not handled yet stays, however old. (A cursor of a subscriber no longer in the code
   * holds nothing back.)
   */
  @RecordSql(new Date('2026-01-01T00:00:00Z'), ['notifications', 'webhooks'])
  async purge(before: Date, subscribers: string[]): Promise<number> {
    const cursors = await this.cursors(subscribers);
    if (!cursors.size) return 0;
    const result = await this.ds
      .createQueryBuilder()
      .delete()
      .from(OUTBOX_TABLE)
      .where('seq <= :seq AND created_at < :before', { seq: Math.min(...cursors.values()), before: sqlInstant(before) })
      .execute();
    return result.affected ?? 0;
  }
}
