import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

const id = { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' as const };
const fk = (table: string, column: string, target: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL') =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: target,
    referencedColumnNames: ['id'],
    onDelete,
  });

/** Payroll configuration (docs/api/decisions.md §10): pay frequencies (seeded), deduction groups, salary components, employee salaries, payroll employees, columns. */
export class PayrollConfig1763800000008 implements MigrationInterface {
  name = 'PayrollConfig1763800000008';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'pay_frequencies',
        columns: [id, { name: 'name', type: 'varchar', length: '30' }],
        indices: [new TableIndex({ name: 'uq_pay_frequencies_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    for (const name of ['Weekly', 'Bi Weekly', 'Semi Monthly', 'Monthly', 'Yearly']) {
      await q.query('INSERT INTO pay_frequencies (name) VALUES (?)', [name]);
    }
    await q.createTable(
      new Table({
        name: 'deduction_groups',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'description', type: 'varchar', length: '500', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'uq_deduction_groups_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'salary_components',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'component_type', type: 'varchar', length: '20' },
          { name: 'details', type: 'varchar', length: '500', isNullable: true },
        ],
        indices: [new TableIndex({ name: 'uq_salary_components_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'employee_salaries',
        columns: [
          { name: 'employee_id', type: 'integer', isPrimary: true },
          { name: 'component_id', type: 'integer', isPrimary: true },
          { name: 'amount', type: 'decimal', precision: 14, scale: 3 },
        ],
        indices: [new TableIndex({ name: 'ix_employee_salaries_component', columnNames: ['component_id'] })],
        foreignKeys: [
          fk('employee_salaries', 'employee_id', 'employees', 'CASCADE'),
          fk('employee_salaries', 'component_id', 'salary_components', 'RESTRICT'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_employees',
        columns: [
          id,
          { name: 'employee_id', type: 'integer' },
          { name: 'pay_frequency_id', type: 'integer' },
          { name: 'currency', type: 'varchar', length: '3' },
          { name: 'deduction_group_id', type: 'integer', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_payroll_employees_employee', columnNames: ['employee_id'], isUnique: true }),
          new TableIndex({ name: 'ix_payroll_employees_group', columnNames: ['deduction_group_id'] }),
        ],
        foreignKeys: [
          fk('payroll_employees', 'employee_id', 'employees', 'CASCADE'),
          fk('payroll_employees', 'pay_frequency_id', 'pay_frequencies', 'RESTRICT'),
          fk('payroll_employees', 'deduction_group_id', 'deduction_groups', 'RESTRICT'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_columns',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'variable', type: 'varchar', length: '64' },
          { name: 'colorder', type: 'integer' },
          { name: 'enabled', type: 'boolean', default: true },
          { name: 'editable', type: 'boolean', default: false },
          { name: 'default_value', type: 'decimal', precision: 14, scale: 3, isNullable: true },
          { name: 'salary_components', type: 'text' },
          { name: 'add_columns', type: 'text' },
          { name: 'sub_columns', type: 'text' },
          { name: 'calculation_hook', type: 'varchar', length: '40', isNullable: true },
          { name: 'calculation_hook_args', type: 'text' },
          { name: 'script', type: 'text', isNullable: true },
          { name: 'deduction_group_id', type: 'integer', isNullable: true },
        ],
        indices: [
          new TableIndex({ name: 'uq_payroll_columns_variable', columnNames: ['variable'], isUnique: true }),
          new TableIndex({ name: 'ix_payroll_columns_colorder', columnNames: ['colorder'] }),
        ],
        foreignKeys: [fk('payroll_columns', 'deduction_group_id', 'deduction_groups', 'RESTRICT')],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'payroll_columns',
      'payroll_employees',
      'employee_salaries',
      'salary_components',
      'deduction_groups',
      'pay_frequencies',
    ]) {
      await q.dropTable(t);
    }
  }
}
