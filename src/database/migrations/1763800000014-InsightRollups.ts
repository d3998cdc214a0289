import { MigrationInterface, QueryRunner, Table, TableColumn, TableColumnOptions, TableIndex } from 'typeorm';
import { ATTENDANCE_DAYS } from '../../attendance/attendance-days';
import { sqlDialect } from '../../common/database/sql-dialect';
import { LEAVE_DAY_SUMS } from '../../leave/leave-day-sums';
import { TIME_ENTRY_DAYS } from '../../timesheets/time-entry-days';

const key: TableColumnOptions[] = [
  { name: 'day', type: 'date', isPrimary: true },
  { name: 'department_id', type: 'integer', isPrimary: true },
];
const sum = (name: string): TableColumnOptions => ({ name, type: 'bigint', default: 0 });

/**
 * What keeps the company-wide insights within 100 ms over millions of records:
 * - attendance_days and time_entry_days: per-day, per-department sums (DayRollup), so attendance
 *   and timesheet figures over years read thousands of rows instead of millions; filled from the
 *   existing records;
 * - an index for counting who has time entries in a period (a loose index scan);
 * - leave_days marks (leaveDayMarks): the request's first day and whether a day is its first with
 *   its day of month / weekday, so requests add up over days: leave_day_sums holds them per day,
 *   department, status and type; an index finds the few requests running across a period's start.
 */
export class InsightRollups1763800000014 implements MigrationInterface {
  name = 'InsightRollups1763800000014';

  async up(q: QueryRunner): Promise<void> {
    await q.createTable(
      new Table({ name: 'attendance_days', columns: [...key, ...['records', 'seconds', 'completed', 'wfh'].map(sum)] }),
    );
    await q.createTable(new Table({ name: 'time_entry_days', columns: [...key, sum('entries'), sum('minutes')] }));
    const query = (sql: string, params?: unknown[]) => q.query(sql, params);
    await ATTENDANCE_DAYS.rebuild(query, 'employee');
    await TIME_ENTRY_DAYS.rebuild(query, 'employee');
    await q.createIndex(
      'time_entries',
      new TableIndex({ name: 'ix_time_entries_employee_status_date', columnNames: ['employee_id', 'status', 'date'] }),
    );

    await q.addColumns('leave_days', [
      new TableColumn({ name: 'first_date', type: 'date', isNullable: true }),
      new TableColumn({ name: 'first_of_dom', type: 'boolean', default: 0 }),
      new TableColumn({ name: 'first_of_weekday', type: 'boolean', default: 0 }),
    ]);
    await this.markLeaveDays(q);
    await q.createTable(
      new Table({
        name: 'leave_day_sums',
        // Status first: the figures read one status's days (or group by status) over a date range.
        columns: [
          { name: 'status', type: 'varchar', length: '10', isPrimary: true },
          ...key,
          { name: 'leave_type_id', type: 'integer', isPrimary: true },
          { name: 'days', type: 'decimal', precision: 12, scale: 1, default: 0 },
          ...['requests', 'dom_requests', 'weekday_requests'].map(sum),
        ],
      }),
    );
    await LEAVE_DAY_SUMS.rebuild(query, 'employee');
    // The requests running across a period's first day: their days are counted one by one.
    await q.createIndex(
      'leave_requests',
      new TableIndex({ name: 'ix_leave_requests_start_end', columnNames: ['date_start', 'date_end'] }),
    );
  }

  /** The marks of existing leave days, from the days themselves (one grouped statement each). */
  private async markLeaveDays(q: QueryRunner): Promise<void> {
    const sql = sqlDialect(q.connection);
    const sqlite = q.connection.options.type === 'better-sqlite3';
    const firsts = [
      { set: 'first_date = m.f', key: null },
      { set: 'first_of_dom = 1', key: sql.dayOfMonth('date') },
      { set: 'first_of_weekday = 1', key: sql.weekday('date') },
    ];
    for (const { set, key } of firsts) {
      const groups = `SELECT request_id, MIN(date) AS f FROM leave_days GROUP BY request_id${key ? `, ${key}` : ''}`;
      const match = key ? ' AND m.f = d.date' : '';
      await q.query(
        sqlite
          ? `UPDATE leave_days AS d SET ${set} FROM (${groups}) AS m WHERE m.request_id = d.request_id${match}`
          : `UPDATE leave_days d JOIN (${groups}) m ON m.request_id = d.request_id${match} SET d.${set}`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropIndex('leave_requests', 'ix_leave_requests_start_end');
    await q.dropTable('leave_day_sums');
    await q.dropColumns('leave_days', ['first_date', 'first_of_dom', 'first_of_weekday']);
    await q.dropIndex('time_entries', 'ix_time_entries_employee_status_date');
    await q.dropTable('time_entry_days');
    await q.dropTable('attendance_days');
  }
}
