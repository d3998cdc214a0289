import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, MoreThanOrEqual } from 'typeorm';
import { DriverReader } from '../../common/database/driver-reader';
import { insertRows } from '../../common/database/insert-rows';
import { RecordSql, SAMPLE_MANAGER } from '../../common/database/record-sql';
import { ChangeStatus, EmploymentChange, EmploymentSegment } from '../entities/employment-history.entities';
import { Employee } from '../entities/employee.entity';

/** The segment of an employee in force on a day: the latest that began by then. */
const SEGMENT_ON =
  'SELECT effective_from, effective_to, job_title_id, department_id, pay_grade_id, employment_status_id, supervisor_id, ' +
  'approver1_id, approver2_id, approver3_id, calendar_id, salary, change_id, extra FROM employment_segments ' +
  'WHERE employee_id = ? AND effective_from <= ? ORDER BY effective_from DESC LIMIT 1';

/** Rows per multi-row statement. */
const BATCH = 500;

/** The SQL of employment history (issue 43): its changes and the segments they make. */
@Injectable()
export class EmploymentHistoryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Every change of the employee, in order of recording (with `em`: inside the caller's transaction). */
  @RecordSql(null, 1)
  changesOf(em: EntityManager | null, employeeId: number): Promise<EmploymentChange[]> {
    return (em ?? this.ds.manager).getRepository(EmploymentChange).find({ where: { employeeId }, order: { id: 'ASC' } });
  }

  /** Every change of these employees, in order of recording. */
  @RecordSql(SAMPLE_MANAGER, [1, 2])
  async changesOfMany(em: EntityManager, employeeIds: number[]): Promise<EmploymentChange[]> {
    const out: EmploymentChange[] = [];
    for (let i = 0; i < employeeIds.length; i += BATCH)
      out.push(
        ...(await em
          .getRepository(EmploymentChange)
          .find({ where: { employeeId: In(employeeIds.slice(i, i + BATCH)) }, order: { id: 'ASC' } })),
      );
    return out;
  }

  @RecordSql(1)
  change(id: number): Promise<EmploymentChange | null> {
    return this.ds.getRepository(EmploymentChange).findOne({ where: { id } });
  }

  /**
   * Changes of these employees effective by `effectiveBy` that were recorded, or cancelled, after
   * `since`: what reaches back into payrolls paid since then (arrears).
   */
  @RecordSql([1, 2], new Date('2026-06-01T00:00:00Z'), '2026-06-30')
  async changesSince(employeeIds: number[], since: Date, effectiveBy: string): Promise<EmploymentChange[]> {
    const out: EmploymentChange[] = [];
    for (let i = 0; i < employeeIds.length; i += BATCH)
      out.push(
        ...(await this.ds
          .getRepository(EmploymentChange)
          .createQueryBuilder('c')
          .where('c.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + BATCH) })
          .andWhere('c.effective_date <= :effectiveBy', { effectiveBy })
          .andWhere('(c.recorded_at > :since OR c.cancelled_at > :since)', { since })
          .getMany()),
      );
    return out;
  }

  /** Changes by id (those that are gone are absent). */
  @RecordSql([1, 2])
  async changesByIds(ids: number[]): Promise<EmploymentChange[]> {
    const out: EmploymentChange[] = [];
    for (let i = 0; i < ids.length; i += BATCH)
      out.push(...(await this.ds.getRepository(EmploymentChange).find({ where: { id: In(ids.slice(i, i + BATCH)) } })));
    return out;
  }

  /** New changes with `em`, their ids in order. */
  @RecordSql(SAMPLE_MANAGER, [
    {
      employeeId: 1,
      effectiveDate: '2026-12-01',
      reason: 'Promotion',
      fields: '{"job_title":2}',
      salary: null,
      status: 'Scheduled',
      recordedAt: new Date('2026-11-27T10:00:00Z'),
      recordedBy: 1,
      cancelledAt: null,
      corrects: null,
    },
  ])
  async insertChanges(em: EntityManager, rows: Array<Omit<EmploymentChange, 'id'>>): Promise<number[]> {
    const ids: number[] = [];
    // One row a statement: the ids come back in order on both drivers.
    for (const row of rows) {
      const result = await em.insert(EmploymentChange, row);
      ids.push(Number(result.identifiers[0].id));
    }
    return ids;
  }

  /**
   * The first changes of new employees (one each, none before it), with `em`, in multi-row INSERTs;
   * their ids by employee, read back by the employees (an import's 10 000 joiners: one statement
   * per row took 0.65 s).
   */
  @RecordSql(SAMPLE_MANAGER, [
    {
      employeeId: 1,
      effectiveDate: '2026-12-01',
      reason: 'Joined',
      fields: '{"job_title":2}',
      salary: '[]',
      status: 'Scheduled',
      recordedAt: new Date('2026-11-27T11:00:00Z'),
      recordedBy: 1,
      cancelledAt: null,
      corrects: null,
    },
  ])
  async insertFirstChanges(em: EntityManager, rows: Array<Omit<EmploymentChange, 'id'>>): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (let i = 0; i < rows.length; i += BATCH) {
      const chunk = rows.slice(i, i + BATCH);
      await insertRows(em, EmploymentChange, chunk);
      const saved = await em.getRepository(EmploymentChange).find({
        select: { id: true, employeeId: true },
        where: { employeeId: In(chunk.map((r) => r.employeeId)) },
      });
      for (const c of saved) ids.set(c.employeeId, c.id);
    }
    return ids;
  }

  /** Replaces the segments of these employees with `segments` (all of theirs, as known now). */
  @RecordSql(SAMPLE_MANAGER, [1], [])
  async replaceSegments(em: EntityManager, employeeIds: number[], segments: EmploymentSegment[]): Promise<void> {
    for (let i = 0; i < employeeIds.length; i += BATCH)
      await em.delete(EmploymentSegment, { employeeId: In(employeeIds.slice(i, i + BATCH)) });
    await this.insertSegments(em, segments);
  }

  /** The stored segments of these employees (a page's worth), each employee's in date order. */
  async segmentsOfMany(employeeIds: number[]): Promise<Map<number, EmploymentSegment[]>> {
    const out = new Map<number, EmploymentSegment[]>();
    if (!employeeIds.length) return out;
    const rows = await this.ds.getRepository(EmploymentSegment).find({
      where: { employeeId: In(employeeIds) },
      order: { employeeId: 'ASC', effectiveFrom: 'ASC' },
    });
    for (const s of rows) {
      const list = out.get(s.employeeId);
      if (list) list.push(s);
      else out.set(s.employeeId, [s]);
    }
    return out;
  }

  /**
   * The stretches of these employees with a calendar set, overlapping [from, to] (issue 65): the
   * working days read them; a stretch without one is the default calendar's.
   */
  @RecordSql(null, [1, 2], '2026-01-01', '2026-12-31')
  async calendarSpans(
    em: EntityManager | null,
    employeeIds: readonly number[],
    from: string,
    to: string,
  ): Promise<Map<number, Array<{ calendar: number; from: string; to: string | null }>>> {
    const out = new Map<number, Array<{ calendar: number; from: string; to: string | null }>>();
    for (let i = 0; i < employeeIds.length; i += BATCH) {
      const rows = await (em ?? this.ds.manager)
        .createQueryBuilder()
        .from(EmploymentSegment, 's')
        .select('s.employee_id', 'employee')
        .addSelect('s.effective_from', 'from')
        .addSelect('s.effective_to', 'to')
        .addSelect('s.calendar_id', 'calendar')
        .where('s.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + BATCH) })
        .andWhere(
          's.calendar_id IS NOT NULL AND s.effective_from <= :to AND (s.effective_to IS NULL OR s.effective_to >= :from)',
          {
            from,
            to,
          },
        )
        .orderBy('s.employee_id')
        .addOrderBy('s.effective_from')
        .getRawMany<{ employee: number | string; from: string; to: string | null; calendar: number | string }>();
      for (const r of rows) {
        const span = { calendar: Number(r.calendar), from: r.from, to: r.to };
        const list = out.get(Number(r.employee));
        if (list) list.push(span);
        else out.set(Number(r.employee), [span]);
      }
    }
    return out;
  }

  /** How many employees have (or had, or will have) the calendar. */
  @RecordSql(SAMPLE_MANAGER, 1)
  async calendarUsers(em: EntityManager, calendarId: number): Promise<number> {
    const inHistory = await em
      .getRepository(EmploymentSegment)
      .createQueryBuilder('s')
      .select('COUNT(DISTINCT s.employee_id)', 'n')
      .where('s.calendar_id = :calendarId', { calendarId })
      .getRawOne<{ n: number | string }>();
    return Number(inHistory?.n ?? 0) || (await em.count(Employee, { where: { calendarId } }));
  }

  /** The employee's stored segments, in date order. */
  segmentsOf(em: EntityManager, employeeId: number): Promise<EmploymentSegment[]> {
    return em.find(EmploymentSegment, { where: { employeeId }, order: { effectiveFrom: 'ASC' } });
  }

  /** Replaces the employee's segments from `from` on (its earlier ones stay) with `segments`. */
  async replaceSegmentsFrom(em: EntityManager, employeeId: number, from: string, segments: EmploymentSegment[]): Promise<void> {
    await em.delete(EmploymentSegment, { employeeId, effectiveFrom: MoreThanOrEqual(from) });
    await this.insertSegments(em, segments);
  }

  private insertSegments(em: EntityManager, segments: EmploymentSegment[]): Promise<void> {
    return insertRows(em, EmploymentSegment, segments);
  }

  /**
   * The segment of the employee in force on `day` (null before it joined): the hot read of an
   * as-of GET, one statement prepared once (DriverReader), no query building per call.
   */
  @RecordSql(1, '2026-06-30')
  async segmentOn(employeeId: number, day: string): Promise<EmploymentSegment | null> {
    const row = await DriverReader.of(this.ds).first(SEGMENT_ON, [employeeId, day]);
    if (!row) return null;
    const id = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const date = (v: unknown) =>
      typeof v === 'string' ? v.slice(0, 10) : v instanceof Date ? v.toISOString().slice(0, 10) : null;
    return {
      employeeId,
      effectiveFrom: date(row.effective_from)!,
      effectiveTo: date(row.effective_to),
      jobTitleId: id(row.job_title_id),
      departmentId: id(row.department_id),
      payGradeId: id(row.pay_grade_id),
      employmentStatusId: id(row.employment_status_id),
      supervisorId: id(row.supervisor_id),
      approver1Id: id(row.approver1_id),
      approver2Id: id(row.approver2_id),
      approver3Id: id(row.approver3_id),
      calendarId: id(row.calendar_id),
      salary: String(row.salary),
      changeId: Number(row.change_id),
      extra: typeof row.extra === 'string' ? row.extra : null,
    };
  }

  /** The segments in force on `day` of these employees (those not yet joined are absent). */
  @RecordSql([1, 2], '2026-06-30')
  async segmentsOn(employeeIds: number[], day: string): Promise<Map<number, EmploymentSegment>> {
    const out = new Map<number, EmploymentSegment>();
    for (let i = 0; i < employeeIds.length; i += BATCH) {
      const rows = await this.ds
        .getRepository(EmploymentSegment)
        .createQueryBuilder('s')
        .where('s.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + BATCH) })
        .andWhere('s.effective_from <= :day', { day })
        .andWhere('(s.effective_to IS NULL OR s.effective_to >= :day)', { day })
        .getMany();
      for (const s of rows) out.set(s.employeeId, s);
    }
    return out;
  }

  /** The segments of these employees that overlap [from, to] (days, inclusive): a payroll period's history. */
  @RecordSql([1, 2], '2026-06-01', '2026-06-30')
  async segmentsBetween(employeeIds: number[], from: string, to: string): Promise<EmploymentSegment[]> {
    const out: EmploymentSegment[] = [];
    for (let i = 0; i < employeeIds.length; i += BATCH) {
      out.push(
        ...(await this.ds
          .getRepository(EmploymentSegment)
          .createQueryBuilder('s')
          .where('s.employee_id IN (:...ids)', { ids: employeeIds.slice(i, i + BATCH) })
          .andWhere('s.effective_from <= :to', { to })
          .andWhere('(s.effective_to IS NULL OR s.effective_to >= :from)', { from })
          .getMany()),
      );
    }
    return out;
  }

  /** Employees with Scheduled changes due by `day`, lowest id first. */
  @RecordSql('2026-12-01', 500)
  async dueEmployees(day: string, limit: number): Promise<number[]> {
    const rows = await this.ds
      .getRepository(EmploymentChange)
      .createQueryBuilder('c')
      .select('DISTINCT c.employee_id', 'employee')
      .where('c.status = :status', { status: 'Scheduled' satisfies ChangeStatus })
      .andWhere('c.effective_date <= :day', { day })
      .orderBy('c.employee_id', 'ASC')
      .limit(limit)
      .getRawMany<{ employee: number | string }>();
    return rows.map((r) => Number(r.employee));
  }

  get manager(): EntityManager {
    return this.ds.manager;
  }
}
