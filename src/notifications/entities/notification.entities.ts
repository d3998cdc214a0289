import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** One item of a user's in-app feed. */
@Entity('notifications')
export class Notification {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'user_id', type: 'integer' }) userId: number;
  @Column({ type: 'varchar', length: 40 }) kind: string;
  @Column({ type: 'varchar', length: 300 }) title: string;
  @Column({ type: 'varchar', length: 2000 }) body: string;
  /** An API path under the prefix (`/leaves/5`): the record to act on. */
  @Column({ type: 'varchar', length: 500, nullable: true }) link: string | null;
  @Column({ name: 'is_read', type: 'boolean', default: false }) read: boolean;
  /** What made it (`event:<outbox event id>`, `task:<id>`): unique per user. */
  @Column({ name: 'source_key', type: 'varchar', length: 80 }) sourceKey: string;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @Column({ name: 'read_at', type: 'datetime', nullable: true }) readAt: Date | null;
}

/** A user's choice for one kind (absent: the kind's defaults). */
@Entity('notification_preferences')
export class NotificationPreference {
  @PrimaryColumn({ name: 'user_id', type: 'integer' }) userId: number;
  @PrimaryColumn({ type: 'varchar', length: 40 }) kind: string;
  @Column({ type: 'boolean' }) email: boolean;
  @Column({ name: 'in_app', type: 'boolean' }) inApp: boolean;
  @Column({ type: 'varchar', length: 10 }) frequency: 'immediate' | 'daily';
}
