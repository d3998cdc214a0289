import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Hardening IV item 19 (docs/api/payroll.md, "Bank files"): a bank file is made by a POST and kept
 * as a record with its bytes in the file store; the same revision and parameters give the same
 * record (the unique index), so a file is never made twice for one payment.
 */
export class PayrollBankFiles1763800000046 implements MigrationInterface {
  name = 'PayrollBankFiles1763800000046';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'payroll_bank_files',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'payroll_id', type: 'integer' },
          { name: 'revision', type: 'integer' },
          { name: 'format', type: 'varchar', length: '20' },
          { name: 'execution_date', type: 'varchar', length: '10' },
          { name: 'skip_missing', type: 'boolean', default: false },
          { name: 'msg_id', type: 'varchar', length: '35' },
          { name: 'sha256', type: 'varchar', length: '64' },
          { name: 'transactions', type: 'integer' },
          { name: 'total', type: 'varchar', length: '40' },
          { name: 'storage_key', type: 'varchar', length: '64' },
          { name: 'size', type: 'integer' },
          { name: 'created_by', type: 'integer', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({
            name: 'uq_payroll_bank_files_params',
            columnNames: ['payroll_id', 'revision', 'format', 'execution_date', 'skip_missing'],
            isUnique: true,
          }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_bank_files_payroll_id',
            columnNames: ['payroll_id'],
            referencedTableName: 'payrolls',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('payroll_bank_files');
  }
}
