import { DayRollup } from '../common/database/day-rollup';

/**
 * leave_day_sums: leave days per day, department, status and type, with the requests they start
 * (leaveDayMarks: the request's first day, its first with that day of month, its first with that
 * weekday), for the company and department leave insights. Kept by LeaveRequestsService.
 */
export const LEAVE_DAY_SUMS = new DayRollup<{ employeeId: number }>({
  table: 'leave_day_sums',
  keys: [
    { column: 'status', expr: 's.status' },
    { column: 'leave_type_id', expr: 's.leave_type_id' },
  ],
  columns: ['days', 'requests', 'dom_requests', 'weekday_requests'],
  source: 'leave_days',
  day: 's.date',
  sums: [
    'SUM(s.days)',
    'SUM(CASE WHEN s.date = s.first_date THEN 1 ELSE 0 END)',
    'SUM(s.first_of_dom)',
    'SUM(s.first_of_weekday)',
  ],
});
