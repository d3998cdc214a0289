import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RecordSql, RecordSqlAs } from '../../common/database/record-sql';
import { dateOnly } from '../leave-days';
import { LeavePolicy } from '../entities/leave-ledger.entities';
import { PolicyRule, toRule } from './accrual-engine';
import { DueFacts } from './accrual-due';
import { ChangeMarks, changedIds, holesColumn, holesFromColumn, holesOf, keptHoles } from './change-marks';

/** A finished run of the daily accrual job, with the marks it had read its changes up to. */
export interface AccrualRun extends ChangeMarks {
  day: string;
}

/** What changed between two marks, and the marks to read from next time (with the holes of this read). */
export interface Changes {
  everyone: boolean;
  employees: number[];
  marks: ChangeMarks;
}

/**
 * What the accruals read from: a change recorded under one of these (the audit log) may change
 * what every employee is owed, and the next daily run reads everyone.
 */
export const ACCRUAL_WIDE_RESOURCES = [
  'leave-policies',
  'leave-policy-assignments',
  'leave-types',
  'leave-periods',
  'departments',
  'pay-grades',
  'employment-statuses',
  'payroll_config/pay-frequencies',
] as const;
/** A change recorded under one of these changes the facts of the employee it names (its dates, department, status, grade, history, pay frequency). */
export const ACCRUAL_EMPLOYEE_RESOURCES = ['employees', 'employees/changes', 'payroll_config/payroll-employees'] as const;

