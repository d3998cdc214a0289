import { MigrationInterface, QueryRunner, Table, TableIndex } from 'typeorm';

/** Payroll tests (issue 32): an employee's inputs and the amounts the columns must give them, run before a column is saved. */
export class PayrollTests1763800000028 implements MigrationInterface {
  name = 'PayrollTests1763800000028';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'payroll_tests',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'name', type: 'varchar', length: '100' },
          // JSON: {salary: {component id: amount}, hooks: {hook code: value}, fields: {field: number}}.
          { name: 'employee', type: 'text' },
          // JSON: {column variable: amount}.
          { name: 'expected', type: 'text' },
        ],
        indices: [new TableIndex({ name: 'uq_payroll_tests_name', columnNames: ['name'], isUnique: true })],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('payroll_tests');
  }
}
