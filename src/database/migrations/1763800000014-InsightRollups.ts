import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndex } from 'typeorm';
import { ATTENDANCE_DAYS } from '../../attendance/attendance-days';
import { TIME_ENTRY_DAYS } from '../../timesheets/time-entry-days';

const key: TableColumnOptions[] = [
  { name: 'day', type: 'date', isPrimary: true },
  { name: 'department_id', type: 'integer', isPrimary: true },
];
const sum = (name: string): TableColumnOptions => ({ name, type: 'bigint', default: 0 });

/**
 * attendance_days and time_entry_days: per-day, per-department sums (DayRollup), so the company
 * and department insights over years read thousands of rows instead of millions. Filled from the
 * existing records. And an index for counting who has time entries in a period.
 */
export class InsightRollups1763800000014 implements MigrationInterface {
  name = 'InsightRollups1763800000014';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({ name: 'attendance_days', columns: [...key, ...['records', 'seconds', 'completed', 'wfh'].map(sum)] }),
    );
    await q.createTable(new Table({ name: 'time_entry_days', columns: [...key, sum('entries'), sum('minutes')] }));
    // Who has counted time entries in a period: a loose index scan, one seek per employee and status.
    await q.createIndex(
      'time_entries',
      new TableIndex({ name: 'ix_time_entries_employee_status_date', columnNames: ['employee_id', 'status', 'date'] }),
    );
    const query = (sql: string, params?: unknown[]) => q.query(sql, params);
    await ATTENDANCE_DAYS.rebuild(query);
    await TIME_ENTRY_DAYS.rebuild(query);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('time_entries', 'ix_time_entries_employee_status_date');
    await q.dropTable('time_entry_days');
    await q.dropTable('attendance_days');
  }
}
