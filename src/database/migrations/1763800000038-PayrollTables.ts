import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Issue 44: payroll tables (docs/api/decisions.md §20), tax brackets and lookups in dated versions that formulas
 * read with bracket(), band() and lookup(); a run keeps the versions it read (payrolls.table_versions),
 * so a version a Processed or Completed run used cannot change (409 IN_USE). And processed_at to
 * the millisecond on MariaDB, for arrears.
 */
export class PayrollTables1763800000038 implements MigrationInterface {
  name = 'PayrollTables1763800000038';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'payroll_tables',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'kind', type: 'varchar', length: '10' },
        ],
        indices: [new TableIndex({ name: 'uq_payroll_tables_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_table_versions',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'table_id', type: 'integer' },
          { name: 'effective_from', type: 'date' },
          { name: 'rows', type: 'text' },
        ],
        indices: [
          new TableIndex({ name: 'uq_payroll_table_versions_day', columnNames: ['table_id', 'effective_from'], isUnique: true }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_table_versions_table_id',
            columnNames: ['table_id'],
            referencedTableName: 'payroll_tables',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.query('ALTER TABLE payrolls ADD COLUMN table_versions text NULL');
    // Arrears compare it with when changes were recorded (milliseconds): SQLite keeps them already.
    if (q.connection.options.type !== 'better-sqlite3')
      await q.query('ALTER TABLE payrolls MODIFY processed_at datetime(3) NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    if (q.connection.options.type !== 'better-sqlite3') await q.query('ALTER TABLE payrolls MODIFY processed_at datetime NULL');
    await q.query('ALTER TABLE payrolls DROP COLUMN table_versions');
    await q.dropTable('payroll_table_versions');
    await q.dropTable('payroll_tables');
  }
}
