import { Inject, Injectable } from '@nestjs/common';
import { SummedDay } from '../calendars/working-days.service';
import { CompanyClock } from '../common/time/company-clock';
import { RecentResults } from '../common/cache/recent-results';
import { DomainException } from '../common/errors/domain.exception';
import { AuthUser } from '../common/auth/auth-user';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { EmployeeAccessService, EmployeeScope } from '../employees/core/employee-access.service';
import { fromH } from '../leave/engine/accrual-engine';
import { LeaveBalancesService } from '../leave/ledger/leave-balances.service';
import { LeaveLiabilityService } from '../leave/ledger/leave-liability.service';
import { AttendanceExpectations } from './attendance-expectations';
import { InsightsRepository, LeaveFigures, LeaveKey, PeriodRange, round1 } from './insights.repository';
import {
  AttendanceInsightDto,
  DayOfMonthValueDto,
  INSIGHT_NAMES,
  InsightPeriod,
  LeaveDepartmentShareDto,
  LeaveLiabilityDto,
  LeaveStatusSummaryDto,
  LeaveTypeShareDto,
  TimesheetInsightDto,
  WEEKDAY_NAMES,
  WeekdayValueDto,
} from './insights.dto';

const LEAVE_STATUSES = ['Pending', 'Approved', 'Rejected', 'Cancelled'];

/**
 * The period ending `today` (the company's day): `6months` runs from the day after the same date
 * six months earlier (clamped to that month's end: 31 August → from 1 March), and so on; `all` has
 * no start. Day arithmetic on the date (UTC, where no zone moves a day).
 */
export type { PeriodRange };

export function periodRange(period: InsightPeriod, today: string): PeriodRange {
  const months = { '6months': 6, '1year': 12, '2years': 24, '3years': 36, all: 0 }[period];
  if (!months) return { from: null, to: today };
  const [y, m, d] = today.split('-').map(Number);
  const month = m - 1 - months;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  const start = new Date(Date.UTC(y, month, Math.min(d, lastDay) + 1));
  return { from: start.toISOString().slice(0, 10), to: today };
}

type Insights = InsightsService['insights'];
export type InsightName = keyof Insights;

