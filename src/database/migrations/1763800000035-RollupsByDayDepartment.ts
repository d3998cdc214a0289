import { MigrationInterface, QueryRunner } from 'typeorm';
import { ATTENDANCE_DAYS } from '../../attendance/attendance-days';
import { LEAVE_DAY_SUMS } from '../../leave/leave-day-sums';
import { TIME_ENTRY_DAYS } from '../../timesheets/time-entry-days';

const ROLLUPS = [ATTENDANCE_DAYS, TIME_ENTRY_DAYS, LEAVE_DAY_SUMS];

/**
 * Issue 43: the insights rollups count each attendance record, time entry and leave day under the
 * department its employee had on that day (the employment history), no longer under today's; the
 * rollups are recomputed so. Down counts them under today's department again.
 */
export class RollupsByDayDepartment1763800000035 implements MigrationInterface {
  name = 'RollupsByDayDepartment1763800000035';

  async up(q: QueryRunner): Promise<void> {
    const query = (sql: string, params?: unknown[]) => q.query(sql, params);
    for (const rollup of ROLLUPS) await rollup.rebuild(query, 'history');
  }

  async down(q: QueryRunner): Promise<void> {
    const query = (sql: string, params?: unknown[]) => q.query(sql, params);
    for (const rollup of ROLLUPS) await rollup.rebuild(query, 'employee');
  }
}
