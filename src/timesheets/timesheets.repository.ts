import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { TimeEntry } from './entities/timesheet.entities';

/** The time entries' queries beyond find-by-id (issue 26): the same-day overlap check and the payroll hook's sums. */
@Injectable()
export class TimesheetsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Active employees who worked on projects in the weeks before `weekStart` (time entries with a
   * project since `since`) and submitted no entry (Submitted or Approved) dated in the week
   * [`weekStart`, `weekEnd`]: the missing-time-entries reminder (issue 30).
   */
  @RecordSql('2026-11-02', '2026-11-16', '2026-11-22')
  async silentProjectWorkers(since: string, weekStart: string, weekEnd: string): Promise<number[]> {
    const rows = await this.ds.query<Array<{ id: number | string }>>(
      `SELECT DISTINCT t.employee_id AS id
         FROM time_entries t
         JOIN employees e ON e.id = t.employee_id AND e.status = 'Active'
        WHERE t.date >= ? AND t.date < ? AND t.project_id IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM time_entries w
             WHERE w.employee_id = t.employee_id AND w.status IN ('Submitted', 'Approved') AND w.date >= ? AND w.date <= ?)
        ORDER BY t.employee_id`,
      [since, weekStart, weekStart, weekEnd],
    );
    return rows.map((r) => Number(r.id));
  }

  /** Whether another entry (not `exceptId`) of the employee's day overlaps [start, end) (HH:MM). */
  @RecordSql(SAMPLE_MANAGER, 1, '2026-03-02', '09:00', '12:00', 2)
  overlaps(
    em: EntityManager | null,
    employeeId: number,
    date: string,
    start: string,
    end: string,
    exceptId?: number,
  ): Promise<boolean> {
    const qb = (em ?? this.ds.manager)
      .getRepository(TimeEntry)
      .createQueryBuilder('t')
      .where('t.employee_id = :employeeId AND t.date = :date', { employeeId, date })
      .andWhere('t.start_time < :end AND t.end_time > :start', { start, end });
    if (exceptId) qb.andWhere('t.id <> :id', { id: exceptId });
    return qb.getExists();
  }

  /** Approved entries dated from `from` to `to` (optionally one project) with their minutes, 1 000 employees a query. */
  @RecordSql([1, 2], '2026-03-01', '2026-03-31', 1)
  async approvedEntries(
    employeeIds: number[],
    from: string,
    to: string,
    project?: number,
  ): Promise<Array<{ id: number; employee: number; minutes: number }>> {
    const out: Array<{ id: number; employee: number; minutes: number }> = [];
    for (let i = 0; i < employeeIds.length; i += 1000) {
      const qb = this.ds
        .getRepository(TimeEntry)
        .createQueryBuilder('t')
        .select('t.id', 'id')
        .addSelect('t.employee_id', 'employee')
        .addSelect('t.minutes', 'minutes')
        .where('t.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + 1000) })
        .andWhere("t.status = 'Approved' AND t.date BETWEEN :from AND :to", { from, to })
        .orderBy('t.id');
      if (project !== undefined) qb.andWhere('t.project_id = :project', { project });
      for (const r of await qb.getRawMany<{ id: number | string; employee: number | string; minutes: number | string }>())
        out.push({ id: Number(r.id), employee: Number(r.employee), minutes: Number(r.minutes) });
    }
    return out;
  }
}
