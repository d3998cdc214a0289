import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { RecentResults } from '../common/cache/recent-results';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { sqlDialect, SqlDialect } from '../common/database/sql-dialect';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService, EmployeeScope, ListCondition } from '../employees/employee-access.service';
import { MAX_LEAVE_SPAN_DAYS } from '../leave/working-days';
import { COUNTED_ENTRY_STATUSES } from '../timesheets/time-entry-days';
import {
  AttendanceInsightDto,
  DayOfMonthValueDto,
  INSIGHT_NAMES,
  InsightPeriod,
  LeaveDepartmentShareDto,
  LeaveStatusSummaryDto,
  LeaveTypeShareDto,
  TimesheetInsightDto,
  WEEKDAY_NAMES,
  WeekdayValueDto,
} from './insights.dto';

const LEAVE_STATUSES = ['Pending', 'Approved', 'Rejected', 'Cancelled'];
/** A leave day that is its request's first. */
const FIRST_DAY = 'CASE WHEN d.date = d.first_date THEN 1 ELSE 0 END';

/** How leaveBy groups: the key and the mark of a request's first day in it, over leave_day_sums `r` and leave_days `d` (employee `e`). */
interface LeaveGrouping {
  approvedOnly: boolean;
  key: { rollup: string; day: string };
  first: { rollup: string; day: string };
}

const LEAVE_BY = {
  status: { approvedOnly: false, key: { rollup: 'r.status', day: 'd.status' }, first: { rollup: 'r.requests', day: FIRST_DAY } },
  type: {
    approvedOnly: true,
    key: { rollup: 'r.leave_type_id', day: 'd.leave_type_id' },
    first: { rollup: 'r.requests', day: FIRST_DAY },
  },
  department: {
    approvedOnly: true,
    key: { rollup: 'r.department_id', day: 'COALESCE(e.department_id, 0)' },
    first: { rollup: 'r.requests', day: FIRST_DAY },
  },
} satisfies Record<string, LeaveGrouping>;

