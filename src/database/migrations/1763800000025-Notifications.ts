import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Notifications (issue 30): the in-app feed, each user's preferences per kind, and a mark on the
 * outbox of the events already turned into notifications (as dispatched_at is the webhooks' mark).
 */
export class Notifications1763800000025 implements MigrationInterface {
  name = 'Notifications1763800000025';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.addColumn(
      'webhook_outbox',
      new TableColumn({ name: 'notified_at', type: 'datetime', precision: mysql ? 3 : undefined, isNullable: true }),
    );
    // The events before notifications existed notify nobody.
    await q.query('UPDATE webhook_outbox SET notified_at = CURRENT_TIMESTAMP');
    await q.createIndex(
      'webhook_outbox',
      new TableIndex({ name: 'ix_webhook_outbox_unnotified', columnNames: ['notified_at', 'id'] }),
    );

    await q.createTable(
      new Table({
        name: 'notifications',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '40' },
          { name: 'title', type: 'varchar', length: '300' },
          { name: 'body', type: 'varchar', length: '2000' },
          { name: 'link', type: 'varchar', length: '500', isNullable: true },
          { name: 'is_read', type: 'boolean', default: false },
          // What made it (`event:<outbox event id>`, `task:<id>`): one notification per source and user.
          { name: 'source_key', type: 'varchar', length: '80' },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'read_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_notifications_source_user', columnNames: ['source_key', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'ix_notifications_user', columnNames: ['user_id', 'id'] }),
          new TableIndex({ name: 'ix_notifications_user_unread', columnNames: ['user_id', 'is_read', 'id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_notifications_user',
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
        name: 'notification_preferences',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'kind', type: 'varchar', length: '40', isPrimary: true },
          { name: 'email', type: 'boolean' },
          { name: 'in_app', type: 'boolean' },
          { name: 'frequency', type: 'varchar', length: '10' },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_notification_preferences_user',
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
    await q.dropTable('notification_preferences');
    await q.dropTable('notifications');
    await q.dropIndex('webhook_outbox', 'ix_webhook_outbox_unnotified');
    await q.dropColumn('webhook_outbox', 'notified_at');
  }
}
