import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const fk = (table: string, column: string, target: string) =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: target,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * Issue 47: identity (docs/api/decisions.md §23). A user's TOTP factor and its recovery codes; SCIM tokens and
 * groups; on users, what provisioning and single sign-on link by (the SCIM externalId, the
 * OpenID subject) and the SCIM attributes the service keeps without a column of its own.
 */
export class Identity1763800000041 implements MigrationInterface {
  name = 'Identity1763800000041';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'user_mfa',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'secret', type: 'varchar', length: '64' },
          { name: 'confirmed_at', type: 'datetime', isNullable: true },
          { name: 'last_step', type: 'bigint', default: 0 },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        foreignKeys: [fk('user_mfa', 'user_id', 'users')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'user_recovery_codes',
        columns: [
          id,
          { name: 'user_id', type: 'integer' },
          { name: 'code_hash', type: 'varchar', length: '64' },
          { name: 'used_at', type: 'datetime', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'ix_user_recovery_codes_user', columnNames: ['user_id'] })],
        foreignKeys: [fk('user_recovery_codes', 'user_id', 'users')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'scim_tokens',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'created_by', type: 'integer', isNullable: true },
          { name: 'last_used_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_scim_tokens_hash', columnNames: ['token_hash'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'scim_groups',
        columns: [
          id,
          { name: 'display_name', type: 'varchar', length: '255' },
          { name: 'external_id', type: 'varchar', length: '255', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_scim_groups_name', columnNames: ['display_name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'scim_group_members',
        columns: [
          { name: 'group_id', type: 'integer', isPrimary: true },
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'display', type: 'varchar', length: '255', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'ix_scim_group_members_user', columnNames: ['user_id'] })],
        foreignKeys: [fk('scim_group_members', 'group_id', 'scim_groups'), fk('scim_group_members', 'user_id', 'users')],
      }),
    );
    // Plain ALTERs (as migration 37): on SQLite TypeORM's addColumn copies the table from its own idea of it.
    await q.query('ALTER TABLE users ADD COLUMN external_id varchar(255) NULL');
    await q.query('ALTER TABLE users ADD COLUMN oidc_subject varchar(255) NULL');
    await q.query('ALTER TABLE users ADD COLUMN scim_attributes text NULL');
    await q.createIndex('users', new TableIndex({ name: 'ix_users_external_id', columnNames: ['external_id'] }));
    await q.createIndex(
      'users',
      new TableIndex({ name: 'uq_users_oidc_subject', columnNames: ['oidc_subject'], isUnique: true }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('users', 'uq_users_oidc_subject');
    await q.dropIndex('users', 'ix_users_external_id');
    await q.query('ALTER TABLE users DROP COLUMN scim_attributes');
    await q.query('ALTER TABLE users DROP COLUMN oidc_subject');
    await q.query('ALTER TABLE users DROP COLUMN external_id');
    await q.dropTable('scim_group_members');
    await q.dropTable('scim_groups');
    await q.dropTable('scim_tokens');
    await q.dropTable('user_recovery_codes');
    await q.dropTable('user_mfa');
  }
}
