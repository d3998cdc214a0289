import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql, SAMPLE_MANAGER } from '../common/database/record-sql';
import { LeaveRequest, LeaveStatus } from './entities/leave.entities';

/** The leave requests' queries beyond find-by-id (issue 26): overlaps, counts and sums by status, the payroll hook's read. */
@Injectable()
export class LeaveRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The employee's first Pending or Approved request overlapping [start, end] (days), or null. */
  @RecordSql(SAMPLE_MANAGER, 1, '2026-03-02', '2026-03-06')
  firstOverlapping(em: EntityManager | null, employeeId: number, start: string, end: string): Promise<LeaveRequest | null> {
    return (em ?? this.ds.manager)
      .getRepository(LeaveRequest)
      .createQueryBuilder('l')
      .where('l.employee_id = :employeeId', { employeeId })
      .andWhere('l.status IN (:...active)', { active: ['Pending', 'Approved'] })
      .andWhere('l.date_start <= :end AND l.date_end >= :start', { start, end })
      .orderBy('l.date_start', 'ASC')
      .limit(1)
      .getOne();
  }

  /** The employee's requests (all periods) by status. */
  @RecordSql(1)
  async countsByStatus(employeeId: number): Promise<Map<LeaveStatus, number>> {
    const rows = await this.ds
      .getRepository(LeaveRequest)
      .createQueryBuilder('l')
      .select('l.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .where('l.employee_id = :employeeId', { employeeId })
      .groupBy('l.status')
      .getRawMany<{ status: LeaveStatus; n: string | number }>();
    return new Map(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** Days of the employee's Pending and Approved requests starting in [start, end], by type and status. */
  @RecordSql(SAMPLE_MANAGER, 1, [1, 2], '2026-01-01', '2026-12-31')
  async daysByTypeAndStatus(
    em: EntityManager | null,
    employeeId: number,
    typeIds: number[],
    start: string,
    end: string,
  ): Promise<Array<{ type: number; status: LeaveStatus; days: number }>> {
    if (!typeIds.length) return [];
    const rows = await (em ?? this.ds.manager)
      .getRepository(LeaveRequest)
      .createQueryBuilder('l')
      .select('l.leave_type_id', 'type')
      .addSelect('l.status', 'status')
      .addSelect('SUM(l.days)', 'days')
      .where('l.employee_id = :employeeId', { employeeId })
      .andWhere('l.leave_type_id IN (:...typeIds)', { typeIds })
      .andWhere('l.status IN (:...counted)', { counted: ['Pending', 'Approved'] })
      .andWhere('l.date_start BETWEEN :start AND :end', { start, end })
      .groupBy('l.leave_type_id')
      .addGroupBy('l.status')
      .getRawMany<{ type: number | string; status: LeaveStatus; days: string | number }>();
    return rows.map((r) => ({ type: Number(r.type), status: r.status, days: Number(r.days) }));
  }

  /** Approved requests of the employees (1 000 a query) overlapping [from, to], optionally of one type. */
  @RecordSql([1, 2], '2026-03-01', '2026-03-31', 1)
  async approvedOverlapping(employeeIds: number[], from: string, to: string, leaveType?: number): Promise<LeaveRequest[]> {
    const out: LeaveRequest[] = [];
    for (let i = 0; i < employeeIds.length; i += 1000) {
      const qb = this.ds
        .getRepository(LeaveRequest)
        .createQueryBuilder('l')
        .where('l.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + 1000) })
        .andWhere("l.status = 'Approved' AND l.date_start <= :to AND l.date_end >= :from", { from, to });
      if (leaveType !== undefined) qb.andWhere('l.leave_type_id = :leaveType', { leaveType });
      out.push(...(await qb.getMany()));
    }
    return out;
  }

  /** Of `ids`, the employees on approved leave on `day` (approval chains pass over an approver who is away). */
  @RecordSql(SAMPLE_MANAGER, [1, 2], '2026-03-02')
  async awayOn(em: EntityManager | null, ids: number[], day: string): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await (em ?? this.ds.manager)
      .getRepository(LeaveRequest)
      .createQueryBuilder('l')
      .select('DISTINCT l.employee_id', 'employee_id')
      .where("l.status = 'Approved'")
      .andWhere('l.employee_id IN (:...ids)', { ids })
      .andWhere('l.date_start <= :day AND l.date_end >= :day', { day })
      .getRawMany<{ employee_id: number | string }>();
    return new Set(rows.map((r) => Number(r.employee_id)));
  }
  /**
   * The Pending and Approved requests overlapping [from, to] (all employees, or those of
   * `employeeId`), oldest first: what a change of working days may touch (LeaveRecomputeService).
   */
  @RecordSql(SAMPLE_MANAGER, '2026-03-02', '2026-03-06', 1)
  openOverlapping(em: EntityManager | null, from: string, to: string | null, employeeId?: number): Promise<LeaveRequest[]> {
    const qb = (em ?? this.ds.manager)
      .getRepository(LeaveRequest)
      .createQueryBuilder('l')
      .where('l.status IN (:...open)', { open: ['Pending', 'Approved'] })
      .andWhere('l.date_end >= :from', { from });
    if (to !== null) qb.andWhere('l.date_start <= :to', { to });
    if (employeeId !== undefined) qb.andWhere('l.employee_id = :employeeId', { employeeId });
    return qb.orderBy('l.id', 'ASC').getMany();
  }
}
