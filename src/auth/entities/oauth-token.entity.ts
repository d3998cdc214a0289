import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** mfa: a sign-in challenge between the password and the second factor (five minutes, used once). */
export type TokenKind = 'access' | 'refresh' | 'mfa';

/** An issued token. Only the SHA-256 of the token is stored; the token itself is shown once. */
@Entity('oauth_tokens')
export class OAuthToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('ix_oauth_tokens_user')
  @Column({ name: 'user_id', type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 10 })
  kind: TokenKind;

  @Index('uq_oauth_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  /** Shared by the access and refresh token of one grant and its refreshes. */
  @Index('ix_oauth_tokens_grant')
  @Column({ name: 'grant_id', type: 'varchar', length: 36 })
  grantId: string;

  @Index('ix_oauth_tokens_expires')
  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;

  @Column({ name: 'revoked_at', type: 'datetime', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}
