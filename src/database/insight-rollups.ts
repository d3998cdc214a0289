import { DataSource } from 'typeorm';
import { ATTENDANCE_DAYS } from '../attendance/attendance-days';
import { transaction } from '../common/database/transaction';
import { LEAVE_DAY_SUMS } from '../leave/leave-day-sums';
import { TIME_ENTRY_DAYS } from '../timesheets/time-entry-days';

/**
 * Recomputes the insights rollups (attendance_days, time_entry_days, leave_day_sums) from
 * attendance, time_entries and leave_days in one transaction. The services keep them exact; this is
 * for rows loaded around them: the demo and benchmark seeds, and `hr maintenance:rebuild-insights`
 * after a bulk import.
 */
export async function rebuildInsightRollups(ds: DataSource): Promise<void> {
  await transaction(ds, async (em) => {
    const query = (sql: string, params?: unknown[]) => em.query(sql, params);
    await ATTENDANCE_DAYS.rebuild(query);
    await TIME_ENTRY_DAYS.rebuild(query);
    await LEAVE_DAY_SUMS.rebuild(query);
  });
}
