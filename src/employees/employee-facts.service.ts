import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { wholeYears } from './core/employee-rules';
import { Employee } from './entities/employee.entity';
import { EmployeeName, EmployeesRepository } from './core/employees.repository';
import { EmploymentHistoryRepository } from './history/employment-history.repository';
import { SalaryLine } from './history/employment-history';
import { datedProps } from './history/employment-history.writer';

/** A recorded employment change as other modules name it (its id, day, reason, and when and by whom it was recorded). */
export interface EmploymentChangeRef {
  id: number;
  effective_date: string;
  reason: string | null;
  recorded_at: string;
  recorded_by: number | null;
}

/** A stretch of an employee's history with its salary: days `from`..`to` (inclusive; null: open), and the change that began it. */
export interface SalarySegment {
  from: string;
  to: string | null;
  salary: SalaryLine[];
  change: number;
}

/** What other modules read about employees without a caller's scope: approvers, names, payroll's fields. */
@Injectable()
export class EmployeeFactsService {
  private readonly employees: Repository<Employee>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly repository: EmployeesRepository,
    private readonly history: EmploymentHistoryRepository,
  ) {
    this.employees = dataSource.getRepository(Employee);
  }

  /** The employee's supervisor and approvers 1-3 (employee ids, distinct): who decides its leave and time entries. */
  async approversOf(id: number): Promise<number[]> {
    const e = await this.employees.findOne({
      select: { id: true, supervisorId: true, approver1Id: true, approver2Id: true, approver3Id: true },
      where: { id },
    });
    if (!e) return [];
    return [...new Set([e.supervisorId, e.approver1Id, e.approver2Id, e.approver3Id].filter((x): x is number => x !== null))];
  }

  /** The employee's department; null without one or for an employee that is gone. */
  async departmentOf(id: number): Promise<number | null> {
    const e = await this.employees.findOne({ where: { id }, select: { id: true, departmentId: true } });
    return e?.departmentId ?? null;
  }

  /**
   * The department of each of these employees on `day`, by its history (one not yet joined that
   * day: its department now); deleted employees are absent, an employee without one maps to null.
   */
  async departmentsOn(ids: number[], day: string): Promise<Map<number, number | null>> {
    const segments = await this.history.segmentsOn(ids, day);
    const out = new Map<number, number | null>();
    const missing = ids.filter((id) => !segments.has(id));
    for (let i = 0; i < missing.length; i += 1000)
      for (const e of await this.employees.find({
        select: { id: true, departmentId: true },
        where: { id: In(missing.slice(i, i + 1000)) },
      }))
        out.set(e.id, e.departmentId);
    for (const [id, s] of segments) out.set(id, s.departmentId);
    return out;
  }

  /** Names of many employees (deleted ones are absent). */
  namesOf(ids: number[]): Promise<Map<number, EmployeeName>> {
    return this.repository.namesOf(ids);
  }

  /** "First Last" of an employee, null when there is none (e-mails, payslips). */
  async displayName(id: number): Promise<string | null> {
    const e = await this.employees.findOne({ where: { id }, select: { id: true, firstName: true, lastName: true } });
    return e ? `${e.firstName} ${e.lastName}` : null;
  }

  /** The employee's termination date, null without one (or when it is gone). */
  async terminationDateOf(id: number): Promise<string | null> {
    return (await this.repository.employmentDatesOf([id])).get(id)?.terminated ?? null;
  }

  /** As displayName, `Employee <id>` for one that is gone (notification and task texts). */
  async nameOf(id: number): Promise<string> {
    return (await this.displayName(id)) ?? `Employee ${id}`;
  }

  /** Recorded employment changes by id, as a payroll diff names them (those that are gone are absent). */
  async employmentChanges(ids: number[]): Promise<Map<number, EmploymentChangeRef>> {
    const rows = ids.length ? await this.history.changesByIds([...new Set(ids)]) : [];
    return new Map(
      rows.map((c) => [
        c.id,
        {
          id: c.id,
          effective_date: c.effectiveDate,
          reason: c.reason,
          recorded_at: c.recordedAt.toISOString(),
          recorded_by: c.recordedBy,
        },
      ]),
    );
  }

  /**
   * The dated fields each of these changes sets (`calendar` also when it sets it back to null, which
   * the change's event leaves out: an event lists what a create sets to a value), with its
   * effective date.
   */
  async changeFields(ids: number[]): Promise<Map<number, { effectiveDate: string; fields: string[] }>> {
    const rows = ids.length ? await this.history.changesByIds([...new Set(ids)]) : [];
    return new Map(
      rows.map((c) => [c.id, { effectiveDate: c.effectiveDate, fields: Object.keys(JSON.parse(c.fields) as object) }]),
    );
  }

  /**
   * Changes of these employees effective by `effectiveBy` recorded or cancelled after `since`
   * (payroll arrears: what reaches back into a paid run): employee id → its changes.
   */
  async changesSince(
    ids: number[],
    since: Date,
    effectiveBy: string,
  ): Promise<Map<number, Array<{ id: number; effectiveDate: string; recordedAt: Date; cancelledAt: Date | null }>>> {
    const out = new Map<number, Array<{ id: number; effectiveDate: string; recordedAt: Date; cancelledAt: Date | null }>>();
    if (!ids.length) return out;
    for (const c of await this.history.changesSince(ids, since, effectiveBy))
      out.set(c.employeeId, [
        ...(out.get(c.employeeId) ?? []),
        { id: c.id, effectiveDate: c.effectiveDate, recordedAt: c.recordedAt, cancelledAt: c.cancelledAt },
      ]);
    return out;
  }

  /**
   * Each employee's employment over [from, to] (a payroll's period): its joined and termination
   * dates and the segments of its history that overlap the period with their salaries, oldest
   * first; an employee without history has none (payroll reads its current salary then).
   */
  async employmentBetween(
    ids: number[],
    from: string,
    to: string,
  ): Promise<Map<number, { joined: string; terminated: string | null; segments: SalarySegment[] }>> {
    const [dates, segments] = await Promise.all([
      this.repository.employmentDatesOf(ids),
      this.history.segmentsBetween(ids, from, to),
    ]);
    const out = new Map([...dates].map(([id, d]) => [id, { ...d, segments: [] as SalarySegment[] }]));
    for (const s of segments.sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom)))
      out.get(s.employeeId)?.segments.push({
        from: s.effectiveFrom,
        to: s.effectiveTo,
        salary: JSON.parse(s.salary) as SalaryLine[],
        change: s.changeId,
      });
    return out;
  }

  /**
   * The numeric fields payroll scripts read (employee.<field>), for many employees at once: the
   * dated ones (department, job title, pay grade, employment status, supervisor) in force on
   * `asOf` (YYYY-MM-DD, a payroll's last day) from the employment history, today's for an employee
   * that had not joined by then; age and years of service in whole years at `asOf`, null when the
   * date is not set.
   */
  async formulaFields(ids: number[], asOf: string): Promise<Map<number, Record<string, number | null>>> {
    const out = new Map<number, Record<string, number | null>>();
    const years = (date: string | null) => wholeYears(date, asOf);
    for (let i = 0; i < ids.length; i += 1000) {
      const select = {
        ...{ id: true, departmentId: true, jobTitleId: true, payGradeId: true, employmentStatusId: true },
        ...{ supervisorId: true, birthday: true, joinedDate: true },
      } as const;
      const chunk = ids.slice(i, i + 1000);
      const [rows, segments] = await Promise.all([
        this.employees.find({ select, where: { id: In(chunk) } }),
        this.history.segmentsOn(chunk, asOf),
      ]);
      for (const row of rows) {
        const s = segments.get(row.id);
        const e = s ? { ...row, ...datedProps(s) } : row;
        out.set(e.id, {
          id: e.id,
          department: e.departmentId,
          job_title: e.jobTitleId,
          pay_grade: e.payGradeId,
          employment_status: e.employmentStatusId,
          supervisor: e.supervisorId,
          age: years(e.birthday),
          years_of_service: years(e.joinedDate),
        });
      }
    }
    return out;
  }
}
