import { readerFor } from '../common/database/read-replicas';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { RecordSql, RecordSqlAs } from '../common/database/record-sql';
import { sqlDialect, SqlDialect } from '../common/database/sql-dialect';
import { EmployeeScope } from '../employees/core/employee-access.service';
import { EmployeesRepository } from '../employees/core/employees.repository';
import { MAX_LEAVE_SPAN_DAYS } from '../leave/working-days';
import { COUNTED_ENTRY_STATUSES } from '../timesheets/time-entry-days';

/** A day of an insight's period, and its last (YYYY-MM-DD); `from` null: no start. */
export interface PeriodRange {
  /** First day (YYYY-MM-DD), null for `all`. */
  from: string | null;
  /** Today. */
  to: string;
}

/** How the patterns group days: day of month (1-31) or weekday (0 Monday to 6). */
export type DayKey = 'dayOfMonth' | 'weekday';
/** How leaveBy groups. */
export type LeaveKey = 'status' | 'type' | 'department' | DayKey;
/** Requests and days of leave under one key. */
export interface LeaveFigures {
  requests: number;
  days: number;
}

/** A leave day that is its request's first. */
const FIRST_DAY = 'CASE WHEN d.date = d.first_date THEN 1 ELSE 0 END';

/** How leaveBy groups: the key and the mark of a request's first day in it, over leave_day_sums `r` and leave_days `d` (employee `e`). */
interface LeaveGrouping {
  approvedOnly: boolean;
  key: { rollup: string; day: string };
  first: { rollup: string; day: string };
}

