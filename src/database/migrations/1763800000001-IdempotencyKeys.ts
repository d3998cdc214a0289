import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Stored responses of requests made with an Idempotency-Key header (docs/api/decisions.md §12). */
export class IdempotencyKeys1763800000001 implements MigrationInterface {
  name = 'IdempotencyKeys1763800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'user_id', type: 'integer' },
          { name: 'idem_key', type: 'varchar', length: '200' },
          { name: 'request_hash', type: 'varchar', length: '64' },
          { name: 'state', type: 'varchar', length: '12' },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'expires_at', type: 'datetime' },
        ],
        indices: [
          new TableIndex({ name: 'uq_idempotency_keys_user_key', columnNames: ['user_id', 'idem_key'], isUnique: true }),
          new TableIndex({ name: 'ix_idempotency_keys_expires', columnNames: ['expires_at'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_idempotency_keys_user',
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
    await q.dropTable('idempotency_keys');
  }
}
