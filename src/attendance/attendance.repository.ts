import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { AttendanceRecord } from './entities/attendance.entity';

const SAMPLE_AT = new Date('2026-03-02T09:00:00Z');

/** The attendance queries beyond find-by-id (issue 26): overlap checks, the summary and the payroll hook's sums. */
@Injectable()
export class AttendanceRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Whether a record of the employee ends after `at` (an open record must not cover an existing one). */
  @RecordSql(SAMPLE_MANAGER, 1, SAMPLE_AT)
  endsAfter(em: EntityManager | null, employeeId: number, at: Date): Promise<boolean> {
    return (em ?? this.ds.manager)
      .getRepository(AttendanceRecord)
      .createQueryBuilder('a')
      .where('a.employee_id = :employeeId AND a.out_time > :at', { employeeId, at })
      .getExists();
  }

  /** Whether a record of the employee other than `exceptId` overlaps [start, end) (an open record runs on; null end: open). */
  @RecordSql(SAMPLE_MANAGER, 1, SAMPLE_AT, new Date('2026-03-02T17:00:00Z'), 2)
  overlaps(em: EntityManager | null, employeeId: number, start: Date, end: Date | null, exceptId?: number): Promise<boolean> {
    const qb = (em ?? this.ds.manager)
      .getRepository(AttendanceRecord)
      .createQueryBuilder('a')
      .where('a.employee_id = :employeeId', { employeeId })
      .andWhere(new Brackets((b) => b.where('a.out_time IS NULL').orWhere('a.out_time > :start', { start })));
    if (end) qb.andWhere('a.in_time < :end', { end });
    if (exceptId) qb.andWhere('a.id <> :exceptId', { exceptId });
    return qb.getExists();
  }

  /** The employee's records: how many, how many closed, their seconds, since `monthStart`, from home; one aggregate query. */
  @RecordSql(1, new Date('2026-03-01T00:00:00Z'))
  async summary(
    employeeId: number,
    monthStart: Date,
  ): Promise<{ records: number; closed: number; seconds: number; thisMonth: number; wfh: number }> {
    const row = await this.ds
      .getRepository(AttendanceRecord)
      .createQueryBuilder('a')
      .select('COUNT(*)', 'records')
      .addSelect('COUNT(a.duration_seconds)', 'closed')
      .addSelect('COALESCE(SUM(a.duration_seconds), 0)', 'seconds')
      .addSelect('COALESCE(SUM(CASE WHEN a.in_time >= :monthStart THEN 1 ELSE 0 END), 0)', 'thisMonth')
      .addSelect('COALESCE(SUM(CASE WHEN a.work_from_home = 1 THEN 1 ELSE 0 END), 0)', 'wfh')
      .where('a.employee_id = :employeeId', { employeeId, monthStart })
      .getRawOne<Record<'records' | 'closed' | 'seconds' | 'thisMonth' | 'wfh', string | number>>();
    const n = (k: keyof NonNullable<typeof row>) => Number(row?.[k] ?? 0);
    return { records: n('records'), closed: n('closed'), seconds: n('seconds'), thisMonth: n('thisMonth'), wfh: n('wfh') };
  }

  /**
   * For payroll hooks: the closed records starting from `from` to `to` (days, both included), each
   * with its UTC day of punch-in and seconds (the hooks sum them per day, and a run keeps their ids
   * as its inputs' sources); one query per 1 000 employees.
   */
  @RecordSql([1, 2], '2026-03-01', '2026-03-31')
  async closedRecords(
    employeeIds: number[],
    from: string,
    to: string,
  ): Promise<Array<{ id: number; employee: number; day: string; seconds: number }>> {
    const out: Array<{ id: number; employee: number; day: string; seconds: number }> = [];
    for (let i = 0; i < employeeIds.length; i += 1000) {
      const rows = await this.ds
        .getRepository(AttendanceRecord)
        .createQueryBuilder('a')
        .select('a.id', 'id')
        .addSelect('a.employee_id', 'employee')
        .addSelect('DATE(a.in_time)', 'day')
        .addSelect('a.duration_seconds', 'seconds')
        .where('a.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + 1000) })
        .andWhere('a.in_time >= :from AND a.in_time < :end', {
          from: new Date(`${from}T00:00:00Z`),
          end: new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000),
        })
        .andWhere('a.duration_seconds IS NOT NULL')
        .orderBy('a.id')
        .getRawMany<{ id: number | string; employee: number | string; day: string | Date; seconds: number | string }>();
      for (const r of rows) {
        out.push({
          id: Number(r.id),
          employee: Number(r.employee),
          day: r.day instanceof Date ? r.day.toISOString().slice(0, 10) : String(r.day).slice(0, 10),
          seconds: Number(r.seconds),
        });
      }
    }
    return out;
  }
}
