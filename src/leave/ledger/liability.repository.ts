import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RecordSql, RecordSqlAs } from '../../common/database/record-sql';
import { timeSlices } from '../../common/async/time-slices';
import { transaction } from '../../common/database/transaction';
import { EmployeeScope } from '../../employees/core/employee-access.service';
import { EmployeesRepository } from '../../employees/core/employees.repository';
import { dateOnly } from '../engine/calendar';
import { LiabilityRow } from './leave-balances';
import { ChangeMarks, holesColumn, holesFromColumn } from './change-marks';

/** How far the leave ledger and the accrual's changes had been read (their highest ids, and the holes below them). */
export type Marks = ChangeMarks;

/** One employee's positive available balance of one leave type on a day, with the department of that day. */
export interface LiabilityBalance {
  employeeId: number;
  leaveType: number;
  department: number | null;
  /** Hundredths of a day, > 0. */
  available: number;
}

/** The marks of a day whose table was never computed: below any id, so the first refresh computes everyone. */
export const NEVER: Marks = { ledgerMark: -1, changeMark: -1 };

const ROWS_PER_INSERT = 500;
const IDS_PER_DELETE = 1000;
const SAMPLE_SCOPE: EmployeeScope = { kind: 'departments', departmentIds: [1, 2] };

/**
 * The leave liability's tables (issue 49): per day asked about, the balances that make it up
 * (leave_liability_balances) and how far the changes had been read when they were computed
 * (leave_liability_days).
 */
