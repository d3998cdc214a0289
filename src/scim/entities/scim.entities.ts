import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A bearer token for /scim/v2, issued by an Admin; only its SHA-256 is kept. */
@Entity('scim_tokens')
export class ScimToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Index('uq_scim_tokens_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ name: 'created_by', type: 'integer', nullable: true })
  createdBy: number | null;

  @Column({ name: 'last_used_at', type: 'datetime', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;
}

/** A group an identity provider keeps here; "SCIM Group Levels" may give its members a user level. */
@Entity('scim_groups')
export class ScimGroup {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('uq_scim_groups_name', { unique: true })
  @Column({ name: 'display_name', type: 'varchar', length: 255 })
  displayName: string;

  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}

@Entity('scim_group_members')
export class ScimGroupMember {
  @PrimaryColumn({ name: 'group_id', type: 'integer' })
  groupId: number;

  @Index('ix_scim_group_members_user')
  @PrimaryColumn({ name: 'user_id', type: 'integer' })
  userId: number;

  /** The member's display as the provider sent it, when it did. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  display: string | null;
}
