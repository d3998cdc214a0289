import { Column, CreateDateColumn, Entity, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

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

export type NotificationEmailStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'unknown';

/** One e-mail owed to a user for one source: sent alone (`immediate`) or in the user's next digest. */
@Entity('notification_emails')
export class NotificationEmail {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'user_id', type: 'integer' }) userId: number;
  @Column({ type: 'varchar', length: 40 }) kind: string;
  @Column({ name: 'source_key', type: 'varchar', length: 80 }) sourceKey: string;
  @Column({ type: 'varchar', length: 300 }) title: string;
  @Column({ type: 'varchar', length: 2000 }) body: string;
  @Column({ type: 'varchar', length: 500, nullable: true }) link: string | null;
  @Column({ type: 'varchar', length: 10 }) mode: 'immediate' | 'digest';
  @Column({ type: 'varchar', length: 10 }) status: NotificationEmailStatus;
  @Column({ name: 'due_at', type: 'datetime', precision: 3 }) dueAt: Date;
  @Column({ name: 'batch_key', type: 'varchar', length: 80, nullable: true }) batchKey: string | null;
  @Column({ type: 'varchar', length: 500, nullable: true }) error: string | null;
  @Column({ name: 'created_at', type: 'datetime', precision: 3 }) createdAt: Date;
  @Column({ name: 'sent_at', type: 'datetime', nullable: true }) sentAt: Date | null;
}

/** When a user's daily digest goes out: its hour in its time zone (each null: the company's). */
@Entity('notification_user_settings')
export class NotificationUserSettings {
  @PrimaryColumn({ name: 'user_id', type: 'integer' }) userId: number;
  @Column({ name: 'digest_hour', type: 'integer', nullable: true }) digestHour: number | null;
  @Column({ name: 'time_zone', type: 'varchar', length: 64, nullable: true }) timeZone: string | null;
}

/** An Admin's template of one kind's e-mail in one language (absent: the shipped English one). */
@Entity('notification_templates')
export class NotificationTemplate {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 40 }) kind: string;
  @Column({ type: 'varchar', length: 10 }) lang: string;
  @Column({ type: 'varchar', length: 500 }) subject: string;
  @Column({ type: 'text' }) html: string;
  @Column({ type: 'text' }) text: string;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}
