import { dateOnly } from './engine/calendar';
import { isoWorkWeek, WORK_WEEK } from '../calendars/calendars.settings';
import { calendarDays, CalendarRules, leaveDaysOf } from '../calendars/working-days';
import type { LeaveStatus } from './entities/leave.entities';

type Query = <T = unknown>(sql: string, params?: unknown[]) => Promise<T>;

export interface LeaveDayRequest {
  id: number;
  employeeId: number;
  leaveTypeId: number;
  status: LeaveStatus;
  dateStart: string;
  dateEnd: string;
  halfDay: boolean;
}

export const LEAVE_DAY_COLUMNS = [
  'request_id',
  'date',
  'employee_id',
  'leave_type_id',
  'status',
  'days',
  'first_date',
  'first_of_dom',
  'first_of_weekday',
] as const;

export interface LeaveDayMarks {
  date: string;
  /** The request's first working day. */
  firstDate: string;
  /** The request's first day with this day of the month / this weekday. */
  firstOfDom: boolean;
  firstOfWeekday: boolean;
}

/**
 * A request's days (ascending) with the marks the insights count requests by: a request has leave
 * in a period from its first day on if that day is inside, and takes the 5th of a month (or a
 * Tuesday) in it if its first 5th (first Tuesday) is inside; only requests begun before the
 * period need a DISTINCT count.
 */
export function leaveDayMarks(dates: string[]): LeaveDayMarks[] {
  const doms = new Set<number>();
  const weekdays = new Set<number>();
  return dates.map((date) => {
    const d = new Date(`${date}T00:00:00Z`);
    const firstOfDom = !doms.has(d.getUTCDate());
    const firstOfWeekday = !weekdays.has(d.getUTCDay());
    doms.add(d.getUTCDate());
    weekdays.add(d.getUTCDay());
    return { date, firstDate: dates[0], firstOfDom, firstOfWeekday };
  });
}

/** A request's leave_days rows (the entity's fields) from the days it takes (leaveDaysOf), with their marks. */
export function leaveDayEntities(
  r: Pick<LeaveDayRequest, 'id' | 'employeeId' | 'leaveTypeId' | 'status'>,
  days: ReadonlyArray<{ date: string; days: number }>,
): Array<LeaveDayMarks & { requestId: number; employeeId: number; leaveTypeId: number; status: LeaveStatus; days: number }> {
  return leaveDayMarks(days.map((d) => d.date)).map((marks, i) => ({
    requestId: r.id,
    employeeId: r.employeeId,
    leaveTypeId: r.leaveTypeId,
    status: r.status,
    days: days[i].days,
    ...marks,
  }));
}

/** The leave_days rows of a request (LEAVE_DAY_COLUMNS) by one calendar: each working day, worth its working time (at most 0.5 for a half-day request). */
export function leaveDayRows(r: LeaveDayRequest, calendar: CalendarRules): unknown[][] {
  const days = leaveDaysOf(calendarDays(calendar, r.dateStart, r.dateEnd), r.dateStart, r.dateEnd, r.halfDay);
  return leaveDayEntities(r, days).map((e) => [
    e.requestId,
    e.date,
    e.employeeId,
    e.leaveTypeId,
    e.status,
    e.days,
    e.firstDate,
    e.firstOfDom ? 1 : 0,
    e.firstOfWeekday ? 1 : 0,
  ]);
}

/**
 * Writes the leave_days rows of every request that has none (all of them after the migration
 * adds the table; those of a bulk seed), by `given` (the seed's calendar) or, in the migration that
 * made the table (before the calendars), the Work Week setting and the holidays. Plain SQL, so a
 * migration's query runner and a data source can both run it.
 */
export async function expandLeaveDays(query: Query, given?: CalendarRules): Promise<number> {
  const calendar = given ?? (await settingCalendar(query));
  const requests = await query<
    Array<{
      id: number | string;
      employee_id: number | string;
      leave_type_id: number | string;
      status: LeaveStatus;
      date_start: string | Date;
      date_end: string | Date;
      half_day: number | boolean | string;
    }>
  >(
    `SELECT r.id, r.employee_id, r.leave_type_id, r.status, r.date_start, r.date_end, r.half_day FROM leave_requests r
     WHERE NOT EXISTS (SELECT 1 FROM leave_days d WHERE d.request_id = r.id)`,
  );
  let rows: unknown[][] = [];
  let written = 0;
  const flush = async () => {
    if (!rows.length) return;
    const placeholders = rows.map(() => `(${LEAVE_DAY_COLUMNS.map(() => '?').join(', ')})`).join(', ');
    await query(`INSERT INTO leave_days (${LEAVE_DAY_COLUMNS.join(', ')}) VALUES ${placeholders}`, rows.flat());
    written += rows.length;
    rows = [];
  };
  for (const r of requests) {
    rows.push(
      ...leaveDayRows(
        {
          id: Number(r.id),
          employeeId: Number(r.employee_id),
          leaveTypeId: Number(r.leave_type_id),
          status: r.status,
          dateStart: dateOnly(r.date_start),
          dateEnd: dateOnly(r.date_end),
          halfDay: r.half_day === true || Number(r.half_day) === 1,
        },
        calendar,
      ),
    );
    if (rows.length >= 400) await flush();
  }
  await flush();
  return written;
}

/**
 * Writes the `taken` ledger entry of every approved leave day that has none (issue 31): after the
 * migration that adds the ledger, and for the days a seed inserts. Plain SQL, so a migration's
 * query runner and a data source can both run it.
 */
export async function ledgerTakenDays(query: Query, mysql: boolean): Promise<void> {
  const key = mysql ? "CONCAT('take:', d.request_id, ':', d.date)" : "'take:' || d.request_id || ':' || d.date";
  await query(
    `INSERT INTO leave_ledger (employee_id, leave_type_id, date, kind, days, source, source_id, entry_key)
     SELECT d.employee_id, d.leave_type_id, d.date, 'taken', -d.days, 'request', d.request_id, ${key}
     FROM leave_days d WHERE d.status = 'Approved'
     AND NOT EXISTS (SELECT 1 FROM leave_ledger x WHERE x.employee_id = d.employee_id AND x.entry_key = ${key})`,
  );
}

/** The one calendar of the time before the calendars (migration 1763800000048): the Work Week setting and every holiday, whole days. */
async function settingCalendar(query: Query): Promise<CalendarRules> {
  const setting = await query<Array<{ value: string }>>('SELECT value FROM settings WHERE name = ?', [WORK_WEEK]);
  const holidays = await query<Array<{ date: string | Date }>>('SELECT date FROM holidays');
  return {
    id: 0,
    workWeek: new Set(isoWorkWeek(setting[0]?.value ?? 'Mon,Tue,Wed,Thu,Fri')),
    holidays: new Map(holidays.map((h) => [dateOnly(h.date), { name: '', fraction: 1 }])),
  };
}