export interface PeriodRange {
  /** First day (YYYY-MM-DD), null for `all`. */
  from: string | null;
  /** Today. */
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * The period ending today (server time zone, TZ): `6months` runs from the day after the same date
 * six months earlier (clamped to that month's end: 31 August → from 1 March), and so on; `all` has
 * no start.
 */
export function periodRange(period: InsightPeriod, now = new Date()): PeriodRange {
  const to = localDay(now);
  const months = { '6months': 6, '1year': 12, '2years': 24, '3years': 36, all: 0 }[period];
  if (!months) return { from: null, to };
  const month = now.getMonth() - months;
  const lastDay = new Date(now.getFullYear(), month + 1, 0).getDate();
  const start = new Date(now.getFullYear(), month, Math.min(now.getDate(), lastDay) + 1);
  return { from: localDay(start), to };
}

/** UTC midnight of a YYYY-MM-DD day as an instant: attendance counts on the UTC day it starts (times are stored in UTC). */
const midnight = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000);

type Insights = InsightsService['insights'];
export type InsightName = keyof Insights;

function scopeKey(scope: EmployeeScope): string {
  switch (scope.kind) {
    case 'all':
    case 'none':
      return scope.kind;
    case 'departments':
      return `departments:${[...scope.departmentIds].sort((a, b) => a - b).join(',')}`;
    case 'team':
    case 'self':
      return `${scope.kind}:${scope.selfId}`;
  }
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const round2 = (n: number) => Math.round(n * 100) / 100;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The eleven insights (API.md §11). Every figure is one GROUP BY aggregation in the database over
 * an indexed date range, restricted to the employees the caller may see: Admin the company,
 * Restricted Admin its department subtree, Manager its direct reports, Employee itself. The
 * department scopes read the per-day, per-department rollups (leave_day_sums, attendance_days,
 * time_entry_days), a Manager or an Employee the records themselves (leave_days, attendance,
 * time_entries). Read-only over the leave, attendance and timesheet tables.
 */
@Injectable()
export class InsightsService {
  private readonly sql: SqlDialect;
  /** "Today" comes from here (the tests set a fixed day). */
  clock: () => Date = () => new Date();

  /** The computations by endpoint name. */
  readonly insights = {
    'leave-summary': (c: AuthUser, p: InsightPeriod) => this.leaveSummary(c, p),
    'leave-monthly-pattern': (c: AuthUser, p: InsightPeriod) => this.leaveMonthlyPattern(c, p),
    'leave-weekly-pattern': (c: AuthUser, p: InsightPeriod) => this.leaveWeeklyPattern(c, p),
    'leave-type-distribution': (c: AuthUser, p: InsightPeriod) => this.leaveTypeDistribution(c, p),
    'leave-by-department': (c: AuthUser, p: InsightPeriod) => this.leaveByDepartment(c, p),
    'attendance-summary': (c: AuthUser, p: InsightPeriod) => this.attendanceSummary(c, p),
    'attendance-monthly-pattern': (c: AuthUser, p: InsightPeriod) => this.attendanceMonthlyPattern(c, p),
    'attendance-weekly-pattern': (c: AuthUser, p: InsightPeriod) => this.attendanceWeeklyPattern(c, p),
    'timesheet-summary': (c: AuthUser, p: InsightPeriod) => this.timesheetSummary(c, p),
    'timesheet-monthly-pattern': (c: AuthUser, p: InsightPeriod) => this.timesheetMonthlyPattern(c, p),
    'timesheet-weekly-pattern': (c: AuthUser, p: InsightPeriod) => this.timesheetWeeklyPattern(c, p),
  } satisfies Record<(typeof INSIGHT_NAMES)[number], (c: AuthUser, p: InsightPeriod) => Promise<unknown>>;

  /** Figures by endpoint, period, day and scope: the promise, so concurrent equal requests share one query. */
  private readonly cache: RecentResults<unknown>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly access: EmployeeAccessService,
  ) {
    this.sql = sqlDialect(ds);
    this.cache = new RecentResults<unknown>(config.insightsCacheMs, 2000);
  }

  /**
   * An insight, reused for INSIGHTS_CACHE_MS (default 30 s) by every caller of the same scope
   * (Admins share one entry, a Restricted Admin's departments, a Manager's or Employee's own), so a
   * dashboard's repeated loads cost one aggregation. At most 2 000 entries, the oldest dropped.
   */
  async get<N extends InsightName>(caller: AuthUser, name: N, period: InsightPeriod): Promise<Awaited<ReturnType<Insights[N]>>> {
    const compute = () => this.insights[name](caller, period) as Promise<Awaited<ReturnType<Insights[N]>>>;
    if (!this.config.insightsCacheMs) return compute();
    const key = `${name}|${period}|${periodRange(period, this.clock()).to}|${scopeKey(await this.access.scopeOf(caller))}`;
    return this.cache.get(key, compute) as Promise<Awaited<ReturnType<Insights[N]>>>;
  }

  async leaveSummary(caller: AuthUser, period: InsightPeriod): Promise<LeaveStatusSummaryDto[]> {
    const rows = await this.leaveBy(caller, period, LEAVE_BY.status);
    return LEAVE_STATUSES.map((status) => ({ status, ...(rows.get(status) ?? { requests: 0, days: 0 }) }));
  }

  async leaveMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const rows = await this.leaveBy(caller, period, {
      approvedOnly: true,
      key: { rollup: this.sql.dayOfMonth('r.day'), day: this.sql.dayOfMonth('d.date') },
      first: { rollup: 'r.dom_requests', day: 'd.first_of_dom' },
    });
    return Array.from({ length: 31 }, (_, i) => {
      const r = rows.get(String(i + 1));
      return { day: i + 1, value: r?.requests ?? 0, days: r?.days ?? 0 };
    });
  }

