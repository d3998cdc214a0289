import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RecordSql, RecordSqlAs } from '../../common/database/record-sql';
import { dateOnly } from '../engine/calendar';
import { LeavePolicy } from '../entities/leave-ledger.entities';
import { PolicyRule, toRule } from '../engine/accrual-engine';
import { DueFacts } from '../engine/accrual-due';
import { ChangeMarks, changedIds, holesColumn, holesFromColumn, holesOf, keptHoles } from './change-marks';
import { ACCRUAL_CHANGES } from './accrual-changes.subscriber';

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

/** The daily accrual job's own record and the reads that tell it whom to read (issue 49). */
@Injectable()
export class AccrualRunsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @RecordSql()
  async last(): Promise<AccrualRun | null> {
    const [row] = await this.ds
      .createQueryBuilder()
      .select(['r.day AS day', 'r.ledger_mark AS ledgerMark', 'r.change_mark AS changeMark', 'r.holes AS holes'])
      .from('leave_accrual_runs', 'r')
      .orderBy('r.id', 'DESC')
      .limit(1)
      .getRawMany<Record<string, unknown>>();
    return row
      ? {
          day: dateOnly(row.day as string),
          ledgerMark: Number(row.ledgerMark),
          changeMark: Number(row.changeMark),
          holes: holesFromColumn(row.holes),
        }
      : null;
  }

  /** The highest leave ledger and accrual change ids now: a run reads changes up to them. */
  @RecordSql()
  async marks(): Promise<{ ledgerMark: number; changeMark: number }> {
    const [[ledger], [changes]] = await Promise.all([
      this.ds.query<Array<{ mark: unknown }>>('SELECT MAX(id) AS mark FROM leave_ledger'),
      this.ds.query<Array<{ mark: unknown }>>(`SELECT MAX(id) AS mark FROM ${ACCRUAL_CHANGES}`),
    ]);
    return { ledgerMark: Number(ledger?.mark ?? 0), changeMark: Number(changes?.mark ?? 0) };
  }

  /**
   * `upTo` with the holes of (since, upTo] and those of `since` still missing (change-marks.ts);
   * past HOLES_KEPT a mark is lowered. From no marks (`{ 0, 0 }`): after a run that read everyone.
   */
  @RecordSql({ ledgerMark: 0, changeMark: 0 }, { ledgerMark: 100, changeMark: 100 })
  async holes(since: ChangeMarks, upTo: ChangeMarks): Promise<ChangeMarks> {
    const [ledgerHoles, changeHoles] = await Promise.all([
      holesOf(this.ds, 'leave_ledger', since.ledgerMark, upTo.ledgerMark, since.holes?.ledger ?? []),
      holesOf(this.ds, ACCRUAL_CHANGES, since.changeMark, upTo.changeMark, since.holes?.changes ?? []),
    ]);
    const ledger = keptHoles(upTo.ledgerMark, ledgerHoles);
    const changes = keptHoles(upTo.changeMark, changeHoles);
    return { ledgerMark: ledger.mark, changeMark: changes.mark, holes: { ledger: ledger.holes, changes: changes.holes } };
  }

  /**
   * What changed in (since, upTo] of the ledger and of the accrual's changes (whom the events the
   * leave module subscribes to concern: AccrualChangesSubscriber), and in the holes of `since` (ids
   * that could not be read then: change-marks.ts): whether a change reaches every employee (a
   * change row without an employee), else the employees whose entries (written by anything but the
   * job itself) or facts changed. `carryOvers`: the job's carry-overs count as changes too (a
   * balance takes the carry-over into its first window as written: the liability's tables). The
   * holes of this read are found first: an id that commits after that is read now or is a hole next time.
   */
  @RecordSql({ ledgerMark: 0, changeMark: 0 }, { ledgerMark: 100, changeMark: 100 })
  @RecordSqlAs('carryOvers', { ledgerMark: 0, changeMark: 0 }, { ledgerMark: 100, changeMark: 100 }, true)
  @RecordSqlAs(
    'holes',
    { ledgerMark: 50, changeMark: 50, holes: { ledger: [[40, 41, Date.now()]], changes: [[45, 45, Date.now()]] } },
    { ledgerMark: 100, changeMark: 100 },
  )
  async changedSince(since: ChangeMarks, upTo: ChangeMarks, carryOvers = false): Promise<Changes> {
    const marks = await this.holes(since, upTo);
    const ledgerIds = changedIds('l.id', 'ledger', since.ledgerMark, upTo.ledgerMark, since.holes?.ledger);
    const changeIds = changedIds('c.id', 'change', since.changeMark, upTo.changeMark, since.holes?.changes);
    const [wide] = await this.ds
      .createQueryBuilder()
      .select('c.id', 'id')
      .from(ACCRUAL_CHANGES, 'c')
      .where(changeIds.where, changeIds.params)
      .andWhere('c.employee_id IS NULL')
      .limit(1)
      .getRawMany<{ id: unknown }>();
    if (wide) return { everyone: true, employees: [], marks };
    const [ledger, changes] = await Promise.all([
      this.ds
        .createQueryBuilder()
        .select('DISTINCT l.employee_id', 'employee')
        .from('leave_ledger', 'l')
        .where(ledgerIds.where, ledgerIds.params)
        .andWhere(carryOvers ? "(l.source <> 'policy' OR l.kind = 'carry_over')" : "l.source <> 'policy'")
        .getRawMany<{ employee: unknown }>(),
      this.ds
        .createQueryBuilder()
        .select('DISTINCT c.employee_id', 'employee')
        .from(ACCRUAL_CHANGES, 'c')
        .where(changeIds.where, changeIds.params)
        .getRawMany<{ employee: unknown }>(),
    ]);
    return { everyone: false, employees: [...new Set([...ledger, ...changes].map((r) => Number(r.employee)))], marks };
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

  @RecordSql({ day: '2026-01-31', full: true, ledgerMark: 1, changeMark: 1, employees: 0, written: 0 })
  async record(run: AccrualRun & { full: boolean; employees: number; written: number }): Promise<void> {
    await this.ds.query(
      'INSERT INTO leave_accrual_runs (day, full_run, ledger_mark, change_mark, holes, employees, written, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        run.day,
        run.full ? 1 : 0,
        run.ledgerMark,
        run.changeMark,
        holesColumn(run.holes),
        run.employees,
        run.written,
        new Date().toISOString().slice(0, 19).replace('T', ' '),
      ],
    );
  }
}