export function scopeKey(scope: EmployeeScope): string {
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

const round2 = (n: number) => Math.round(n * 100) / 100;

/** Days' working time summed into `size` buckets by `bucketOf`, rounded to 1 decimal. */
function sumBy(days: readonly SummedDay[], bucketOf: (d: SummedDay) => number, size: number): number[] {
  const out = new Array<number>(size).fill(0);
  for (const d of days) out[bucketOf(d)] += d.days;
  return out.map(round1);
}

/**
 * The eleven insights (docs/api/decisions.md §11): the period, the caller's scope (Admin the company, Restricted
 * Admin its department subtree, Manager its direct reports, Employee itself), the shapes and a
 * cache; the aggregations are InsightsRepository's.
 */
@Injectable()
export class InsightsService {
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
    private readonly access: EmployeeAccessService,
    private readonly repository: InsightsRepository,
    private readonly ledger: LeaveBalancesService,
    private readonly liability: LeaveLiabilityService,
    private readonly clock: CompanyClock,
    private readonly expectations: AttendanceExpectations,
  ) {
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
    const key = `${name}|${period}|${(await this.range(period)).to}|${scopeKey(await this.access.scopeOf(caller))}`;
    return this.cache.get(key, compute) as Promise<Awaited<ReturnType<Insights[N]>>>;
  }

  /**
   * GET /insights/leave-liability/{period}: the days owed per leave type and department at the end
   * of a leave period (its id), or today (one of the insight periods, which all end today), from
   * the leave ledger, in the caller's scope; most days first. Cached as the other insights.
   */
  async leaveLiability(caller: AuthUser, period: InsightPeriod | number): Promise<LeaveLiabilityDto[]> {
    const day = typeof period === 'number' ? await this.ledger.periodEnd(period) : (await this.range(period)).to;
    if (!day) throw new DomainException('NOT_FOUND', `Leave period ${period} not found`);
    const scope = await this.access.scopeOf(caller);
    const compute = async () => {
      const rows = await this.liability.liability(scope, day);
      const types = new Map((await this.repository.leaveTypes()).map((t) => [t.id, t.name]));
      const departments = new Map(
        (await this.repository.departmentNames(rows.flatMap((r) => (r.department === null ? [] : [r.department])))).map((d) => [
          d.id,
          d.name,
        ]),
      );
      return rows
        .map((r) => ({
          leave_type: r.leaveType,
          leave_type_name: types.get(r.leaveType) ?? '',
          department: r.department,
          department_name: r.department === null ? null : (departments.get(r.department) ?? null),
          employees: r.employees,
          days: fromH(r.days),
        }))
        .sort((a, b) => b.days - a.days || a.leave_type - b.leave_type || (a.department ?? 0) - (b.department ?? 0));
    };
    if (!this.config.insightsCacheMs) return compute();
    return this.cache.get(`leave-liability|${day}|${scopeKey(scope)}`, compute) as Promise<LeaveLiabilityDto[]>;
  }

  async leaveSummary(caller: AuthUser, period: InsightPeriod): Promise<LeaveStatusSummaryDto[]> {
    const rows = await this.leaveBy(caller, period, 'status');
    return LEAVE_STATUSES.map((status) => ({ status, ...(rows.get(status) ?? { requests: 0, days: 0 }) }));
  }

  async leaveMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const rows = await this.leaveBy(caller, period, 'dayOfMonth');
    return Array.from({ length: 31 }, (_, i) => {
      const r = rows.get(String(i + 1));
      return { day: i + 1, value: r?.requests ?? 0, days: r?.days ?? 0 };
    });
  }

  async leaveWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const rows = await this.leaveBy(caller, period, 'weekday');
    return WEEKDAY_NAMES.map((day, i) => ({
      day,
      value: rows.get(String(i))?.requests ?? 0,
      days: rows.get(String(i))?.days ?? 0,
    }));
  }

  /** Every leave type, with its approved requests and days in the period (zeros included). */
  async leaveTypeDistribution(caller: AuthUser, period: InsightPeriod): Promise<LeaveTypeShareDto[]> {
    const rows = await this.leaveBy(caller, period, 'type');
    return (await this.repository.leaveTypes()).map((t) => {
      const r = rows.get(String(t.id));
      return { leave_type: t.id, name: t.name, requests: r?.requests ?? 0, days: r?.days ?? 0 };
    });
  }

  /** The departments with approved leave in the period, most days first. */
  async leaveByDepartment(caller: AuthUser, period: InsightPeriod): Promise<LeaveDepartmentShareDto[]> {
    const rows = await this.leaveBy(caller, period, 'department');
    const ids = [...rows.keys()].map(Number).filter((id) => id > 0);
    return (await this.repository.departmentNames(ids))
      .map((d) => ({ department: d.id, name: d.name, ...(rows.get(String(d.id)) as LeaveFigures) }))
      .filter((d) => d.requests > 0 || d.days > 0)
      .sort((a, b) => b.days - a.days || a.name.localeCompare(b.name));
  }

  async attendanceSummary(caller: AuthUser, period: InsightPeriod): Promise<AttendanceInsightDto> {
    const scope = await this.access.scopeOf(caller);
    const range = await this.range(period);
    const [r, owed] = await Promise.all([this.repository.attendanceTotals(scope, range), this.expectations.byDay(scope, range)]);
    const hours = r.seconds / 3600;
    return {
      records: r.records,
      employees: r.employees,
      total_hours: round2(hours),
      average_hours: r.completed ? round2(hours / r.completed) : 0,
      work_from_home_records: r.wfh,
      expected_days: round1(owed.reduce((sum, d) => sum + d.days, 0)),
    };
  }

  async attendanceMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const scope = await this.access.scopeOf(caller);
    const range = await this.range(period);
    const [hours, owed] = await Promise.all([
      this.repository.attendanceHoursBy(scope, range, 'dayOfMonth'),
      this.expectations.byDay(scope, range),
    ]);
    const expected = sumBy(owed, (d) => Number(d.date.slice(8, 10)) - 1, 31);
    return Array.from({ length: 31 }, (_, i) => ({ day: i + 1, value: hours.get(i + 1) ?? 0, expected_days: expected[i] }));
  }

  async attendanceWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const scope = await this.access.scopeOf(caller);
    const range = await this.range(period);
    const [hours, owed] = await Promise.all([
      this.repository.attendanceHoursBy(scope, range, 'weekday'),
      this.expectations.byDay(scope, range),
    ]);
    const expected = sumBy(owed, (d) => d.weekday - 1, 7);
    return WEEKDAY_NAMES.map((day, i) => ({ day, value: hours.get(i) ?? 0, expected_days: expected[i] }));
  }

  async timesheetSummary(caller: AuthUser, period: InsightPeriod): Promise<TimesheetInsightDto> {
    const r = await this.repository.timeEntryTotals(await this.access.scopeOf(caller), await this.range(period));
    const hours = r.minutes / 60;
    return {
      entries: r.entries,
      employees: r.employees,
      total_hours: round2(hours),
      average_hours: r.entries ? round2(hours / r.entries) : 0,
    };
  }

  async timesheetMonthlyPattern(caller: AuthUser, period: InsightPeriod): Promise<DayOfMonthValueDto[]> {
    const hours = await this.repository.timesheetHoursBy(
      await this.access.scopeOf(caller),
      await this.range(period),
      'dayOfMonth',
    );
    return Array.from({ length: 31 }, (_, i) => ({ day: i + 1, value: hours.get(i + 1) ?? 0 }));
  }

  async timesheetWeeklyPattern(caller: AuthUser, period: InsightPeriod): Promise<WeekdayValueDto[]> {
    const hours = await this.repository.timesheetHoursBy(await this.access.scopeOf(caller), await this.range(period), 'weekday');
    return WEEKDAY_NAMES.map((day, i) => ({ day, value: hours.get(i) ?? 0 }));
  }

  private async leaveBy(caller: AuthUser, period: InsightPeriod, key: LeaveKey): Promise<Map<string, LeaveFigures>> {
    return this.repository.leaveBy(await this.access.scopeOf(caller), await this.range(period), key);
  }

  private async range(period: InsightPeriod): Promise<PeriodRange> {
    return periodRange(period, await this.clock.today());
  }
}
