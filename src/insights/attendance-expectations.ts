import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CalendarStretch, SummedDay, WorkingDaysService } from '../calendars/working-days.service';
import { readerFor } from '../common/database/read-replicas';
import { RecordSqlAs } from '../common/database/record-sql';
import { EmployeeScope } from '../employees/core/employee-access.service';
import { EmployeesRepository } from '../employees/core/employees.repository';
import type { PeriodRange } from './insights.repository';

/** The later of two dates, spelled alike in SQLite and MariaDB. */
const later = (a: string, b: string) => `CASE WHEN ${a} > ${b} THEN ${a} ELSE ${b} END`;

const SAMPLE_RANGE: PeriodRange = { from: '2026-01-01', to: '2026-06-30' };

/**
 * The attendance insights' expectations (issue 65 item 4, docs/api/insights.md): the working days
 * the employees of a scope owed in a period, each day by the calendar each had that day (the
 * employment history's `calendar`) and only while employed (from its joined date to its termination
 * date, inclusive, as payroll prorates). One GROUP BY over the history's segments gives the
 * stretches of employees sharing a calendar and first and last day (at 100 000 employees a few
 * thousand rows, one per joining date), and WorkingDaysService sums their days in one pass per
 * calendar: no employee's days are ever listed.
 */
@Injectable()
export class AttendanceExpectations {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
    private readonly workingDays: WorkingDaysService,
  ) {}

  /** Per day of the period (from the earliest employment for `all`), the working days owed. */
  async byDay(scope: EmployeeScope, range: PeriodRange): Promise<SummedDay[]> {
    return this.workingDays.summedByDay(await this.stretches(scope, range));
  }

  /**
   * The scope's employees grouped by calendar, first day (the later of the segment's start, the
   * joining and the period's start) and last day (the earlier of the segment's end and the period's
   * end; the termination date applied after). The department scope counts a segment under its own
   * department, as the attendance rollups count a day.
   */
  @RecordSqlAs('department scope', { kind: 'departments', departmentIds: [1, 2] }, SAMPLE_RANGE)
  @RecordSqlAs('a manager', { kind: 'team', selfId: 1 }, SAMPLE_RANGE)
  async stretches(scope: EmployeeScope, range: PeriodRange): Promise<CalendarStretch[]> {
    const { from, to } = range;
    const first = from ? later(later('s.effective_from', 'e.joined_date'), ':from') : later('s.effective_from', 'e.joined_date');
    const qb = (await readerFor(this.ds))
      .createQueryBuilder()
      .from('employment_segments', 's')
      .select('s.calendar_id', 'calendar')
      .addSelect(first, 'first')
      .addSelect('CASE WHEN s.effective_to IS NULL OR s.effective_to > :to THEN :to ELSE s.effective_to END', 'last')
      .addSelect(
        'CASE WHEN e.termination_date IS NULL OR e.termination_date > :to THEN NULL ELSE e.termination_date END',
        'leaves',
      )
      .addSelect('COUNT(*)', 'n')
      .where('s.effective_from <= :to', { to })
      .groupBy('s.calendar_id')
      .addGroupBy('first')
      .addGroupBy('last')
      .addGroupBy('leaves');
    if (from) qb.andWhere('(s.effective_to IS NULL OR s.effective_to >= :from)', { from });
    if (scope.kind === 'departments') {
      qb.innerJoin('employees', 'e', 'e.id = s.employee_id');
      if (scope.departmentIds.length) qb.andWhere('s.department_id IN (:...departments)', { departments: scope.departmentIds });
      else qb.andWhere('1 = 0');
    } else this.employees.restrictToScope(qb, 's.employee_id', scope, scope.kind === 'self' ? 'records' : 'list', true);
    qb.andWhere('e.joined_date <= :to', { to });
    if (from) qb.andWhere('(e.termination_date IS NULL OR e.termination_date >= :from)', { from });
    const rows = await qb.getRawMany<{ calendar: unknown; first: string; last: string; leaves: string | null; n: unknown }>();
    return rows.flatMap((r) => {
      const last = r.leaves && r.leaves < r.last ? r.leaves : r.last;
      return r.first > last
        ? []
        : [{ calendar: r.calendar === null ? null : Number(r.calendar), from: r.first, to: last, count: Number(r.n) }];
    });
  }
}
