import { DayRollup } from '../common/database/day-rollup';
import { TimeEntry, TimeEntryStatus } from './entities/timesheet.entities';

/** Time entries that count as worked time: all but rejected ones. */
export const COUNTED_ENTRY_STATUSES: TimeEntryStatus[] = ['Draft', 'Submitted', 'Approved'];

/** time_entry_days: counted entries and their minutes per day and department, for the company and department insights. */
export const TIME_ENTRY_DAYS = new DayRollup<Pick<TimeEntry, 'employeeId' | 'date' | 'minutes' | 'status'>>({
  table: 'time_entry_days',
  columns: ['entries', 'minutes'],
  source: 'time_entries',
  day: 's.date',
  sums: ['COUNT(*)', 'SUM(s.minutes)'],
  where: `s.status IN (${COUNTED_ENTRY_STATUSES.map((s) => `'${s}'`).join(', ')})`,
  contribution: (t) => (COUNTED_ENTRY_STATUSES.includes(t.status) ? { day: t.date, values: [1, t.minutes] } : null),
});
