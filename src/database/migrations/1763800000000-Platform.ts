import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Settings, users (with Restricted Admin departments) and OAuth tokens. */
export class Platform1763800000000 implements MigrationInterface {
  name = 'Platform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'settings',
        columns: [
          { name: 'name', type: 'varchar', length: '100', isPrimary: true },
          { name: 'value', type: 'text' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'users',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'username', type: 'varchar', length: '100' },
          { name: 'email', type: 'varchar', length: '255' },
          { name: 'password_hash', type: 'varchar', length: '255' },
          { name: 'user_level', type: 'varchar', length: '20' },
          { name: 'employee_id', type: 'integer', isNullable: true },
          { name: 'active', type: 'boolean', default: true },
          { name: 'must_change_password', type: 'boolean', default: false },
          { name: 'password_changed_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'uq_users_username', columnNames: ['username'], isUnique: true }),
          new TableIndex({ name: 'uq_users_email', columnNames: ['email'], isUnique: true }),
          new TableIndex({ name: 'ix_users_employee', columnNames: ['employee_id'] }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'user_departments',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'department_id', type: 'integer', isPrimary: true },
        ],
        indices: [new TableIndex({ name: 'ix_user_departments_department', columnNames: ['department_id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_user_departments_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );

    await q.createTable(
      new Table({
        name: 'oauth_tokens',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '10' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'grant_id', type: 'varchar', length: '36' },
          { name: 'expires_at', type: 'datetime' },
          { name: 'revoked_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'uq_oauth_tokens_hash', columnNames: ['token_hash'], isUnique: true }),
          new TableIndex({ name: 'ix_oauth_tokens_user', columnNames: ['user_id'] }),
          new TableIndex({ name: 'ix_oauth_tokens_grant', columnNames: ['grant_id'] }),
          new TableIndex({ name: 'ix_oauth_tokens_expires', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_oauth_tokens_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('oauth_tokens');
    await q.dropTable('user_departments');
    await q.dropTable('users');
    await q.dropTable('settings');
  }
}
