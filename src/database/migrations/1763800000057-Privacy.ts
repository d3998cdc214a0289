import { MigrationInterface, QueryRunner, Table, TableForeignKey } from 'typeorm';

/**
 * Issue 69 (docs/api/privacy.md), its first part: an employee's legal hold and when it was
 * anonymised, kept by the privacy module beside the employee.
 */
export class Privacy1763800000057 implements MigrationInterface {
  name = 'Privacy1763800000057';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'employee_privacy',
        columns: [
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'legal_hold', type: 'boolean', default: false },
          { name: 'anonymised_at', type: 'datetime', isNullable: true },
          { name: 'updated_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_employee_privacy_employee',
            columnNames: ['employee_id'],
            referencedTableName: 'employees',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('employee_privacy');
  }
}
