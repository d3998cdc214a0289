import { AccrualChangesSubscriber } from './accrual-changes.subscriber';
import { Injectable } from '@nestjs/common';
import { EmployeeScope } from '../../employees/core/employee-access.service';
import { dueRules, employeesDue, policiesDue } from '../engine/accrual-due';
import { windowOn } from '../engine/accrual-engine';
import { AccrualRunsRepository } from './accrual-runs.repository';
import { holesColumn } from './change-marks';
import { plusDays } from '../engine/calendar';
import { LeaveBalancesService } from './leave-balances.service';
import { LiabilityRow } from './leave-balances';
import { LeaveLedgerRepository } from './leave-ledger.repository';
import { LiabilityBalance, LiabilityRepository, Marks, NEVER } from './liability.repository';

/** Employees per chunk of a full computation: one read of their facts and entries. */
const CHUNK = 1000;
/** The days whose tables are kept: the most recently asked for (a dashboard asks for a few period ends and today). */
export const LIABILITY_DAYS_KEPT = 8;
/** The daily job keeps today's table made while a request asked for the liability this recently. */
export const LIABILITY_WARM_WITHIN_MS = 7 * 86_400_000;
/** Refreshes lost to another process's before this one returns the table as that one left it. */
const ATTEMPTS = 3;

const sameMarks = (a: Marks, b: Marks) =>
  a.ledgerMark === b.ledgerMark && a.changeMark === b.changeMark && holesColumn(a.holes) === holesColumn(b.holes);

/** What a refresh recomputed: every employee, or these many (after copying the rest from the table of another day). */
export type Refreshed = { everyone: true } | { everyone: false; employees: number; rolledFrom?: string };

/**
 * The leave liability (GET /insights/leave-liability, issue 49), kept as a table per day asked
 * about: the first request for a day computes every employee's balance (LeaveBalancesService, as
 * the balance route does), later ones recompute only the employees whose balances may have changed
 * since — those with leave ledger entries not written by the accrual job (or a carry-over written
 * by it), or with their facts changed, read from the accrual's changes as the daily accrual job reads them
 * (AccrualRunsRepository.changedSince); a change to what every balance reads (a policy, a leave
 * period...) recomputes everyone. A balance of a given day is a function of those inputs only (the
 * accrual engine owes by the calendar, not by today), so the table needs nothing else to stay true.
 */
@Injectable()
export class LeaveLiabilityService {
  /** The refresh running per day in this process: the next request for that day waits for it, then refreshes from where it ended. */
  private readonly refreshing = new Map<string, Promise<Refreshed>>();

  constructor(
    private readonly balances: LeaveBalancesService,
    private readonly ledger: LeaveLedgerRepository,
    private readonly runs: AccrualRunsRepository,
    private readonly tables: LiabilityRepository,
    private readonly changes: AccrualChangesSubscriber,
  ) {}

  /** Days owed at the end of `day` to the employees of `scope`, by leave type and department (hundredths). */
  async liability(scope: EmployeeScope, day: string): Promise<LiabilityRow[]> {
    await this.refresh(day);
    return this.tables.sums(day, scope);
  }

  /**
   * After the daily accrual job (LeaveAccrualsService.scheduled): while a request asked for the
   * liability in the last week, today's table is brought up to date — rolled from the nearest
   * computed day where the policies allow, else computed for everyone — so that the day's first
   * request does not pay for it. It does not count as a request: nobody asking, the job stops a week
   * after the last request. Null when it did nothing.
   */
  async warm(today: string): Promise<Refreshed | null> {
    if ((await this.tables.lastAskedMs()) < Date.now() - LIABILITY_WARM_WITHIN_MS) return null;
    return this.refresh(today, false);
  }

  /** Brings the day's table up to date with every change made before the call; `asked`: by a request (kept the longest). */
  refresh(day: string, asked = true): Promise<Refreshed> {
    const before = this.refreshing.get(day);
    const mine = (before ? before.catch(() => undefined) : Promise.resolve()).then(() => this.refreshNow(day, asked));
    this.refreshing.set(day, mine);
    const forget = () => {
      if (this.refreshing.get(day) === mine) this.refreshing.delete(day);
    };
    mine.then(forget, forget);
    return mine;
  }

