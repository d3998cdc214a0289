import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const userForeignKey = (table: string) =>
  new TableForeignKey({
    name: `fk_${table}_user`,
    columnNames: ['user_id'],
    referencedTableName: 'users',
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * Notification e-mails (issue 30): one row per event, recipient and e-mail, written in the
 * dispatcher's transaction (unique per source and user) and claimed before the SMTP call; each
 * user's digest hour and time zone; the Admins' templates per kind and language.
 */
export class NotificationEmails1763800000026 implements MigrationInterface {
  name = 'NotificationEmails1763800000026';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    const precise = mysql ? 3 : undefined;
    await q.createTable(
      new Table({
        name: 'notification_emails',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'kind', type: 'varchar', length: '40' },
          { name: 'source_key', type: 'varchar', length: '80' },
          { name: 'title', type: 'varchar', length: '300' },
          { name: 'body', type: 'varchar', length: '2000' },
          { name: 'link', type: 'varchar', length: '500', isNullable: true },
          // immediate: one e-mail; digest: collected into the user's next digest (daily, or past the rate limit).
          { name: 'mode', type: 'varchar', length: '10' },
          // queued, sending (claimed before the SMTP call), sent, failed, unknown (the sender stopped mid-call).
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'due_at', type: 'datetime', precision: precise },
          // The digest (or single e-mail) that claimed it.
          { name: 'batch_key', type: 'varchar', length: '80', isNullable: true },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'created_at', type: 'datetime', precision: precise },
          { name: 'sent_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_notification_emails_source_user', columnNames: ['source_key', 'user_id'], isUnique: true }),
          new TableIndex({ name: 'ix_notification_emails_due', columnNames: ['status', 'mode', 'due_at'] }),
          new TableIndex({ name: 'ix_notification_emails_user', columnNames: ['user_id', 'mode', 'created_at'] }),
          new TableIndex({ name: 'ix_notification_emails_batch', columnNames: ['batch_key'] }),
        ],
        foreignKeys: [userForeignKey('notification_emails')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_user_settings',
        columns: [
          { name: 'user_id', type: 'integer', isPrimary: true },
          { name: 'digest_hour', type: 'integer', isNullable: true },
          { name: 'time_zone', type: 'varchar', length: '64', isNullable: true },
        ],
        foreignKeys: [userForeignKey('notification_user_settings')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'notification_templates',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'kind', type: 'varchar', length: '40' },
          { name: 'lang', type: 'varchar', length: '10' },
          { name: 'subject', type: 'varchar', length: '500' },
          { name: 'html', type: 'text' },
          { name: 'text', type: 'text' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_notification_templates_kind_lang', columnNames: ['kind', 'lang'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('notification_templates');
    await q.dropTable('notification_user_settings');
    await q.dropTable('notification_emails');
  }
}
