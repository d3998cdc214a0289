import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/**
 * The audit log: one row per change, written in the change's transaction. No foreign keys: the
 * record of a deleted employee or user must outlive it. Indexed for the lists' filters, newest first.
 */
export class AuditLog1763800000017 implements MigrationInterface {
  name = 'AuditLog1763800000017';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'audit_log',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'at', type: 'datetime', precision: mysql ? 3 : undefined },
          { name: 'actor_user_id', type: 'integer', isNullable: true },
          { name: 'actor', type: 'varchar', length: '20' },
          { name: 'action', type: 'varchar', length: '30' },
          { name: 'resource', type: 'varchar', length: '60' },
          { name: 'resource_id', type: 'varchar', length: '100' },
          { name: 'employee_id', type: 'integer', isNullable: true },
          // MariaDB's TEXT holds 64 KiB; a payroll column's script or a template can be longer.
          { name: 'changes', type: mysql ? 'mediumtext' : 'text' },
          { name: 'request_id', type: 'varchar', length: '128', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'ix_audit_log_at', columnNames: ['at'] }),
          new TableIndex({ name: 'ix_audit_log_employee', columnNames: ['employee_id', 'id'] }),
          new TableIndex({ name: 'ix_audit_log_resource', columnNames: ['resource', 'resource_id', 'id'] }),
          new TableIndex({ name: 'ix_audit_log_actor', columnNames: ['actor', 'id'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('audit_log');
  }
}