  async leaveWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const rows = await this.leaveBy(caller, period, {
      approvedOnly: true,
      key: { rollup: this.sql.weekday('r.day'), day: this.sql.weekday('d.date') },
      first: { rollup: 'r.weekday_requests', day: 'd.first_of_weekday' },
    });
    return WEEKDAY_NAMES.map((day, i) => ({
      day,
      value: rows.get(String(i))?.requests ?? 0,
      days: rows.get(String(i))?.days ?? 0,
    }));
  }

  /** Every leave type, with its approved requests and days in the period (zeros included). */
  async leaveTypeDistribution(caller: AuthUser, period: InsightPeriod): Promise<LeaveTypeShareDto[]> {
    const rows = await this.leaveBy(caller, period, LEAVE_BY.type);
    const types = await this.ds
      .createQueryBuilder()
      .select('t.id', 'id')
      .addSelect('t.name', 'name')
      .from('leave_types', 't')
      .orderBy('t.name')
      .getRawMany<{ id: unknown; name: string }>();
    return types.map((t) => {
      const r = rows.get(String(num(t.id)));
      return { leave_type: num(t.id), name: t.name, requests: r?.requests ?? 0, days: r?.days ?? 0 };
    });
  }

  /** The departments with approved leave in the period, most days first. */
  async leaveByDepartment(caller: AuthUser, period: InsightPeriod): Promise<LeaveDepartmentShareDto[]> {
    const rows = await this.leaveBy(caller, period, LEAVE_BY.department);
    const ids = [...rows.keys()].map(Number).filter((id) => id > 0);
    if (!ids.length) return [];
    const departments = await this.ds
      .createQueryBuilder()
      .select('dep.id', 'id')
      .addSelect('dep.name', 'name')
      .from('departments', 'dep')
      .where('dep.id IN (:...ids)', { ids })
      .getRawMany<{ id: unknown; name: string }>();
    return departments
      .map((d) => ({
        department: num(d.id),
        name: d.name,
        ...(rows.get(String(num(d.id))) as { requests: number; days: number }),
      }))
      .filter((d) => d.requests > 0 || d.days > 0)
      .sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
  }

  async attendanceSummary(caller: AuthUser, period: InsightPeriod): Promise<AttendanceInsightDto> {
    const rollup = await this.rollup(caller, period, 'attendance_days');
    const r = rollup
      ? await rollup
          .select('SUM(r.records)', 'records')
          .addSelect('SUM(r.seconds)', 'seconds')
          .addSelect('SUM(r.completed)', 'completed')
          .addSelect('SUM(r.wfh)', 'wfh')
          .getRawOne<Record<string, unknown>>()
      : await (
          await this.attendance(caller, period)
        )
          .select('COUNT(*)', 'records')
          .addSelect('COUNT(DISTINCT a.employee_id)', 'employees')
          .addSelect('SUM(a.duration_seconds)', 'seconds')
          .addSelect('COUNT(a.out_time)', 'completed')
          .addSelect('SUM(CASE WHEN a.work_from_home = 1 THEN 1 ELSE 0 END)', 'wfh')
          .getRawOne<Record<string, unknown>>();
    const hours = num(r?.seconds) / 3600;
    const completed = num(r?.completed);
    return {
      records: num(r?.records),
      employees: rollup ? await this.employeesWith(caller, period, 'attendance') : num(r?.employees),
      total_hours: round2(hours),
      average_hours: completed ? round2(hours / completed) : 0,
      work_from_home_records: num(r?.wfh),
    };
  }

  async attendanceMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const hours = await this.attendanceHoursBy(caller, period, (day) => this.sql.dayOfMonth(day));
    return Array.from({ length: 31 }, (_, i) => ({ day: i + 1, value: hours.get(i + 1) ?? 0 }));
  }

  async attendanceWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const hours = await this.attendanceHoursBy(caller, period, (day) => this.sql.weekday(day));
    return WEEKDAY_NAMES.map((day, i) => ({ day, value: hours.get(i) ?? 0 }));
  }

  async timesheetSummary(caller: AuthUser, period: InsightPeriod): Promise<TimesheetInsightDto> {
    const rollup = await this.rollup(caller, period, 'time_entry_days');
    const r = rollup
      ? await rollup
          .select('SUM(r.entries)', 'entries')
          .addSelect('SUM(r.minutes)', 'minutes')
          .getRawOne<Record<string, unknown>>()
      : await (
          await this.timeEntries(caller, period)
        )
          .select('COUNT(*)', 'entries')
          .addSelect('COUNT(DISTINCT t.employee_id)', 'employees')
          .addSelect('SUM(t.minutes)', 'minutes')
          .getRawOne<Record<string, unknown>>();
    const entries = num(r?.entries);
    const hours = num(r?.minutes) / 60;
    return {
      entries,
      employees: rollup ? await this.employeesWith(caller, period, 'time_entries') : num(r?.employees),
      total_hours: round2(hours),
      average_hours: entries ? round2(hours / entries) : 0,
    };
  }

  async timesheetMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const hours = await this.timesheetHoursBy(caller, period, (day) => this.sql.dayOfMonth(day));
    return Array.from({ length: 31 }, (_, i) => ({ day: i + 1, value: hours.get(i + 1) ?? 0 }));
  }

  async timesheetWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const hours = await this.timesheetHoursBy(caller, period, (day) => this.sql.weekday(day));
    return WEEKDAY_NAMES.map((day, i) => ({ day, value: hours.get(i) ?? 0 }));
  }

  /** Attendance hours by `key` of the day (day of month, weekday): from the rollup for the company and departments. */
  private async attendanceHoursBy(caller: AuthUser, period: InsightPeriod, key: (day: string) => string) {
    const rollup = await this.rollup(caller, period, 'attendance_days');
    if (rollup) return this.hoursBy(rollup, key('r.day'), 'r.seconds', 3600);
    return this.hoursBy(await this.attendance(caller, period), key('a.in_time'), 'a.duration_seconds', 3600);
  }

  /** Time entry hours by `key` of the day: from the rollup for the company and departments. */
  private async timesheetHoursBy(caller: AuthUser, period: InsightPeriod, key: (day: string) => string) {
    const rollup = await this.rollup(caller, period, 'time_entry_days');
    if (rollup) return this.hoursBy(rollup, key('r.day'), 'r.minutes', 60);
    return this.hoursBy(await this.timeEntries(caller, period), key('t.date'), 't.minutes', 60);
  }

  /**
   * Leave in the period by a key: the requests with a leave day there and those days. From
   * leave_day_sums for the department scopes, from leave_days for a Manager or Employee. A request
   * is counted on its first day inside the key (its first day, its first 5th of a month, its first
   * Tuesday: the leave-day marks), which adds up without a DISTINCT; a request begun before the
   * period may have its first such day before it, so the few requests running across the period's
   * start are counted from their days one by one.
   */
  private async leaveBy(
    caller: AuthUser,
    period: InsightPeriod,
    by: LeaveGrouping,
  ): Promise<Map<string, { requests: number; days: number }>> {
    const { from, to } = periodRange(period, this.clock());
    const out = new Map<string, { requests: number; days: number }>();
    const add = (rows: Array<{ k: unknown; requests: unknown; days?: unknown }>) => {
      for (const r of rows) {
        const key = String(r.k);
        const sum = out.get(key) ?? { requests: 0, days: 0 };
        out.set(key, { requests: sum.requests + num(r.requests), days: round1(sum.days + num(r.days)) });
      }
    };
    const approved = (qb: SelectQueryBuilder<object>, alias: string) =>
      by.approvedOnly ? qb.andWhere(`${alias}.status = :approved`, { approved: 'Approved' }) : qb;

    const rollup = await this.rollup(caller, period, 'leave_day_sums');
    if (!rollup) {
      // A Manager's or Employee's own few leave days (scoped() joins their employees `e`).
      const qb = await this.scoped(caller, this.ds.createQueryBuilder().from('leave_days', 'd'), 'd.employee_id');
      qb.andWhere('d.date <= :to', { to });
      if (from) qb.andWhere('d.date >= :from', { from });
      const requests = from
        ? `SUM(CASE WHEN d.first_date >= :from THEN ${by.first.day} ELSE 0 END) + COUNT(DISTINCT CASE WHEN d.first_date < :from THEN d.request_id END)`
        : `SUM(${by.first.day})`;
      add(
        await approved(qb, 'd')
          .select(by.key.day, 'k')
          .addSelect(requests, 'requests')
          .addSelect('SUM(d.days)', 'days')
          .groupBy(by.key.day)
          .getRawMany(),
      );
      return out;
    }
    add(
      await approved(rollup, 'r')
        .select(by.key.rollup, 'k')
        .addSelect(`SUM(${by.first.rollup})`, 'requests')
        .addSelect('SUM(r.days)', 'days')
        .groupBy(by.key.rollup)
        .getRawMany(),
    );
    if (!from) return out;
    // Requests running across `from` (a request covers at most MAX_LEAVE_SPAN_DAYS): each counts
    // once per key, less the first days the sums above already counted.
    const spanStart = new Date(Date.parse(`${from}T00:00:00Z`) - MAX_LEAVE_SPAN_DAYS * 86_400_000).toISOString().slice(0, 10);
    const ids = (
      await this.ds
        .createQueryBuilder()
        .select('l.id', 'id')
        .from('leave_requests', 'l')
        .where('l.date_start >= :spanStart AND l.date_start < :from AND l.date_end >= :from', { spanStart, from })
        .getRawMany<{ id: unknown }>()
    ).map((r) => num(r.id));
    const condition = await this.scopeCondition(caller);
    for (let i = 0; i < ids.length; i += 5000) {
      const across = this.ds
        .createQueryBuilder()
        .from('leave_days', 'd')
        .innerJoin('employees', 'e', 'e.id = d.employee_id')
        .where('d.request_id IN (:...ids)', { ids: ids.slice(i, i + 5000) })
        .andWhere('d.date >= :from AND d.date <= :to', { from, to });
      if (condition.sql) across.andWhere(condition.sql, condition.params);
      add(
        await approved(across, 'd')
          .select(by.key.day, 'k')
          .addSelect(`COUNT(DISTINCT d.request_id) - SUM(${by.first.day})`, 'requests')
          .groupBy(by.key.day)
          .getRawMany(),
      );
    }
    return out;
  }

  private async hoursBy<T extends object>(
    qb: SelectQueryBuilder<T>,
    key: string,
    amount: string,
    perHour: number,
  ): Promise<Map<number, number>> {
    const rows = await qb
      .select(key, 'k')
      .addSelect(`SUM(${amount})`, 'amount')
      .groupBy(key)
      .getRawMany<{ k: unknown; amount: unknown }>();
    return new Map(rows.map((r) => [num(r.k), round2(num(r.amount) / perHour)]));
  }

  /**
   * The rollup rows `r` (attendance_days, time_entry_days: sums per day and department) of the
   * period, for the scopes made of departments: Admin everything, Restricted Admin its subtree.
   * Null for a Manager or Employee, whose few records are read directly.
   */
  private async rollup(caller: AuthUser, period: InsightPeriod, table: string): Promise<SelectQueryBuilder<object> | null> {
    const scope = await this.access.scopeOf(caller);
    if (scope.kind !== 'all' && scope.kind !== 'departments') return null;
    const { from, to } = periodRange(period, this.clock());
    const qb = this.ds.createQueryBuilder().from(table, 'r').where('r.day <= :to', { to });
    if (from) qb.andWhere('r.day >= :from', { from });
    if (scope.kind === 'departments') {
      if (scope.departmentIds.length) qb.andWhere('r.department_id IN (:...departments)', { departments: scope.departmentIds });
      else qb.andWhere('1 = 0');
    }
    return qb;
  }

  /**
   * How many employees in the caller's scope have attendance (or counted time entries) in the
   * period. Grouped by employee with MIN() over (employee_id, in_time) and (employee_id, status,
   * date), which MariaDB answers by a loose index scan (one seek per employee and status) instead
   * of reading the period's rows; the scope joins the few resulting rows.
   */
  private async employeesWith(caller: AuthUser, period: InsightPeriod, source: 'attendance' | 'time_entries'): Promise<number> {
    const perEmployee =
      source === 'attendance'
        ? (await this.attendance(null, period))
            .select('a.employee_id', 'employee_id')
            .addSelect('MIN(a.in_time)', 'first')
            .groupBy('a.employee_id')
        : (await this.timeEntries(null, period))
            .select('t.employee_id', 'employee_id')
            .addSelect('MIN(t.date)', 'first')
            .groupBy('t.employee_id')
            .addGroupBy('t.status');
    const qb = this.ds
      .createQueryBuilder()
      .from(`(${perEmployee.getQuery()})`, 'x')
      .setParameters(perEmployee.getParameters())
      .select('COUNT(DISTINCT x.employee_id)', 'n');
    const condition = await this.scopeCondition(caller);
    if (condition.sql) qb.innerJoin('employees', 'e', 'e.id = x.employee_id').andWhere(condition.sql, condition.params);
    return num((await qb.getRawOne<{ n: unknown }>())?.n);
  }

  /** attendance `a` started in the period (an attendance record's hours count on the day it starts); null caller: everyone's. */
  private async attendance(caller: AuthUser | null, period: InsightPeriod): Promise<SelectQueryBuilder<object>> {
    const { from, to } = periodRange(period, this.clock());
    const qb = this.ds
      .createQueryBuilder()
      .from('attendance', 'a')
      .where('a.in_time < :end', { end: midnight(to, 1) });
    if (from) qb.andWhere('a.in_time >= :start', { start: midnight(from) });
    return caller ? this.scoped(caller, qb, 'a.employee_id') : qb;
  }

  /** time_entries `t` of the period that count as worked time (not rejected); null caller: everyone's. */
  private async timeEntries(caller: AuthUser | null, period: InsightPeriod): Promise<SelectQueryBuilder<object>> {
    const { from, to } = periodRange(period, this.clock());
    const qb = this.ds
      .createQueryBuilder()
      .from('time_entries', 't')
      .where('t.date <= :to', { to })
      .andWhere('t.status IN (:...counted)', { counted: COUNTED_ENTRY_STATUSES });
    if (from) qb.andWhere('t.date >= :from', { from });
    return caller ? this.scoped(caller, qb, 't.employee_id') : qb;
  }

  /**
   * Insights scope (API.md §5): Admin everyone (no join), Restricted Admin its department subtree,
   * Manager its direct reports, Employee itself, a user without an employee nobody.
   */
  private async scoped(
    caller: AuthUser,
    qb: SelectQueryBuilder<object>,
    employeeColumn: string,
  ): Promise<SelectQueryBuilder<object>> {
    const condition = await this.scopeCondition(caller);
    if (condition.sql) qb.innerJoin('employees', 'e', `e.id = ${employeeColumn}`).andWhere(condition.sql, condition.params);
    return qb;
  }

  /** The condition over employees `e` (null: everyone). */
  private async scopeCondition(caller: AuthUser): Promise<ListCondition> {
    const scope = await this.access.scopeOf(caller);
    return scope.kind === 'self' ? this.access.recordsCondition(scope) : this.access.listCondition(scope);
  }
}
