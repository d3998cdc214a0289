import { DataSource } from 'typeorm';
import { dateOnly } from '../../leave/engine/calendar';
import { insertRows, prng } from './seed-tools';

/**
 * Two years of attendance for every employee, up to yesterday: weekdays only, not on days of
 * approved leave, in between 07:30 and 10:00 UTC, 7 to 9.5 hours (6 to 7.5 on Fridays, so the
 * weekly pattern shows it), about one day in five from home, and about one weekday in twenty
 * absent. Returns the number of records.
 */
export async function seedDemoAttendance(ds: DataSource, now: Date): Promise<number> {
  const employees = await ds.query<Array<{ id: number | string; joined_date: string }>>('SELECT id, joined_date FROM employees');
  const onLeave = new Set(
    (
      await ds.query<Array<{ employee_id: number | string; date: string | Date }>>(
        "SELECT employee_id, date FROM leave_days WHERE status = 'Approved'",
      )
    ).map((d) => `${Number(d.employee_id)}:${dateOnly(d.date)}`),
  );
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const start = today - 730 * 86_400_000;
  const rows: unknown[][] = [];
  for (const e of employees) {
    const rand = prng(Number(e.id));
    const joined = Date.parse(`${String(e.joined_date).slice(0, 10)}T00:00:00Z`);
    for (let day = Math.max(start, joined); day < today; day += 86_400_000) {
      const weekday = new Date(day).getUTCDay();
      if (weekday === 0 || weekday === 6 || rand() < 0.05) continue;
      if (onLeave.has(`${Number(e.id)}:${new Date(day).toISOString().slice(0, 10)}`)) continue;
      const inTime = new Date(day + Math.round(450 + rand() * 150) * 60_000);
      const seconds = Math.round((weekday === 5 ? 6 + rand() * 1.5 : 7 + rand() * 2.5) * 3600);
      rows.push([Number(e.id), inTime, new Date(inTime.getTime() + seconds * 1000), seconds, rand() < 0.2]);
    }
  }
  await insertRows(ds, 'attendance', ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'work_from_home'], rows);
  return rows.length;
}
