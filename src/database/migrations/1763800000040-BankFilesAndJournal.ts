import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const fk = (table: string, column: string, target: string) =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: target,
    referencedColumnNames: ['id'],
    onDelete: 'CASCADE',
  });

/**
 * Issue 46: paying people and posting the books (docs/api/decisions.md §22). Employees' bank accounts (one
 * primary each, kept by the service under the employee's lock), the chart of accounts a payroll
 * column posts to, and the column of a payroll that is its net pay (what the bank file pays).
 */
export class BankFilesAndJournal1763800000040 implements MigrationInterface {
  name = 'BankFilesAndJournal1763800000040';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'employee_bank_accounts',
        columns: [
          id,
          { name: 'employee_id', type: 'integer' },
          { name: 'iban', type: 'varchar', length: '34' },
          { name: 'bic', type: 'varchar', length: '11', isNullable: true },
          { name: 'holder_name', type: 'varchar', length: '140' },
          { name: 'is_primary', type: 'boolean', default: false },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'ix_employee_bank_accounts_employee', columnNames: ['employee_id', 'is_primary'] })],
        foreignKeys: [fk('employee_bank_accounts', 'employee_id', 'employees')],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_accounts',
        columns: [
          id,
          { name: 'column_id', type: 'integer' },
          { name: 'debit_account', type: 'varchar', length: '40', isNullable: true },
          { name: 'credit_account', type: 'varchar', length: '40', isNullable: true },
          { name: 'cost_centre', type: 'varchar', length: '10', default: "'none'" },
        ],
        indices: [new TableIndex({ name: 'uq_payroll_accounts_column', columnNames: ['column_id'], isUnique: true })],
        foreignKeys: [fk('payroll_accounts', 'column_id', 'payroll_columns')],
      }),
    );
    // A plain ALTER (as migration 37): on SQLite TypeORM's addColumn copies the table from its own idea of it.
    await q.query('ALTER TABLE payrolls ADD COLUMN net_column_id integer NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payrolls DROP COLUMN net_column_id');
    await q.dropTable('payroll_accounts');
    await q.dropTable('employee_bank_accounts');
  }
}
