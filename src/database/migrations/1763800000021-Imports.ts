import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Imports of CSV and XLSX files and their rows' errors (issue 27). */
export class Imports1763800000021 implements MigrationInterface {
  name = 'Imports1763800000021';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'imports',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'kind', type: 'varchar', length: '40' },
          { name: 'file_name', type: 'varchar', length: '255' },
          { name: 'format', type: 'varchar', length: '4' },
          { name: 'file_key', type: 'varchar', length: '64', isNullable: true },
          { name: 'file_bytes', type: 'integer', isNullable: true },
          { name: 'dry_run', type: 'boolean' },
          { name: 'mode', type: 'varchar', length: '20' },
          { name: 'status', type: 'varchar', length: '20' },
          { name: 'payroll_id', type: 'integer', isNullable: true },
          { name: 'rows_total', type: 'integer', default: 0 },
          { name: 'rows_valid', type: 'integer', default: 0 },
          { name: 'rows_failed', type: 'integer', default: 0 },
          { name: 'rows_done', type: 'integer', default: 0 },
          { name: 'progress', type: 'integer', default: 0 },
          { name: 'error', type: 'varchar', length: '500', isNullable: true },
          { name: 'claim', type: 'varchar', length: '36', isNullable: true },
          { name: 'created_by', type: 'integer' },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime' },
          { name: 'finished_at', type: 'datetime', isNullable: true },
        ],
        indices: [
          // The recovery's scan: imports still in a job's state.
          new TableIndex({ name: 'ix_imports_status', columnNames: ['status', 'updated_at'] }),
          new TableIndex({ name: 'ix_imports_created_by', columnNames: ['created_by', 'id'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'import_errors',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'import_id', type: 'integer' },
          { name: 'row', type: 'integer' },
          { name: 'column', type: 'varchar', length: '255', isNullable: true },
          { name: 'field', type: 'varchar', length: '100', isNullable: true },
          { name: 'message', type: 'varchar', length: '1000' },
        ],
        indices: [new TableIndex({ name: 'ix_import_errors_import', columnNames: ['import_id', 'row', 'id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_import_errors_import_id',
            columnNames: ['import_id'],
            referencedTableName: 'imports',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('import_errors');
    await q.dropTable('imports');
  }
}
