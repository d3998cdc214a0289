import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Webhook subscriptions, the transactional outbox of their events, and the delivery attempts. */
export class Webhooks1763800000018 implements MigrationInterface {
  name = 'Webhooks1763800000018';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    const instant = { type: 'datetime', precision: mysql ? 3 : undefined } as const;
    await q.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'url', type: 'varchar', length: '2000' },
          { name: 'events', type: 'text' },
          { name: 'active', type: 'boolean' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
          { name: 'secret', type: 'varchar', length: '100' },
          { name: 'failing_since', type: 'datetime', isNullable: true },
          { name: 'disabled_reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_outbox',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'event', type: 'varchar', length: '50' },
          { name: 'payload', type: mysql ? 'mediumtext' : 'text' },
          { name: 'created_at', ...instant },
          { name: 'dispatched_at', ...instant, isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_webhook_outbox_event_id', columnNames: ['event_id'], isUnique: true }),
          // The dispatcher's scan: undispatched events in order.
          new TableIndex({ name: 'ix_webhook_outbox_pending', columnNames: ['dispatched_at', 'id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'webhook_id', type: 'integer' },
          { name: 'event_id', type: 'varchar', length: '36' },
          { name: 'event', type: 'varchar', length: '50' },
          { name: 'attempt', type: 'integer' },
          { name: 'status_code', type: 'integer', isNullable: true },
          { name: 'duration_ms', type: 'integer' },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'delivered', type: 'boolean' },
          { name: 'at', ...instant },
        ],
        indices: [
          new TableIndex({ name: 'ix_webhook_deliveries_webhook', columnNames: ['webhook_id', 'id'] }),
          new TableIndex({ name: 'ix_webhook_deliveries_event', columnNames: ['event_id', 'webhook_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_webhook_deliveries_webhook_id',
            columnNames: ['webhook_id'],
            referencedTableName: 'webhooks',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('webhook_deliveries');
    await q.dropTable('webhook_outbox');
    await q.dropTable('webhooks');
  }
}