/** The daily accrual job's own record and the reads that tell it whom to read (issue 49). */
@Injectable()
export class AccrualRunsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @RecordSql()
  async last(): Promise<AccrualRun | null> {
    const [row] = await this.ds
      .createQueryBuilder()
      .select(['r.day AS day', 'r.ledger_mark AS ledgerMark', 'r.audit_mark AS auditMark', 'r.holes AS holes'])
      .from('leave_accrual_runs', 'r')
      .orderBy('r.id', 'DESC')
      .limit(1)
      .getRawMany<Record<string, unknown>>();
    return row
      ? {
          day: dateOnly(row.day as string),
          ledgerMark: Number(row.ledgerMark),
          auditMark: Number(row.auditMark),
          holes: holesFromColumn(row.holes),
        }
      : null;
  }

  /** The highest leave ledger and audit log ids now: a run reads changes up to them. */
  @RecordSql()
  async marks(): Promise<{ ledgerMark: number; auditMark: number }> {
    const [[ledger], [audit]] = await Promise.all([
      this.ds.query<Array<{ mark: unknown }>>('SELECT MAX(id) AS mark FROM leave_ledger'),
      this.ds.query<Array<{ mark: unknown }>>('SELECT MAX(id) AS mark FROM audit_log'),
    ]);
    return { ledgerMark: Number(ledger?.mark ?? 0), auditMark: Number(audit?.mark ?? 0) };
  }

  /**
   * `upTo` with the holes of (since, upTo] and those of `since` still missing (change-marks.ts);
   * past HOLES_KEPT a mark is lowered. From no marks (`{ 0, 0 }`): after a run that read everyone.
   */
  @RecordSql({ ledgerMark: 0, auditMark: 0 }, { ledgerMark: 100, auditMark: 100 })
  async holes(since: ChangeMarks, upTo: ChangeMarks): Promise<ChangeMarks> {
    const [ledgerHoles, auditHoles] = await Promise.all([
      holesOf(this.ds, 'leave_ledger', since.ledgerMark, upTo.ledgerMark, since.holes?.ledger ?? []),
      holesOf(this.ds, 'audit_log', since.auditMark, upTo.auditMark, since.holes?.audit ?? []),
    ]);
    const ledger = keptHoles(upTo.ledgerMark, ledgerHoles);
    const audit = keptHoles(upTo.auditMark, auditHoles);
    return { ledgerMark: ledger.mark, auditMark: audit.mark, holes: { ledger: ledger.holes, audit: audit.holes } };
  }

  /**
   * What changed in (since, upTo] of the ledger and the audit log, and in the holes of `since` (ids
   * that could not be read then: change-marks.ts): whether a change reaches every employee
   * (ACCRUAL_WIDE_RESOURCES), else the employees whose entries (written by anything but the job
   * itself) or facts changed. `carryOvers`: the job's carry-overs count as changes too (a balance
   * takes the carry-over into its first window as written: the liability's tables). The holes of
   * this read are found first: an id that commits after that is read now or is a hole next time.
   */
  @RecordSql({ ledgerMark: 0, auditMark: 0 }, { ledgerMark: 100, auditMark: 100 })
  @RecordSqlAs('carryOvers', { ledgerMark: 0, auditMark: 0 }, { ledgerMark: 100, auditMark: 100 }, true)
  @RecordSqlAs(
    'holes',
    { ledgerMark: 50, auditMark: 50, holes: { ledger: [[40, 41, Date.now()]], audit: [[45, 45, Date.now()]] } },
    { ledgerMark: 100, auditMark: 100 },
  )
  async changedSince(since: ChangeMarks, upTo: ChangeMarks, carryOvers = false): Promise<Changes> {
    const marks = await this.holes(since, upTo);
    const ledgerIds = changedIds('l.id', 'ledger', since.ledgerMark, upTo.ledgerMark, since.holes?.ledger);
    const auditIds = changedIds('a.id', 'audit', since.auditMark, upTo.auditMark, since.holes?.audit);
    const [wide] = await this.ds
      .createQueryBuilder()
      .select('a.id', 'id')
      .from('audit_log', 'a')
      .where(auditIds.where, auditIds.params)
      .andWhere('a.resource IN (:...wide)', { wide: ACCRUAL_WIDE_RESOURCES })
      .limit(1)
      .getRawMany<{ id: unknown }>();
    if (wide) return { everyone: true, employees: [], marks };
    const [ledger, audit] = await Promise.all([
      this.ds
        .createQueryBuilder()
        .select('DISTINCT l.employee_id', 'employee')
        .from('leave_ledger', 'l')
        .where(ledgerIds.where, ledgerIds.params)
        .andWhere(carryOvers ? "(l.source <> 'policy' OR l.kind = 'carry_over')" : "l.source <> 'policy'")
        .getRawMany<{ employee: unknown }>(),
      this.ds
        .createQueryBuilder()
        .select('DISTINCT a.employee_id', 'employee')
        .from('audit_log', 'a')
        .where(auditIds.where, auditIds.params)
        .andWhere('a.resource IN (:...mine)', { mine: ACCRUAL_EMPLOYEE_RESOURCES })
        .andWhere('a.employee_id IS NOT NULL')
        .getRawMany<{ employee: unknown }>(),
    ]);
    return { everyone: false, employees: [...new Set([...ledger, ...audit].map((r) => Number(r.employee)))], marks };
  }

  /** Every employee's joined and leaving days (the days entries fall due on for a reason of their own). */
  @RecordSql()
  async dueFacts(): Promise<DueFacts[]> {
    const rows = await this.ds
      .createQueryBuilder()
      .select(['e.id AS id', 'e.joined_date AS joined', 'e.termination_date AS termination'])
      .from('employees', 'e')
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      id: Number(r.id),
      joined: dateOnly(r.joined as string),
      termination: r.termination ? dateOnly(r.termination as string) : null,
    }));
  }

  @RecordSql()
  async allPolicies(): Promise<PolicyRule[]> {
    return (await this.ds.getRepository(LeavePolicy).find()).map(toRule);
  }

  @RecordSql({ day: '2026-01-31', full: true, ledgerMark: 1, auditMark: 1, employees: 0, written: 0 })
  async record(run: AccrualRun & { full: boolean; employees: number; written: number }): Promise<void> {
    await this.ds.query(
      'INSERT INTO leave_accrual_runs (day, full_run, ledger_mark, audit_mark, holes, employees, written, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        run.day,
        run.full ? 1 : 0,
        run.ledgerMark,
        run.auditMark,
        holesColumn(run.holes),
        run.employees,
        run.written,
        new Date().toISOString().slice(0, 19).replace('T', ' '),
      ],
    );
  }
}