  private async refreshNow(day: string, asked: boolean): Promise<Refreshed> {
    const rolled = await this.roll(day, asked);
    let refreshed: Refreshed = rolled ?? { everyone: false, employees: 0 };
    await this.changes.catchUp();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // The marks first: what is written while the balances are read is the next refresh's to read.
      const [from, upTo] = await Promise.all([this.tables.open(day, asked), this.runs.marks()]);
      const holes = !!(from.holes?.ledger.length || from.holes?.changes.length);
      if (from.ledgerMark === upTo.ledgerMark && from.changeMark === upTo.changeMark && !holes) return refreshed;
      const { employees, to } = await this.changed(from, upTo);
      // Nothing read and nothing to note (holes still missing, as they were): the table stands.
      if (employees !== 'all' && !employees.length && sameMarks(from, to)) return refreshed;
      const rows = employees === 'all' ? await this.everyone(day) : await this.balances.liabilityBalances(employees, day);
      refreshed =
        employees === 'all'
          ? { everyone: true }
          : {
              everyone: false,
              employees: employees.length + (rolled?.employees ?? 0),
              ...(rolled && { rolledFrom: rolled.rolledFrom }),
            };
      if (await this.tables.replace(day, from, to, employees, rows)) {
        if (from.ledgerMark === NEVER.ledgerMark) await this.tables.evict(LIABILITY_DAYS_KEPT, day);
        return refreshed;
      }
    }
    return refreshed;
  }

  /**
   * A day never computed, made from the nearest computed day of the same leave period when the
   * policies date nothing for everyone between the two: the balances differ only for the employees
   * with something dated between them — a first eligible day, an anniversary, joining or leaving
   * (employeesDue), a ledger entry, a change of department, status or grade — which are computed;
   * the rest are copied. The refresh then applies the changes made since that day's marks.
   */
  private async roll(day: string, asked: boolean): Promise<(Refreshed & { everyone: false }) | null> {
    if ((await this.tables.marks(day)).ledgerMark !== NEVER.ledgerMark) return null;
    const [computed, { windows, types, rules }] = await Promise.all([
      this.tables.computedDays(),
      dueRules({
        periods: () => this.ledger.periods(),
        leaveTypes: () => this.ledger.leaveTypes(),
        allPolicies: () => this.runs.allPolicies(),
      }),
    ]);
    const own = windowOn(windows, day);
    const distance = (d: string) => Math.abs(Date.parse(d) - Date.parse(day));
    const base = computed
      .filter((d) => own && windowOn(windows, d.day) === own)
      .sort((a, b) => distance(a.day) - distance(b.day))[0];
    if (!base) return null;
    const [after, upTo] = base.day < day ? [base.day, day] : [day, base.day];
    if (policiesDue(rules, windows, after, upTo)) return null;
    const [due, dated] = await Promise.all([
      this.runs.dueFacts(),
      this.tables.datedBetween(
        types.map((t) => t.id),
        after,
        upTo,
      ),
    ]);
    // From the day before: whoever leaves on the earlier day is employed that day and not the next.
    const employees = [...new Set([...employeesDue(due, rules, plusDays(after, -1), upTo), ...dated])];
    await this.tables.open(day, asked);
    const rows = await this.balances.liabilityBalances(employees, day);
    if (!(await this.tables.rollFrom(day, base.day, employees, rows))) return null;
    await this.tables.evict(LIABILITY_DAYS_KEPT, day);
    return { everyone: false, employees: employees.length, rolledFrom: base.day };
  }

  /**
   * Whose balances may have changed between the marks ('all' for a day never computed, after a
   * change that reaches everyone, or when ids went back), and the marks to note (with the holes of
   * this read).
   */
  private async changed(from: Marks, upTo: Marks): Promise<{ employees: number[] | 'all'; to: Marks }> {
    const rewound = upTo.ledgerMark < from.ledgerMark || upTo.changeMark < from.changeMark;
    if (from.ledgerMark === NEVER.ledgerMark || rewound)
      return { employees: 'all', to: await this.runs.holes({ ledgerMark: 0, changeMark: 0 }, upTo) };
    const changed = await this.runs.changedSince(from, upTo, true);
    return { employees: changed.everyone ? 'all' : changed.employees, to: changed.marks };
  }

  private async everyone(day: string): Promise<LiabilityBalance[]> {
    const out: LiabilityBalance[] = [];
    for (let after = 0; ;) {
      const chunk = await this.ledger.employedIds({ kind: 'all' }, day, after, CHUNK);
      if (!chunk.length) return out;
      after = chunk[chunk.length - 1];
      for (const row of await this.balances.liabilityBalances(chunk, day)) out.push(row);
    }
  }
}
