import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { UserLevel } from '../../common/auth/user-level';

export type WelcomeEmailStatus = 'pending' | 'sent' | 'not_sent' | 'none';

@Entity('users')
export class User {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Index('uq_users_username', { unique: true })
  @Column({ type: 'varchar', length: 100 })
  username: string;

  @Index('uq_users_email', { unique: true })
  @Column({ type: 'varchar', length: 255 })
  email: string;

  /** scrypt hash (see PasswordHasher); never leaves the service. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'user_level', type: 'varchar', length: 20 })
  userLevel: UserLevel;

  /** The linked employee; the employees table arrives with the Employees module. */
  @Index('uq_users_employee', { unique: true })
  @Column({ name: 'employee_id', type: 'integer', nullable: true })
  employeeId: number | null;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'must_change_password', type: 'boolean', default: false })
  mustChangePassword: boolean;

  @Column({ name: 'password_changed_at', type: 'datetime', nullable: true })
  passwordChangedAt: Date | null;

  /** Role ids (docs/api/decisions.md §8), stored as JSON text. */
  @Column({
    name: 'user_roles',
    type: 'varchar',
    length: 500,
    nullable: true,
    transformer: {
      to: (v: number[] | null | undefined) => (v ? JSON.stringify(v) : null),
      from: (v: string | null) => (v ? (JSON.parse(v) as number[]) : []),
    },
  })
  userRoles: number[];

  @Column({ type: 'varchar', length: 10, nullable: true })
  lang: string | null;

  @Column({ name: 'default_module', type: 'varchar', length: 50, nullable: true })
  defaultModule: string | null;

  /** pending, sent, not_sent (gave up after the retries), none (no mail transport). */
  @Column({ name: 'welcome_email_status', type: 'varchar', length: 10, nullable: true })
  welcomeEmailStatus: WelcomeEmailStatus | null;

  @Column({ name: 'welcome_email_sent_at', type: 'datetime', nullable: true })
  welcomeEmailSentAt: Date | null;

  /** The identity provider's id of the user (SCIM externalId); not unique: providers reuse them. */
  @Index('ix_users_external_id')
  @Column({ name: 'external_id', type: 'varchar', length: 255, nullable: true })
  externalId: string | null;

  /** The OpenID Connect subject (iss-scoped `sub`) that signs in as this user. */
  @Index('uq_users_oidc_subject', { unique: true })
  @Column({ name: 'oidc_subject', type: 'varchar', length: 255, nullable: true })
  oidcSubject: string | null;

  /** SCIM attributes without a column of their own (name, emails, phones, the enterprise extension...), as JSON. */
  @Column({ name: 'scim_attributes', type: 'text', nullable: true })
  scimAttributes: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'datetime' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' })
  updatedAt: Date;
}
