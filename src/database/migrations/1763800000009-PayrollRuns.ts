import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Payroll runs (docs/api/decisions.md §10): payrolls, their computed cells and per-cell errors. */
export class PayrollRuns1763800000009 implements MigrationInterface {
  name = 'PayrollRuns1763800000009';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'payrolls',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'pay_period', type: 'integer' },
          { name: 'department_id', type: 'integer' },
          { name: 'deduction_group_id', type: 'integer', isNullable: true },
          { name: 'date_start', type: 'date' },
          { name: 'date_end', type: 'date' },
          { name: 'columns', type: 'text' },
          { name: 'payslip_template_id', type: 'integer', isNullable: true },
          { name: 'status', type: 'varchar', length: '12' },
          { name: 'progress', type: 'integer', default: 0 },
          { name: 'error', type: 'varchar', length: '1000', isNullable: true },
          { name: 'processing_started_at', type: 'datetime', isNullable: true },
          { name: 'processed_at', type: 'datetime', isNullable: true },
          { name: 'completed_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'ix_payrolls_status', columnNames: ['status'] }),
          new TableIndex({ name: 'ix_payrolls_department', columnNames: ['department_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payrolls_pay_period',
            columnNames: ['pay_period'],
            referencedTableName: 'pay_frequencies',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
          new TableForeignKey({
            name: 'fk_payrolls_department_id',
            columnNames: ['department_id'],
            referencedTableName: 'departments',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
          new TableForeignKey({
            name: 'fk_payrolls_deduction_group_id',
            columnNames: ['deduction_group_id'],
            referencedTableName: 'deduction_groups',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
          }),
        ],
      }),
    );
    // Cells keep their employee id without a foreign key: payroll history survives the employee (docs/api/decisions.md §7).
    await q.createTable(
      new Table({
        name: 'payroll_cells',
        columns: [
          { name: 'payroll_id', type: 'integer', isPrimary: true },
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'column_id', type: 'integer', isPrimary: true },
          { name: 'value', type: 'decimal', precision: 14, scale: 3, isNullable: true },
          { name: 'edited', type: 'boolean', default: false },
        ],
        indices: [new TableIndex({ name: 'ix_payroll_cells_column', columnNames: ['column_id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_cells_payroll_id',
            columnNames: ['payroll_id'],
            referencedTableName: 'payrolls',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_errors',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'payroll_id', type: 'integer' },
          { name: 'employee_id', type: 'integer', isNullable: true },
          { name: 'column_id', type: 'integer', isNullable: true },
          { name: 'message', type: 'varchar', length: '500' },
        ],
        indices: [new TableIndex({ name: 'ix_payroll_errors_payroll', columnNames: ['payroll_id'] })],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_errors_payroll_id',
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
    await q.dropTable('payroll_errors');
    await q.dropTable('payroll_cells');
    await q.dropTable('payrolls');
  }
}
