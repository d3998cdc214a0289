import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** An event, written in the transaction of its change (recordEvent); the relay hands it to every subscriber. */
@Entity('outbox_events')
export class OutboxEvent {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  /** The stable id receivers de-duplicate on (`webhook-id: msg_<event_id>`). */
  @Column({ name: 'event_id', type: 'varchar', length: 36 }) eventId: string;
  @Column({ type: 'varchar', length: 50 }) event: string;
  @Column({ type: 'text' }) payload: string;
  @Column({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  /** The order the relay saw it committed in (null until then); subscribers' cursors count in it. */
  @Column({ type: 'bigint', nullable: true }) seq: string | null;
  /** The employee the event is about (its payload's `employee`), for the events feed's scope. */
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
}

/** How far one subscriber has handled the outbox ('$sequence': the last sequence the relay gave). */
@Entity('outbox_cursors')
export class OutboxCursor {
  @PrimaryColumn({ type: 'varchar', length: 50 }) subscriber: string;
  @Column({ name: 'last_seq', type: 'bigint', default: 0 }) lastSeq: string;
  /** Batches in a row that failed; from RELAY_SINGLE_AFTER on, the subscriber gets one event at a time. */
  @Column({ type: 'integer', default: 0 }) failures: number;
  @Column({ name: 'last_error', type: 'varchar', length: 500, nullable: true }) lastError: string | null;
  @Column({ name: 'updated_at', type: 'datetime', nullable: true }) updatedAt: Date | null;
}
