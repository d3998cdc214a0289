import { DayRollup } from '../common/database/day-rollup';
import { AttendanceRecord } from './entities/attendance.entity';

/**
 * attendance_days: records, worked seconds, completed (punched-out) records and work-from-home
 * records per UTC day of punch-in and department, for the company and department insights.
 */
export const ATTENDANCE_DAYS = new DayRollup<
  Pick<AttendanceRecord, 'employeeId' | 'inTime' | 'outTime' | 'durationSeconds' | 'workFromHome'>
>({
  table: 'attendance_days',
  columns: ['records', 'seconds', 'completed', 'wfh'],
  source: 'attendance',
  day: 'DATE(s.in_time)',
  sums: [
    'COUNT(*)',
    'COALESCE(SUM(s.duration_seconds), 0)',
    'COUNT(s.out_time)',
    'SUM(CASE WHEN s.work_from_home = 1 THEN 1 ELSE 0 END)',
  ],
  contribution: (r) => ({
    day: r.inTime.toISOString().slice(0, 10),
    values: [1, r.durationSeconds ?? 0, r.outTime ? 1 : 0, r.workFromHome ? 1 : 0],
  }),
});
