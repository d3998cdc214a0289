import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A request made with an Idempotency-Key, and its response once it succeeded (kept 24 h). */
@Entity('idempotency_keys')
@Index('uq_idempotency_keys_user_key', ['userId', 'idemKey'], { unique: true })
export class IdempotencyKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'idem_key', type: 'varchar', length: 200 })
  idemKey: string;

  /** SHA-256 of method, path and canonical JSON body. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  @Column({ type: 'varchar', length: 12 })
  state: 'processing' | 'done';

  /** The handler's result as JSON (before the envelope), set when state is done. */
  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @Index('ix_idempotency_keys_expires')
  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;
}
