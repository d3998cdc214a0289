import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableForeignKey, TableIndex } from 'typeorm';

const id: TableColumnOptions = {
  name: 'id',
  type: 'integer',
  isPrimary: true,
  isGenerated: true,
  generationStrategy: 'increment',
};
const days = (name: string, nullable = false): TableColumnOptions => ({
  name,
  type: 'decimal',
  precision: 6,
  scale: 1,
  isNullable: nullable,
});
const fk = (table: string, column: string, ref: string, onDelete: 'CASCADE' | 'RESTRICT' | 'SET NULL') =>
  new TableForeignKey({
    name: `fk_${table}_${column}`,
    columnNames: [column],
    referencedTableName: ref,
    referencedColumnNames: ['id'],
    onDelete,
  });

/** Leave types, periods, holidays, entitlements and requests. */
export class Leave1763800000005 implements MigrationInterface {
  name = 'Leave1763800000005';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'leave_types',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          days('default_days'),
          { name: 'color', type: 'varchar', length: '7', isNullable: true },
          { name: 'allow_negative', type: 'boolean', default: false },
        ],
        indices: [new TableIndex({ name: 'uq_leave_types_name', columnNames: ['name'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_periods',
        columns: [
          id,
          { name: 'name', type: 'varchar', length: '100' },
          { name: 'date_start', type: 'date' },
          { name: 'date_end', type: 'date' },
        ],
        indices: [
          new TableIndex({ name: 'uq_leave_periods_name', columnNames: ['name'], isUnique: true }),
          new TableIndex({ name: 'ix_leave_periods_dates', columnNames: ['date_start', 'date_end'] }),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'holidays',
        columns: [id, { name: 'name', type: 'varchar', length: '100' }, { name: 'date', type: 'date' }],
        indices: [new TableIndex({ name: 'uq_holidays_date', columnNames: ['date'], isUnique: true })],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_entitlements',
        columns: [
          id,
          { name: 'employee_id', type: 'integer' },
          { name: 'leave_type_id', type: 'integer' },
          { name: 'leave_period_id', type: 'integer' },
          days('days'),
        ],
        indices: [
          new TableIndex({
            name: 'uq_leave_entitlements_employee_type_period',
            columnNames: ['employee_id', 'leave_type_id', 'leave_period_id'],
            isUnique: true,
          }),
          new TableIndex({ name: 'ix_leave_entitlements_type', columnNames: ['leave_type_id'] }),
          new TableIndex({ name: 'ix_leave_entitlements_period', columnNames: ['leave_period_id'] }),
        ],
        foreignKeys: [
          fk('leave_entitlements', 'employee_id', 'employees', 'CASCADE'),
          fk('leave_entitlements', 'leave_type_id', 'leave_types', 'RESTRICT'),
          fk('leave_entitlements', 'leave_period_id', 'leave_periods', 'RESTRICT'),
        ],
      }),
    );
    await q.createTable(
      new Table({
        name: 'leave_requests',
        columns: [
          id,
          { name: 'employee_id', type: 'integer' },
          { name: 'leave_type_id', type: 'integer' },
          { name: 'date_start', type: 'date' },
          { name: 'date_end', type: 'date' },
          { name: 'half_day', type: 'boolean', default: false },
          days('days'),
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'reason', type: 'varchar', length: '500', isNullable: true },
          { name: 'approver_id', type: 'integer', isNullable: true },
          { name: 'decided_by', type: 'integer', isNullable: true },
          { name: 'decided_at', type: 'datetime', isNullable: true },
          { name: 'created_at', type: 'datetime', default: 'CURRENT_TIMESTAMP' },
        ],
        indices: [
          new TableIndex({ name: 'ix_leave_requests_employee_date', columnNames: ['employee_id', 'date_start'] }),
          new TableIndex({ name: 'ix_leave_requests_date_start', columnNames: ['date_start'] }),
          new TableIndex({ name: 'ix_leave_requests_type', columnNames: ['leave_type_id'] }),
          new TableIndex({ name: 'ix_leave_requests_status', columnNames: ['status'] }),
          new TableIndex({ name: 'ix_leave_requests_approver', columnNames: ['approver_id'] }),
        ],
        foreignKeys: [
          fk('leave_requests', 'employee_id', 'employees', 'CASCADE'),
          fk('leave_requests', 'leave_type_id', 'leave_types', 'RESTRICT'),
          fk('leave_requests', 'approver_id', 'employees', 'SET NULL'),
          fk('leave_requests', 'decided_by', 'users', 'SET NULL'),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['leave_requests', 'leave_entitlements', 'holidays', 'leave_periods', 'leave_types']) await q.dropTable(t);
  }
}
