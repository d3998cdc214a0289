import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/** A user's TOTP factor: pending until a first code confirms it. */
@Entity('user_mfa')
export class UserMfa {
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  /** Base32 (RFC 4648), shown once at enrolment; the service needs it to check codes, so it is not hashed. */
  @Column({ type: 'varchar', length: 64 })
  secret: string;

  @Column({ name: 'confirmed_at', type: 'datetime', nullable: true })
  confirmedAt: Date | null;

  /** The last 30-second step a code was accepted for: a code of that step or earlier is a replay. */
  @Column({
    name: 'last_step',
    type: 'bigint',
    default: 0,
    transformer: { to: (v: number) => v, from: (v: string | number) => Number(v) },
  })
  lastStep: number;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}

/** One of the ten single-use recovery codes of a confirmed factor, stored as its SHA-256. */
@Entity('user_recovery_codes')
export class UserRecoveryCode {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_user_recovery_codes_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash: string;

  @Column({ name: 'used_at', type: 'datetime', nullable: true })
  usedAt: Date | null;
}
