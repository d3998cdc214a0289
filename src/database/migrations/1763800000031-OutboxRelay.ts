import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/**
 * Issue 42: one relay reads the outbox and hands each event to every subscriber, each with its own
 * durable cursor, in place of the webhooks' `dispatched_at` and the notifications' `notified_at`.
 * The table is renamed `outbox_events` (it holds every module's events, not only webhooks'); `seq`
 * is the order in which the relay saw each event committed (see common/outbox/outbox-relay.ts).
 */
export class OutboxRelay1763800000031 implements MigrationInterface {
  name = 'OutboxRelay1763800000031';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.dropIndex('webhook_outbox', 'ix_webhook_outbox_pending');
    await q.dropIndex('webhook_outbox', 'ix_webhook_outbox_unnotified');
    await q.dropIndex('webhook_outbox', 'uq_webhook_outbox_event_id');
    await q.query('ALTER TABLE webhook_outbox RENAME TO outbox_events');
    await q.addColumn('outbox_events', new TableColumn({ name: 'seq', type: 'bigint', isNullable: true }));
    // Every event already there was committed: its sequence is its id.
    await q.query('UPDATE outbox_events SET seq = id');
    const number = async (sql: string): Promise<number | null> => {
      const rows = (await q.query(sql)) as Array<{ n: number | string | null }>;
      return rows[0]?.n == null ? null : Number(rows[0].n);
    };
    const all = (await number('SELECT MAX(id) AS n FROM outbox_events')) ?? 0;
    // Each subscriber goes on after the last event it handled in order: the first one it has not, less one.
    const webhooks = ((await number('SELECT MIN(id) AS n FROM outbox_events WHERE dispatched_at IS NULL')) ?? all + 1) - 1;
    const notifications = ((await number('SELECT MIN(id) AS n FROM outbox_events WHERE notified_at IS NULL')) ?? all + 1) - 1;
    await q.dropColumn('outbox_events', 'dispatched_at');
    await q.dropColumn('outbox_events', 'notified_at');
    await q.createIndices('outbox_events', [
      new TableIndex({ name: 'uq_outbox_events_event_id', columnNames: ['event_id'], isUnique: true }),
      // The relay's scans: the events it has not sequenced yet (NULL), and those after a cursor.
      new TableIndex({ name: 'uq_outbox_events_seq', columnNames: ['seq'], isUnique: true }),
    ]);

    await q.createTable(
      new Table({
        name: 'outbox_cursors',
        columns: [
          { name: 'subscriber', type: 'varchar', length: '50', isPrimary: true },
          { name: 'last_seq', type: 'bigint', default: 0 },
          { name: 'failures', type: 'integer', default: 0 },
          { name: 'last_error', type: 'varchar', length: '500', isNullable: true },
          { name: 'updated_at', type: 'datetime', precision: mysql ? 3 : undefined, isNullable: true },
        ],
      }),
    );
    // '$sequence' holds the last sequence given; tasks start from now (their reactions ran in process until now).
    await q.query(
      'INSERT INTO outbox_cursors (subscriber, last_seq, failures) VALUES (?, ?, 0), (?, ?, 0), (?, ?, 0), (?, ?, 0)',
      ['$sequence', all, 'webhooks', webhooks, 'notifications', notifications, 'tasks', all],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    const instant = { type: 'datetime', precision: mysql ? 3 : undefined, isNullable: true } as const;
    await q.dropTable('outbox_cursors');
    await q.dropIndex('outbox_events', 'uq_outbox_events_seq');
    await q.dropIndex('outbox_events', 'uq_outbox_events_event_id');
    await q.dropColumn('outbox_events', 'seq');
    await q.addColumns('outbox_events', [
      new TableColumn({ name: 'dispatched_at', ...instant }),
      new TableColumn({ name: 'notified_at', ...instant }),
    ]);
    await q.query('UPDATE outbox_events SET dispatched_at = CURRENT_TIMESTAMP, notified_at = CURRENT_TIMESTAMP');
    await q.query('ALTER TABLE outbox_events RENAME TO webhook_outbox');
    await q.createIndices('webhook_outbox', [
      new TableIndex({ name: 'uq_webhook_outbox_event_id', columnNames: ['event_id'], isUnique: true }),
      new TableIndex({ name: 'ix_webhook_outbox_pending', columnNames: ['dispatched_at', 'id'] }),
      new TableIndex({ name: 'ix_webhook_outbox_unnotified', columnNames: ['notified_at', 'id'] }),
    ]);
  }
}
