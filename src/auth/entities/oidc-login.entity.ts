import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An OpenID Connect sign-in under way (GET /auth/oidc/login until its callback); used once. */
@Entity('oidc_logins')
export class OidcLogin {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** SHA-256 of the `state` sent to the provider. */
  @Index('uq_oidc_logins_state', { unique: true })
  @Column({ name: 'state_hash', type: 'varchar', length: 64 })
  stateHash: string;

  /** SHA-256 of the cookie set in the browser that started the sign-in: the callback must come from it. */
  @Column({ name: 'browser_hash', type: 'varchar', length: 64 })
  browserHash: string;

  /** PKCE (RFC 7636): sent to the token endpoint only; the provider saw its S256 challenge. */
  @Column({ name: 'code_verifier', type: 'varchar', length: 128 })
  codeVerifier: string;

  @Column({ type: 'varchar', length: 128 })
  nonce: string;

  @Column({ name: 'return_to', type: 'varchar', length: 2000, nullable: true })
  returnTo: string | null;

  @Index('ix_oidc_logins_expires')
  @Column({ name: 'expires_at', type: 'datetime' })
  expiresAt: Date;

  @Column({ name: 'used_at', type: 'datetime', nullable: true })
  usedAt: Date | null;
}
