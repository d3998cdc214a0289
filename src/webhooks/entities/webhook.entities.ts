import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A subscription: where to POST which events, signed with its secret. */
@Entity('webhooks')
export class Webhook {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 2000 }) url: string;
  @Column({ type: 'simple-json' }) events: string[];
  @Column({ type: 'boolean' }) active: boolean;
  @Column({ type: 'varchar', length: 500, nullable: true }) description: string | null;
  /** `whsec_` + base64 of 24 random bytes (Standard Webhooks); shown once, never logged. */
  @Column({ type: 'varchar', length: 100 }) secret: string;
  /** Since when its deliveries fail (null while they succeed); a day of failures disables it. */
  @Column({ name: 'failing_since', type: 'datetime', nullable: true }) failingSince: Date | null;
  @Column({ name: 'disabled_reason', type: 'varchar', length: 500, nullable: true }) disabledReason: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
}

/** One delivery attempt. */
@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'webhook_id', type: 'integer' }) webhookId: number;
  @Column({ name: 'event_id', type: 'varchar', length: 36 }) eventId: string;
  @Column({ type: 'varchar', length: 50 }) event: string;
  @Column({ type: 'integer' }) attempt: number;
  @Column({ name: 'status_code', type: 'integer', nullable: true }) statusCode: number | null;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs: number;
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  @Column({ type: 'boolean' }) delivered: boolean;
  @Column({ type: 'datetime' }) at: Date;
}
