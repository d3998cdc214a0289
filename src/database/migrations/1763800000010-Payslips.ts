import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Payslip templates (Handlebars HTML) and the payslips a completed payroll keeps. */
export class Payslips1763800000010 implements MigrationInterface {
  name = 'Payslips1763800000010';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'payslip_templates',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'content', type: 'text' },
        ],
        indices: [new TableIndex({ name: 'uq_payslip_templates_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payslips',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'payroll_id', type: 'integer' },
          { name: 'employee_id', type: 'integer' },
          { name: 'html', type: 'text' },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'uq_payslips_payroll_employee', columnNames: ['payroll_id', 'employee_id'], isUnique: true }),
          new TableIndex({ name: 'ix_payslips_employee', columnNames: ['employee_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payslips_payroll_id',
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
    await q.dropTable('payslips');
    await q.dropTable('payslip_templates');
  }
}