@Injectable()
export class LiabilityRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly employees: EmployeesRepository,
  ) {}

  /** The day's marks (its row made, never computed, when there was none), its use noted. */
  @RecordSql('2026-12-31')
  async open(day: string, asked = true): Promise<Marks> {
    await this.ds
      .createQueryBuilder()
      .insert()
      .into('leave_liability_days')
      .values({ day, ledger_mark: NEVER.ledgerMark, change_mark: NEVER.changeMark, used_ms: 0 })
      .orIgnore()
      .execute();
    if (asked) await this.ds.query('UPDATE leave_liability_days SET used_ms = ? WHERE day = ?', [Date.now(), day]);
    return this.marks(day);
  }

  /** When a request last asked for the liability of any day kept (0 for none). */
  @RecordSql()
  async lastAskedMs(): Promise<number> {
    const [row] = await this.ds.query<Array<{ used: number | string | null }>>(
      'SELECT MAX(used_ms) AS used FROM leave_liability_days',
    );
    return Number(row?.used ?? 0);
  }

  @RecordSql('2026-12-31')
  async marks(day: string): Promise<Marks> {
    const [row] = await this.ds
      .createQueryBuilder()
      .select(['d.ledger_mark AS ledgerMark', 'd.change_mark AS changeMark', 'd.holes AS holes'])
      .from('leave_liability_days', 'd')
      .where('d.day = :day', { day })
      .getRawMany<Record<string, unknown>>();
    return row
      ? { ledgerMark: Number(row.ledgerMark), changeMark: Number(row.changeMark), holes: holesFromColumn(row.holes) }
      : NEVER;
  }

  /**
   * Replaces the day's balances of `employees` (every employee: 'all') by `rows` and moves its
   * marks from `from` to `to`, in one transaction, only if the marks are still `from`: of two
   * processes refreshing the same day from the same marks, the second writes nothing (and reads
   * again). Returns whether it wrote.
   */
  @RecordSql(
    '2026-12-31',
    { ledgerMark: 1, changeMark: 1 },
    { ledgerMark: 2, changeMark: 2 },
    [1, 2],
    [{ employeeId: 1, leaveType: 1, department: null, available: 250 }],
  )
  async replace(day: string, from: Marks, to: Marks, employees: number[] | 'all', rows: LiabilityBalance[]): Promise<boolean> {
    return transaction(this.ds, async (em) => this.write(em, day, from, to, employees, rows));
  }

  /**
   * A day's table made from another's (`base`, of the same leave period) whose balances differ
   * only for `employees` (those with something dated between the two days): the base's rows and
   * marks, those employees' rows replaced by `rows`. Only from a day never computed (NEVER), as
   * replace() does; false when another process made it meanwhile or the base is gone.
   */
  @RecordSql('2026-12-31', '2026-12-30', [1, 2], [{ employeeId: 1, leaveType: 1, department: null, available: 250 }])
  async rollFrom(day: string, base: string, employees: number[], rows: LiabilityBalance[]): Promise<boolean> {
    return transaction(this.ds, async (em) => {
      // The base's marks as its rows stand: no refresh of the base commits in between (a row lock on MariaDB; SQLite has one writer).
      const lock = this.ds.options.type === 'mysql' ? ' FOR UPDATE' : '';
      const [marks] = await em.query<Array<{ ledgerMark: unknown; changeMark: unknown; holes: unknown }>>(
        `SELECT ledger_mark AS ledgerMark, change_mark AS changeMark, holes FROM leave_liability_days WHERE day = ?${lock}`,
        [base],
      );
      if (!marks || Number(marks.ledgerMark) === NEVER.ledgerMark) return false;
      const to = {
        ledgerMark: Number(marks.ledgerMark),
        changeMark: Number(marks.changeMark),
        holes: holesFromColumn(marks.holes),
      };
      if (!(await this.write(em, day, NEVER, to, 'all', []))) return false;
      await em.query(
        'INSERT INTO leave_liability_balances (day, employee_id, leave_type_id, department_id, available) ' +
          'SELECT ?, employee_id, leave_type_id, department_id, available FROM leave_liability_balances WHERE day = ?',
        [day, base],
      );
      await this.remove(em, day, employees);
      await this.insert(em, day, rows);
      return true;
    });
  }

  private async write(
    em: EntityManager,
    day: string,
    from: Marks,
    to: Marks,
    employees: number[] | 'all',
    rows: LiabilityBalance[],
  ): Promise<boolean> {
    const moved = await em
      .createQueryBuilder()
      .update('leave_liability_days')
      .set({ ledger_mark: to.ledgerMark, change_mark: to.changeMark, holes: holesColumn(to.holes) })
      .where('day = :day AND ledger_mark = :ledger AND change_mark = :changes', {
        day,
        ledger: from.ledgerMark,
        changes: from.changeMark,
      })
      .execute();
    if (moved.affected !== 1) return false;
    await this.remove(em, day, employees);
    await this.insert(em, day, rows);
    return true;
  }

  private async insert(em: EntityManager, day: string, rows: LiabilityBalance[]): Promise<void> {
    // SQLite answers without a tick: the event loop runs between statements only when let (issue 41).
    const slices = timeSlices();
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      if (slices.due()) await slices.pause();
      await em
        .createQueryBuilder()
        .insert()
        .into('leave_liability_balances')
        .values(
          rows.slice(i, i + ROWS_PER_INSERT).map((r) => ({
            day,
            employee_id: r.employeeId,
            leave_type_id: r.leaveType,
            department_id: r.department,
            available: r.available,
          })),
        )
        .updateEntity(false)
        .execute();
    }
  }

  private async remove(em: EntityManager, day: string, employees: number[] | 'all'): Promise<void> {
    const table = () => em.createQueryBuilder().delete().from('leave_liability_balances').where('day = :day', { day });
    if (employees === 'all') {
      await table().execute();
      return;
    }
    for (let i = 0; i < employees.length; i += IDS_PER_DELETE)
      await table()
        .andWhere('employee_id IN (:...ids)', { ids: employees.slice(i, i + IDS_PER_DELETE) })
        .execute();
  }

  /** The days whose tables were computed, with their marks. */
  @RecordSql()
  async computedDays(): Promise<Array<{ day: string } & Marks>> {
    const rows = await this.ds
      .createQueryBuilder()
      .select(['d.day AS day', 'd.ledger_mark AS ledgerMark', 'd.change_mark AS changeMark'])
      .from('leave_liability_days', 'd')
      .where('d.ledger_mark <> :never', { never: NEVER.ledgerMark })
      .getRawMany<Record<string, unknown>>();
    return rows.map((r) => ({
      day: dateOnly(r.day as string),
      ledgerMark: Number(r.ledgerMark),
      changeMark: Number(r.changeMark),
    }));
  }

  /**
   * The employees with a leave ledger entry (of these leave types) or a change of department,
   * status or grade (the employment history) dated in (after, upTo].
   */
  @RecordSql([1, 2], '2026-04-10', '2026-04-30')
  async datedBetween(types: number[], after: string, upTo: string): Promise<number[]> {
    const [ledger, segments] = await Promise.all([
      types.length
        ? this.ds
            .createQueryBuilder()
            .select('DISTINCT l.employee_id', 'employee')
            .from('leave_ledger', 'l')
            .where('l.leave_type_id IN (:...types)', { types })
            .andWhere('l.date > :after AND l.date <= :upTo', { after, upTo })
            .getRawMany<{ employee: unknown }>()
        : [],
      this.ds
        .createQueryBuilder()
        .select('DISTINCT s.employee_id', 'employee')
        .from('employment_segments', 's')
        .where('s.effective_from > :after AND s.effective_from <= :upTo', { after, upTo })
        .getRawMany<{ employee: unknown }>(),
    ]);
    return [...new Set([...ledger, ...segments].map((r) => Number(r.employee)))];
  }

  /** Forgets the days beyond the `keep` last used (never `current`), balances first. */
  @RecordSql(8, '2026-12-31')
  async evict(keep: number, current: string): Promise<void> {
    const old = await this.ds
      .createQueryBuilder()
      .select('d.day', 'day')
      .from('leave_liability_days', 'd')
      .where('d.day <> :current', { current })
      .orderBy('d.used_ms', 'DESC')
      .addOrderBy('d.day', 'DESC')
      .offset(keep - 1)
      .limit(100)
      .getRawMany<{ day: unknown }>();
    for (const { day } of old)
      await transaction(this.ds, async (em) => {
        await this.remove(em, dateOnly(day as string), 'all');
        await em
          .createQueryBuilder()
          .delete()
          .from('leave_liability_days')
          .where('day = :day', { day: dateOnly(day as string) })
          .execute();
      });
  }

  /** The day's liability in the caller's scope: employees and days by leave type and department. */
  @RecordSql('2026-12-31', { kind: 'all' })
  @RecordSqlAs('scoped', '2026-12-31', SAMPLE_SCOPE)
  async sums(day: string, scope: EmployeeScope): Promise<LiabilityRow[]> {
    const qb = this.ds
      .createQueryBuilder()
      .select(['b.leave_type_id AS leaveType', 'b.department_id AS department'])
      .addSelect('COUNT(*)', 'employees')
      .addSelect('SUM(b.available)', 'days')
      .from('leave_liability_balances', 'b')
      .where('b.day = :day', { day })
      .groupBy('b.leave_type_id')
      .addGroupBy('b.department_id');
    this.employees.restrictToScope(qb, 'b.employee_id', scope, scope.kind === 'self' ? 'records' : 'list');
    return (await qb.getRawMany<Record<string, unknown>>()).map((r) => ({
      leaveType: Number(r.leaveType),
      department: r.department === null ? null : Number(r.department),
      employees: Number(r.employees),
      days: Number(r.days),
    }));
  }
}
