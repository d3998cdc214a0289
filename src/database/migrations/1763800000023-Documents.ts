import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const fk = (table: string, column: string, target: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL') =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: target,
    referencedColumnNames: ['id'],
    onDelete,
  });

const FILE_COLUMNS = [
  { name: 'file_key', type: 'varchar', length: '64' },
  { name: 'file_name', type: 'varchar', length: '255' },
  { name: 'content_type', type: 'varchar', length: '100' },
  { name: 'size', type: 'integer' },
  { name: 'sha256', type: 'varchar', length: '64' },
  { name: 'valid_from', type: 'date', isNullable: true },
  { name: 'valid_until', type: 'date', isNullable: true },
  { name: 'uploaded_by', type: 'integer', isNullable: true },
];

/** Employee documents, their versions, the reminders made, and files waiting to be removed (issue 28). */
export class Documents1763800000023 implements MigrationInterface {
  name = 'Documents1763800000023';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'documents',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'employee_id', type: 'integer' },
          { name: 'document_type_id', type: 'integer' },
          { name: 'name', type: 'varchar', length: '200' },
          ...FILE_COLUMNS,
          { name: 'status', type: 'varchar', length: '16' },
          { name: 'version', type: 'integer' },
          { name: 'notes', type: 'text', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime' },
        ],
        indices: [
          // An employee's documents; with status and date, a Restricted Admin's "what is expiring"
          // counts from the index alone (its employees' Expiring entries, not their every document).
          new TableIndex({ name: 'ix_documents_employee', columnNames: ['employee_id', 'status', 'valid_until'] }),
          // "What expires this quarter" and the daily expiry scan: status, then the date.
          new TableIndex({ name: 'ix_documents_status_until', columnNames: ['status', 'valid_until'] }),
          new TableIndex({ name: 'ix_documents_type', columnNames: ['document_type_id', 'id'] }),
        ],
        foreignKeys: [
          fk('documents', 'employee_id', 'employees', 'CASCADE'),
          fk('documents', 'document_type_id', 'document_types', 'RESTRICT'),
          fk('documents', 'uploaded_by', 'users', 'SET NULL'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'document_versions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'document_id', type: 'integer' },
          { name: 'version', type: 'integer' },
          ...FILE_COLUMNS,
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_document_versions', columnNames: ['document_id', 'version'], isUnique: true })],
        foreignKeys: [
          fk('document_versions', 'document_id', 'documents', 'CASCADE'),
          fk('document_versions', 'uploaded_by', 'users', 'SET NULL'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'document_reminders',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'document_id', type: 'integer' },
          { name: 'version', type: 'integer' },
          { name: 'mark', type: 'integer' },
          { name: 'run', type: 'varchar', length: '36' },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'uq_document_reminders', columnNames: ['document_id', 'version', 'mark'], isUnique: true }),
          new TableIndex({ name: 'ix_document_reminders_run', columnNames: ['run'] }),
        ],
        foreignKeys: [fk('document_reminders', 'document_id', 'documents', 'CASCADE')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'document_file_removals',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'file_key', type: 'varchar', length: '64' },
          { name: 'attempts', type: 'integer', default: 0 },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('document_file_removals');
    await q.dropTable('document_reminders');
    await q.dropTable('document_versions');
    await q.dropTable('documents');
  }
}
