import { MigrationInterface, QueryRunner, Table, TableColumn, TableForeignKey, TableIndex } from 'typeorm';

/**
 * What a payroll run computed from (issue 32): each employee's inputs (salary amounts, payroll-
 * employee settings, formula fields, hook values with the ids of their records), and the column
 * definitions as a snapshot shared by every run processed with the same ones (`payrolls.column_set_id`).
 * A processing writes its inputs under a new revision while the engine computes, and the cells'
 * transaction makes that revision the payroll's (`inputs_revision`); older revisions are removed after.
 * Runs processed before this migration have none (their explanation asks for processing again).
 */
export class PayrollRunInputs1763800000029 implements MigrationInterface {
  name = 'PayrollRunInputs1763800000029';

  async up(q: QueryRunner): Promise<void> {
    const json = q.connection.options.type === 'mysql' ? 'mediumtext' : 'text';
    await q.createTable(
      new Table({
        name: 'payroll_column_sets',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'hash', type: 'varchar', length: '64' },
          { name: 'columns', type: json },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [new TableIndex({ name: 'uq_payroll_column_sets_hash', columnNames: ['hash'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'payroll_run_inputs',
        columns: [
          { name: 'payroll_id', type: 'integer', isPrimary: true },
          // The processing that wrote them (payrolls.inputs_revision names the current one).
          { name: 'revision', type: 'integer', isPrimary: true },
          { name: 'employee_id', type: 'integer', isPrimary: true },
          // JSON: EmployeeInputs (src/payroll/runs/run-inputs.ts).
          { name: 'inputs', type: json },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_payroll_run_inputs_payroll_id',
            columnNames: ['payroll_id'],
            referencedTableName: 'payrolls',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await q.addColumns('payrolls', [
      new TableColumn({ name: 'column_set_id', type: 'integer', isNullable: true }),
      new TableColumn({ name: 'inputs_revision', type: 'integer', isNullable: true }),
      // Bumped by every change of the cells (processing, edits): what a diff's cache is keyed on.
      new TableColumn({ name: 'revision', type: 'integer', default: 0 }),
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['revision', 'inputs_revision', 'column_set_id']) await q.dropColumn('payrolls', column);
    await q.dropTable('payroll_run_inputs');
    await q.dropTable('payroll_column_sets');
  }
}