/** UTC midnight of a YYYY-MM-DD day as an instant: attendance counts on the UTC day it starts (times are stored in UTC). */
const midnight = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T00:00:00Z`) + plusDays * 86_400_000);
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const round2 = (n: number) => Math.round(n * 100) / 100;
export const round1 = (n: number) => Math.round(n * 10) / 10;

const SAMPLE_RANGE: PeriodRange = { from: '2026-01-01', to: '2026-06-30' };
const SAMPLE_ALL: EmployeeScope = { kind: 'all' };
const SAMPLE_DEPARTMENTS: EmployeeScope = { kind: 'departments', departmentIds: [1, 2] };
const SAMPLE_TEAM: EmployeeScope = { kind: 'team', selfId: 1 };
const SAMPLE_SELF: EmployeeScope = { kind: 'self', selfId: 1 };

/**
 * The insights' SQL (docs/api/decisions.md §11, issue 26): every figure is one GROUP BY aggregation over an
 * indexed date range, restricted to the employees of a scope. The department scopes read the
 * per-day, per-department rollups (leave_day_sums, attendance_days, time_entry_days), a Manager or
 * an Employee the records themselves (leave_days, attendance, time_entries). Read-only.
 */
@Injectable()
export class InsightsRepository {
  private readonly sql: SqlDialect;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {
    this.sql = sqlDialect(ds);
  }

  /** Every leave type's id and name, by name. */
  @RecordSql()
  async leaveTypes(): Promise<Array<{ id: number; name: string }>> {
    const types = await (
      await readerFor(this.ds)
    )
      .createQueryBuilder()
      .select('t.id', 'id')
      .addSelect('t.name', 'name')
      .from('leave_types', 't')
      .orderBy('t.name')
      .getRawMany<{ id: unknown; name: string }>();
    return types.map((t) => ({ id: num(t.id), name: t.name }));
  }

  /** The departments' names by id. */
  @RecordSql([1, 2])
  async departmentNames(ids: number[]): Promise<Array<{ id: number; name: string }>> {
    if (!ids.length) return [];
    const departments = await (
      await readerFor(this.ds)
    )
      .createQueryBuilder()
      .select('dep.id', 'id')
      .addSelect('dep.name', 'name')
      .from('departments', 'dep')
      .where('dep.id IN (:...ids)', { ids })
      .getRawMany<{ id: unknown; name: string }>();
    return departments.map((d) => ({ id: num(d.id), name: d.name }));
  }

  /** Attendance records started in the period: how many, of how many employees, their seconds, how many closed, how many from home. */
  @RecordSqlAs('department scope', SAMPLE_DEPARTMENTS, SAMPLE_RANGE)
  @RecordSqlAs('a manager', SAMPLE_TEAM, SAMPLE_RANGE)
  async attendanceTotals(
    scope: EmployeeScope,
    range: PeriodRange,
  ): Promise<{ records: number; employees: number; seconds: number; completed: number; wfh: number }> {
    const rollup = this.rollup(await readerFor(this.ds), scope, range, 'attendance_days');
    const r = rollup
      ? await rollup
          .select('SUM(r.records)', 'records')
          .addSelect('SUM(r.seconds)', 'seconds')
          .addSelect('SUM(r.completed)', 'completed')
          .addSelect('SUM(r.wfh)', 'wfh')
          .getRawOne<Record<string, unknown>>()
      : await this.attendance(await readerFor(this.ds), scope, range)
          .select('COUNT(*)', 'records')
          .addSelect('COUNT(DISTINCT a.employee_id)', 'employees')
          .addSelect('SUM(a.duration_seconds)', 'seconds')
          .addSelect('COUNT(a.out_time)', 'completed')
          .addSelect('SUM(CASE WHEN a.work_from_home = 1 THEN 1 ELSE 0 END)', 'wfh')
          .getRawOne<Record<string, unknown>>();
    return {
      records: num(r?.records),
      employees: rollup ? await this.employeesWith(scope, range, 'attendance') : num(r?.employees),
      seconds: num(r?.seconds),
      completed: num(r?.completed),
      wfh: num(r?.wfh),
    };
  }

  /** Counted time entries of the period: how many, of how many employees, their minutes. */
  @RecordSqlAs('department scope', SAMPLE_DEPARTMENTS, SAMPLE_RANGE)
  @RecordSqlAs('an employee', SAMPLE_SELF, SAMPLE_RANGE)
  async timeEntryTotals(
    scope: EmployeeScope,
    range: PeriodRange,
  ): Promise<{ entries: number; employees: number; minutes: number }> {
    const rollup = this.rollup(await readerFor(this.ds), scope, range, 'time_entry_days');
    const r = rollup
      ? await rollup
          .select('SUM(r.entries)', 'entries')
          .addSelect('SUM(r.minutes)', 'minutes')
          .getRawOne<Record<string, unknown>>()
      : await this.timeEntries(await readerFor(this.ds), scope, range)
          .select('COUNT(*)', 'entries')
          .addSelect('COUNT(DISTINCT t.employee_id)', 'employees')
          .addSelect('SUM(t.minutes)', 'minutes')
          .getRawOne<Record<string, unknown>>();
    return {
      entries: num(r?.entries),
      employees: rollup ? await this.employeesWith(scope, range, 'time_entries') : num(r?.employees),
      minutes: num(r?.minutes),
    };
  }

  private grouping(key: LeaveKey): LeaveGrouping {
    switch (key) {
      case 'status':
        return {
          approvedOnly: false,
          key: { rollup: 'r.status', day: 'd.status' },
          first: { rollup: 'r.requests', day: FIRST_DAY },
        };
      case 'type':
        return {
          approvedOnly: true,
          key: { rollup: 'r.leave_type_id', day: 'd.leave_type_id' },
          first: { rollup: 'r.requests', day: FIRST_DAY },
        };
      case 'department':
        return {
          approvedOnly: true,
          key: { rollup: 'r.department_id', day: 'COALESCE(e.department_id, 0)' },
          first: { rollup: 'r.requests', day: FIRST_DAY },
        };
      case 'dayOfMonth':
        return {
          approvedOnly: true,
          key: { rollup: this.sql.dayOfMonth('r.day'), day: this.sql.dayOfMonth('d.date') },
          first: { rollup: 'r.dom_requests', day: 'd.first_of_dom' },
        };
      case 'weekday':
        return {
          approvedOnly: true,
          key: { rollup: this.sql.weekday('r.day'), day: this.sql.weekday('d.date') },
          first: { rollup: 'r.weekday_requests', day: 'd.first_of_weekday' },
        };
    }
  }

  /** Attendance hours by `by` of the day (day of month 1-31, weekday 0-6 from Monday): from the rollup for the company and departments. */
  @RecordSqlAs('dayOfMonth, department scope', SAMPLE_DEPARTMENTS, SAMPLE_RANGE, 'dayOfMonth')
  @RecordSqlAs('weekday, a manager', SAMPLE_TEAM, SAMPLE_RANGE, 'weekday')
  async attendanceHoursBy(scope: EmployeeScope, range: PeriodRange, by: DayKey): Promise<Map<number, number>> {
    const key = (day: string) => this.sql[by](day);
    const rollup = this.rollup(await readerFor(this.ds), scope, range, 'attendance_days');
    if (rollup) return this.hoursBy(rollup, key('r.day'), 'r.seconds', 3600);
    return this.hoursBy(this.attendance(await readerFor(this.ds), scope, range), key('a.in_time'), 'a.duration_seconds', 3600);
  }

  /** Time entry hours by `by` of the day: from the rollup for the company and departments. */
  @RecordSqlAs('dayOfMonth, department scope', SAMPLE_DEPARTMENTS, SAMPLE_RANGE, 'dayOfMonth')
  @RecordSqlAs('weekday, a manager', SAMPLE_TEAM, SAMPLE_RANGE, 'weekday')
  async timesheetHoursBy(scope: EmployeeScope, range: PeriodRange, by: DayKey): Promise<Map<number, number>> {
    const key = (day: string) => this.sql[by](day);
    const rollup = this.rollup(await readerFor(this.ds), scope, range, 'time_entry_days');
    if (rollup) return this.hoursBy(rollup, key('r.day'), 'r.minutes', 60);
    return this.hoursBy(this.timeEntries(await readerFor(this.ds), scope, range), key('t.date'), 't.minutes', 60);
  }

  /**
   * Leave in the period by a key: the requests with a leave day there and those days. From
   * leave_day_sums for the department scopes, from leave_days for a Manager or Employee. A request
   * is counted on its first day inside the key (its first day, its first 5th of a month, its first
   * Tuesday: the leave-day marks), which adds up without a DISTINCT; a request begun before the
   * period may have its first such day before it, so the few requests running across the period's
   * start are counted from their days one by one.
   */
  @RecordSqlAs('status, department scope', SAMPLE_DEPARTMENTS, SAMPLE_RANGE, 'status')
  @RecordSqlAs('department, a manager', SAMPLE_TEAM, SAMPLE_RANGE, 'department')
  @RecordSqlAs('dayOfMonth, an employee', SAMPLE_SELF, SAMPLE_RANGE, 'dayOfMonth')
  @RecordSqlAs('weekday, everyone', SAMPLE_ALL, SAMPLE_RANGE, 'weekday')
  async leaveBy(scope: EmployeeScope, range: PeriodRange, key: LeaveKey): Promise<Map<string, LeaveFigures>> {
    const by = this.grouping(key);
    const { from, to } = range;
    const out = new Map<string, LeaveFigures>();
    const add = (rows: Array<{ k: unknown; requests: unknown; days?: unknown }>) => {
      for (const r of rows) {
        const key = String(r.k);
        const sum = out.get(key) ?? { requests: 0, days: 0 };
        out.set(key, { requests: sum.requests + num(r.requests), days: round1(sum.days + num(r.days)) });
      }
    };
    const approved = (qb: SelectQueryBuilder<object>, alias: string) =>
      by.approvedOnly ? qb.andWhere(`${alias}.status = :approved`, { approved: 'Approved' }) : qb;

    const rollup = this.rollup(await readerFor(this.ds), scope, range, 'leave_day_sums');
    if (!rollup) {
      // A Manager's or Employee's own few leave days (scoped() joins their employees `e`).
      const qb = this.scoped(scope, (await readerFor(this.ds)).createQueryBuilder().from('leave_days', 'd'), 'd.employee_id');
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
      await (
        await readerFor(this.ds)
      )
        .createQueryBuilder()
        .select('l.id', 'id')
        .from('leave_requests', 'l')
        .where('l.date_start >= :spanStart AND l.date_start < :from AND l.date_end >= :from', { spanStart, from })
        .getRawMany<{ id: unknown }>()
    ).map((r) => num(r.id));
    for (let i = 0; i < ids.length; i += 5000) {
      const across = (await readerFor(this.ds))
        .createQueryBuilder()
        .from('leave_days', 'd')
        .where('d.request_id IN (:...ids)', { ids: ids.slice(i, i + 5000) })
        .andWhere('d.date >= :from AND d.date <= :to', { from, to });
      // The department key reads the employee `e`: joined for every scope (an Admin's too).
      this.scoped(scope, across, 'd.employee_id', true);
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
  private rollup(ds: DataSource, scope: EmployeeScope, range: PeriodRange, table: string): SelectQueryBuilder<object> | null {
    if (scope.kind !== 'all' && scope.kind !== 'departments') return null;
    const { from, to } = range;
    const qb = ds.createQueryBuilder().from(table, 'r').where('r.day <= :to', { to });
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
  private async employeesWith(scope: EmployeeScope, range: PeriodRange, source: 'attendance' | 'time_entries'): Promise<number> {
    const perEmployee =
      source === 'attendance'
        ? this.attendance(await readerFor(this.ds), null, range)
            .select('a.employee_id', 'employee_id')
            .addSelect('MIN(a.in_time)', 'first')
            .groupBy('a.employee_id')
        : this.timeEntries(await readerFor(this.ds), null, range)
            .select('t.employee_id', 'employee_id')
            .addSelect('MIN(t.date)', 'first')
            .groupBy('t.employee_id')
            .addGroupBy('t.status');
    const qb = (await readerFor(this.ds))
      .createQueryBuilder()
      .from(`(${perEmployee.getQuery()})`, 'x')
      .setParameters(perEmployee.getParameters())
      .select('COUNT(DISTINCT x.employee_id)', 'n');
    this.scoped(scope, qb, 'x.employee_id');
    return num((await qb.getRawOne<{ n: unknown }>())?.n);
  }

  /** attendance `a` started in the period (an attendance record's hours count on the day it starts); null scope: everyone's. */
  private attendance(ds: DataSource, scope: EmployeeScope | null, range: PeriodRange): SelectQueryBuilder<object> {
    const { from, to } = range;
    const qb = ds
      .createQueryBuilder()
      .from('attendance', 'a')
      .where('a.in_time < :end', { end: midnight(to, 1) });
    if (from) qb.andWhere('a.in_time >= :start', { start: midnight(from) });
    return scope ? this.scoped(scope, qb, 'a.employee_id') : qb;
  }

  /** time_entries `t` of the period that count as worked time (not rejected); null scope: everyone's. */
  private timeEntries(ds: DataSource, scope: EmployeeScope | null, range: PeriodRange): SelectQueryBuilder<object> {
    const { from, to } = range;
    const qb = ds
      .createQueryBuilder()
      .from('time_entries', 't')
      .where('t.date <= :to', { to })
      .andWhere('t.status IN (:...counted)', { counted: COUNTED_ENTRY_STATUSES });
    if (from) qb.andWhere('t.date >= :from', { from });
    return scope ? this.scoped(scope, qb, 't.employee_id') : qb;
  }

  /**
   * Insights scope (docs/api/decisions.md §5): Admin everyone (no join), Restricted Admin its department subtree,
   * Manager its direct reports, Employee itself, a user without an employee nobody; the employees
   * joined as `e`.
   */
  private scoped(scope: EmployeeScope, qb: SelectQueryBuilder<object>, employeeColumn: string, alwaysJoin = false) {
    return this.employees.restrictToScope(qb, employeeColumn, scope, scope.kind === 'self' ? 'records' : 'list', alwaysJoin);
  }
}
