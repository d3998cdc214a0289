import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RecordSql, RecordSqlAs } from '../../common/database/record-sql';
import { dateOnly } from '../leave-days';
import { LeavePolicy } from '../entities/leave-ledger.entities';
import { PolicyRule, toRule } from './accrual-engine';
import { DueFacts } from './accrual-due';

/** A finished run of the daily accrual job. */
export interface AccrualRun {
  day: string;
  /** The highest leave ledger and audit log ids the run had read its changes up to. */
  ledgerMark: number;
  auditMark: number;
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
      .select(['r.day AS day', 'r.ledger_mark AS ledgerMark', 'r.audit_mark AS auditMark'])
      .from('leave_accrual_runs', 'r')
      .orderBy('r.id', 'DESC')
      .limit(1)
      .getRawMany<Record<string, unknown>>();
    return row
      ? { day: dateOnly(row.day as string), ledgerMark: Number(row.ledgerMark), auditMark: Number(row.auditMark) }
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
   * What changed in (since, upTo] of the ledger and the audit log: whether a change reaches every
   * employee (ACCRUAL_WIDE_RESOURCES), else the employees whose entries (written by anything but
   * the job itself) or facts changed. `carryOvers`: the job's carry-overs count as changes too (a
   * balance takes the carry-over into its first window as written: the liability's tables).
   */
  @RecordSql({ ledgerMark: 0, auditMark: 0 }, { ledgerMark: 100, auditMark: 100 })
  @RecordSqlAs('carryOvers', { ledgerMark: 0, auditMark: 0 }, { ledgerMark: 100, auditMark: 100 }, true)
  async changedSince(
    since: { ledgerMark: number; auditMark: number },
    upTo: { ledgerMark: number; auditMark: number },
    carryOvers = false,
  ): Promise<{ everyone: boolean; employees: number[] }> {
    const [wide] = await this.ds
      .createQueryBuilder()
      .select('a.id', 'id')
      .from('audit_log', 'a')
      .where('a.id > :from AND a.id <= :to', { from: since.auditMark, to: upTo.auditMark })
      .andWhere('a.resource IN (:...wide)', { wide: ACCRUAL_WIDE_RESOURCES })
      .limit(1)
      .getRawMany<{ id: unknown }>();
    if (wide) return { everyone: true, employees: [] };
    const [ledger, audit] = await Promise.all([
      this.ds
        .createQueryBuilder()
        .select('DISTINCT l.employee_id', 'employee')
        .from('leave_ledger', 'l')
        .where('l.id > :from AND l.id <= :to', { from: since.ledgerMark, to: upTo.ledgerMark })
        .andWhere(carryOvers ? "(l.source <> 'policy' OR l.kind = 'carry_over')" : "l.source <> 'policy'")
        .getRawMany<{ employee: unknown }>(),
      this.ds
        .createQueryBuilder()
        .select('DISTINCT a.employee_id', 'employee')
        .from('audit_log', 'a')
        .where('a.id > :from AND a.id <= :to', { from: since.auditMark, to: upTo.auditMark })
        .andWhere('a.resource IN (:...mine)', { mine: ACCRUAL_EMPLOYEE_RESOURCES })
        .andWhere('a.employee_id IS NOT NULL')
        .getRawMany<{ employee: unknown }>(),
    ]);
    return { everyone: false, employees: [...new Set([...ledger, ...audit].map((r) => Number(r.employee)))] };
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
      'INSERT INTO leave_accrual_runs (day, full_run, ledger_mark, audit_mark, employees, written, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        run.day,
        run.full ? 1 : 0,
        run.ledgerMark,
        run.auditMark,
        run.employees,
        run.written,
        new Date().toISOString().slice(0, 19).replace('T', ' '),
      ],
    );
  }
}
