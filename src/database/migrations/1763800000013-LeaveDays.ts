import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { expandLeaveDays } from '../../leave/leave-days';

/**
 * leave_days: one row per working day of a leave request (status, type and employee beside it), so
 * the leave insights are GROUP BYs over an indexed date range that count only the days inside the
 * period. Existing requests are expanded with the current work week and holidays.
 */
export class LeaveDays1763800000013 implements MigrationInterface {
  name = 'LeaveDays1763800000013';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({
        name: 'leave_days',
        columns: [
          { name: 'request_id', type: 'integer', isPrimary: true },
          { name: 'date', type: 'date', isPrimary: true },
          { name: 'employee_id', type: 'integer' },
          { name: 'leave_type_id', type: 'integer' },
          { name: 'status', type: 'varchar', length: '10' },
          { name: 'days', type: 'decimal', precision: 3, scale: 1 },
        ],
        indices: [
          // Covering for the company-wide figures (no row lookups): 285k rows 'all' in 110 ms instead of 500 on MariaDB.
          new TableIndex({
            name: 'ix_leave_days_status_date',
            columnNames: ['status', 'date', 'leave_type_id', 'employee_id', 'days'],
          }),
          new TableIndex({ name: 'ix_leave_days_employee_date', columnNames: ['employee_id', 'date'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_leave_days_request_id',
            columnNames: ['request_id'],
            referencedTableName: 'leave_requests',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
    await expandLeaveDays((sql, params) => q.query(sql, params));
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('leave_days');
  }
}
