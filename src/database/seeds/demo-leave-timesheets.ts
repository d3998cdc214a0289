import { DataSource } from 'typeorm';
import { expandLeaveDays, ledgerTakenDays } from '../../leave/leave-days';
import { calendarDays, CalendarRules, workingTime } from '../../calendars/working-days';
import { insertRows, prng } from './seed-tools';

const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString().slice(0, 10);

/**
 * Leave and timesheet history for the demo company: calendar-year leave periods for the last two
 * years and this one, three leave types, public holidays, seasonal leave per employee and year (a
 * winter sick leave, a long summer break, a few days before Christmas, a spring break for half of
 * them; mostly approved, some pending, rejected or cancelled) with the approved days in the
 * leave ledger, a monthly accrual policy for annual leave with carry-over, and timesheets for the engineering employees on two projects over the last two years.
 */
export async function seedDemoLeaveAndTimesheets(ds: DataSource, now: Date): Promise<void> {
  const year = now.getUTCFullYear();
  const today = Date.UTC(year, now.getUTCMonth(), now.getUTCDate());
  const years = [year - 2, year - 1, year];
  await insertRows(
    ds,
    'leave_periods',
    ['name', 'date_start', 'date_end'],
    years.map((y) => [String(y), `${y}-01-01`, `${y}-12-31`]),
  );
  await insertRows(
    ds,
    'leave_types',
    ['name', 'default_days', 'color', 'allow_negative'],
    [
      ['Annual', 25, '#4caf50', false],
      ['Sick', 0, '#f44336', true],
      ['Unpaid', 0, '#9e9e9e', true],
    ],
  );
  const holidayDates = years.flatMap((y) => [`${y}-01-01`, `${y}-05-01`, `${y}-12-25`, `${y}-12-26`]);
  const [home] = await ds.query<Array<{ id: number | string }>>('SELECT id FROM calendars WHERE is_default = ?', [true]);
  await insertRows(
    ds,
    'holidays',
    ['calendar_id', 'name', 'date'],
    holidayDates.map((d) => [
      Number(home.id),
      { '01-01': "New Year's Day", '05-01': 'Labour Day', '12-25': 'Christmas Day', '12-26': 'Boxing Day' }[d.slice(5)] as string,
      d,
    ]),
  );
  const types = await ds.query<Array<{ id: number | string; name: string }>>('SELECT id, name FROM leave_types');
  const typeId = (name: string) => Number(types.find((t) => t.name === name)?.id);
  // The default calendar as the seed leaves it: Monday to Friday and the holidays above.
  const calendar: CalendarRules = {
    id: Number(home.id),
    workWeek: new Set([1, 2, 3, 4, 5]),
    holidays: new Map(holidayDates.map((d) => [d, { name: '', fraction: 1 }])),
  };
  const employees = await ds.query<
    Array<{ id: number | string; supervisor_id: number | string | null; department_id: number | string }>
  >('SELECT id, supervisor_id, department_id FROM employees');

  const leaves: unknown[][] = [];
  for (const e of employees) {
    const rand = prng(Number(e.id) * 31 + 7);
    for (const y of years) {
      // Seasonal: sick leave in winter, a short break in spring for half of them, the long one in
      // summer, a few days before Christmas. [type, length in days, window start, window length in days]
      const plans: Array<[string, number, number, number]> = [
        ['Sick', 1 + Math.floor(rand() * 3), Date.UTC(y, 0, 8), 70],
        ['Annual', 7 + Math.floor(rand() * 8), Date.UTC(y, 6, 1), 45],
        ['Annual', 2 + Math.floor(rand() * 4), Date.UTC(y, 11, 14), 6],
      ];
      if (rand() < 0.5) plans.push(['Annual', 1 + Math.floor(rand() * 4), Date.UTC(y, 3, 1), 60]);
      plans.forEach(([type, length, windowStart, windowDays]) => {
        const startDay = windowStart + Math.floor(rand() * windowDays) * DAY;
        const start = iso(startDay);
        const end = iso(startDay + (length - 1) * DAY);
        const days = workingTime(calendarDays(calendar, start, end), start, end);
        if (!days) return;
        const future = startDay > today;
        const roll = rand();
        const status = future
          ? roll < 0.7
            ? 'Pending'
            : 'Approved'
          : roll < 0.85
            ? 'Approved'
            : roll < 0.93
              ? 'Rejected'
              : 'Cancelled';
        const decided = status === 'Approved' || status === 'Rejected';
        leaves.push([
          Number(e.id),
          typeId(type),
          start,
          end,
          false,
          days,
          status,
          null,
          decided ? e.supervisor_id : null,
          decided ? new Date(Math.min(startDay, today) - 7 * DAY) : null,
        ]);
      });
    }
  }
  await insertRows(
    ds,
    'leave_requests',
    [
      'employee_id',
      'leave_type_id',
      'date_start',
      'date_end',
      'half_day',
      'days',
      'status',
      'reason',
      'approver_id',
      'decided_at',
    ],
    leaves,
  );
  await expandLeaveDays((sql, params) => ds.query(sql, params), calendar);
  await ledgerTakenDays((sql, params) => ds.query(sql, params), ds.options.type === 'mysql');
  // Annual leave accrues monthly (2.5 days at each month's end, a joiner's first month prorated);
  // up to 5 days carry over into the next year and expire unless taken by 1 April.
  await insertRows(
    ds,
    'leave_policies',
    [
      'name',
      'leave_type_id',
      'accrual',
      'amount',
      'prorate_joiners',
      'waiting_days',
      'carry_over_max',
      'carry_over_expiry_months',
      'allow_negative',
      'encashable',
      'encashment_max',
    ],
    [['Annual: monthly', typeId('Annual'), 'monthly', 2.5, true, 0, 5, 3, false, true, 5]],
  );
  const [policy] = await ds.query<Array<{ id: number | string }>>("SELECT id FROM leave_policies WHERE name = 'Annual: monthly'");
  await insertRows(ds, 'leave_policy_assignments', ['policy_id', 'valid_from'], [[Number(policy.id), `${years[0]}-01-01`]]);
  // The first employee had 2 annual days paid out on the 15th of last month: last month's payroll
  // prices them (the leave_encashment_days column).
  const lastMonth = new Date(Date.UTC(year, now.getUTCMonth() - 1, 15)).toISOString().slice(0, 10);
  const first = await ds.query<Array<{ id: number | string }>>('SELECT id FROM employees ORDER BY id LIMIT 1');
  await insertRows(
    ds,
    'leave_ledger',
    ['employee_id', 'leave_type_id', 'date', 'kind', 'days', 'source', 'source_id', 'note'],
    first.map((e) => [
      Number(e.id),
      typeId('Annual'),
      lastMonth,
      'encashment',
      -2,
      'admin',
      Number(policy.id),
      'paid out at their request',
    ]),
  );

  await insertRows(
    ds,
    'projects',
    ['name', 'client'],
    [
      ['Platform rewrite', null],
      ['Mobile app', 'Demo Company'],
      ['Customer portal', 'Acme Corp'],
    ],
  );
  const projects = (await ds.query<Array<{ id: number | string }>>('SELECT id FROM projects ORDER BY id')).map((p) =>
    Number(p.id),
  );
  const engineering = await ds.query<Array<{ id: number | string }>>(
    "SELECT e.id FROM employees e JOIN departments d ON d.id = e.department_id WHERE d.name IN ('Engineering', 'Platform', 'Product')",
  );
  const entries: unknown[][] = [];
  for (const e of engineering) {
    const rand = prng(Number(e.id) * 17 + 3);
    for (let day = today - 730 * DAY; day < today; day += DAY) {
      const weekday = new Date(day).getUTCDay();
      if (weekday === 0 || weekday === 6 || rand() < 0.1) continue;
      const recent = today - day < 14 * DAY;
      const status = recent ? (rand() < 0.5 ? 'Draft' : 'Submitted') : 'Approved';
      entries.push([Number(e.id), projects[Math.floor(rand() * projects.length)], iso(day), '09:00', '12:30', 210, null, status]);
      entries.push([Number(e.id), projects[Math.floor(rand() * projects.length)], iso(day), '13:30', '17:30', 240, null, status]);
    }
  }
  await insertRows(
    ds,
    'time_entries',
    ['employee_id', 'project_id', 'date', 'start_time', 'end_time', 'minutes', 'details', 'status'],
    entries,
  );
  // SQLite's updated_at has no default (migration 36): rows inserted here count as changed when created.
  for (const table of ['leave_requests', 'time_entries'])
    await ds.query(`UPDATE ${table} SET updated_at = created_at WHERE updated_at IS NULL`);
}
