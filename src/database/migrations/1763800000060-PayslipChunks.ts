import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * Issue 70 (docs/api/payroll.md, "Payslips in chunks"): a claim to generate a payroll's payslips is
 * cut into chunks of PAYSLIP_CHUNK_SIZE employees, one job each, which any worker takes; one row per
 * chunk says whether it is written and which of its payslips could not be made.
 */
export class PayslipChunks1763800000060 implements MigrationInterface {
  name = 'PayslipChunks1763800000060';

  async up(q: QueryRunner): Promise<void> {
    const mysql = q.connection.options.type === 'mysql';
    await q.createTable(
      new Table({
        name: 'payslip_chunks',
        columns: [
          { name: 'payroll_id', type: 'integer', isPrimary: true },
          { name: 'claim', type: 'varchar', length: '36', isPrimary: true },
          { name: 'chunk', type: 'integer', isPrimary: true },
          { name: 'employees', type: 'text' },
          { name: 'size', type: 'integer' },
          { name: 'status', type: 'varchar', length: '8' },
          // Up to PAYSLIP_CHUNK_SIZE messages of up to 500 characters: past TEXT's 64 KiB on MariaDB.
          { name: 'failures', type: mysql ? 'mediumtext' : 'text' },
        ],
        // A deleted payroll takes its chunks along.
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payslip_chunks_payroll_id',
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
    await q.dropTable('payslip_chunks');
  }
}
