import { AccrualChangesSubscriber } from './accrual-changes.subscriber';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { pipelined } from '../../common/database/pipelined';
import { JobQueue } from '../../common/queue/job-queue.service';
import { defineJob } from '../../common/queue/queue.constants';
import { corrections, DerivedKey, FALLBACK_POLICY, fromH, LedgerKind, owedEntries, windowsOf } from '../engine/accrual-engine';
import { dueRules, employeesDue, policiesDue } from '../engine/accrual-due';
import { AccrualRunsRepository } from './accrual-runs.repository';
import { windowsAround } from './leave-balances';
import { LeaveBalancesService } from './leave-balances.service';
import { LeaveLiabilityService, Refreshed } from './leave-liability.service';
import { LeaveLedgerRepository, NewLedgerEntry } from './leave-ledger.repository';

/** The daily accrual: writes what the policies owe (accruals, carry-overs, expiries) and is not yet written. */
export const LEAVE_ACCRUALS_JOB = defineJob<Record<string, never>>('schedule', 'leave-accruals');
const ACCRUALS_EVERY_MS = 24 * 3_600_000;
/** Employees per accrual chunk: one read of their facts and entries, one multi-row insert. */
const CHUNK = 1000;

const NOTES: Partial<Record<LedgerKind, string>> = {
  accrual: 'accrued by the policy',
  carry_over: 'carried over from the previous leave period',
  expiry: 'carried days not taken in time',
};

/** The leave ledger's daily job (issue 31), also run by the CLI and the demo over every year. */
@Injectable()
export class LeaveAccrualsService implements OnModuleInit {
  private readonly logger = new Logger('LeaveLedger');

  constructor(
    private readonly repo: LeaveLedgerRepository,
    private readonly balances: LeaveBalancesService,
    private readonly jobs: JobQueue,
    private readonly runs: AccrualRunsRepository,
    private readonly liability: LeaveLiabilityService,
    private readonly clock: CompanyClock,
    private readonly changes: AccrualChangesSubscriber,
  ) {}

  onModuleInit(): void {
    this.jobs.register(LEAVE_ACCRUALS_JOB, async () => {
      await this.scheduled();
    });
    void this.jobs.schedule(LEAVE_ACCRUALS_JOB, ACCRUALS_EVERY_MS, 60_000);
  }

  /**
   * The schedule's job: the daily run, then today's leave liability kept made while it is asked for
   * (LeaveLiabilityService.warm): the insights' today, the process's local day.
   */
  async scheduled(
    today?: string,
  ): Promise<{ accruals: Awaited<ReturnType<LeaveAccrualsService['daily']>> | null; liability: Refreshed | null }> {
    const day = today ?? (await this.clock.today());
    const accruals = await this.daily(day).catch((err: Error) => {
      this.logger.warn(`leave accruals failed: ${err.message}`);
      return null;
    });
    const liability = await this.liability.warm(day).catch((err: Error) => {
      this.logger.warn(`leave liability of ${day} failed: ${err.message}`);
      return null;
    });
    return { accruals, liability };
  }

  /**
   * The scheduled run (issue 49): reads only the employees with something due since the last run
   * or a change since then, and everyone on a day the policies date entries for everyone (a month's
   * end, a period's first day...), after a change that reaches everyone, or without a last run.
   * Changes are tracked, not guessed: the leave ledger's entries not written by the job and the
   * events of employees' facts (ACCRUAL_EMPLOYEE_EVENTS) and of what the policies read
   * (ACCRUAL_WIDE_EVENTS) as AccrualChangesSubscriber noted them, each read from where the last run stopped. Whom it read and
   * what it wrote are recorded; returns them.
   */
  async daily(day?: string): Promise<{ full: boolean; employees: number; written: number }> {
    const today = day ?? (await this.clock.today());
    // The marks first, once the changes committed before are noted: what is written while this run
    // reads is the next run's to read.
    await this.changes.catchUp();
    const [last, marks] = await Promise.all([this.runs.last(), this.runs.marks()]);
    let only: number[] | undefined;
    // Ids that went back (a table emptied, a restored backup): what changed cannot be told.
    const rewound = last && (marks.ledgerMark < last.ledgerMark || marks.changeMark < last.changeMark);
    const changed = last && !rewound ? await this.runs.changedSince(last, marks) : null;
    // Read up to the marks, but for the holes below them (change-marks.ts): the next run reads those again.
    const next = changed?.marks ?? (await this.runs.holes({ ledgerMark: 0, changeMark: 0 }, marks));
    if (last && changed) {
      const after = last.day < today ? last.day : today;
      if (!changed.everyone) {
        const { windows, rules } = await dueRules({
          periods: () => this.repo.periods(),
          leaveTypes: () => this.repo.leaveTypes(),
          allPolicies: () => this.runs.allPolicies(),
        });
        if (!policiesDue(rules, windows, after, today))
          only = [...new Set([...changed.employees, ...employeesDue(await this.runs.dueFacts(), rules, after, today)])];
      }
    }
    const { written, employees } = only?.length === 0 ? { written: 0, employees: 0 } : await this.run(today, false, only);
    await this.runs.record({ day: today, full: !only, ...next, employees, written });
    return { full: !only, employees, written };
  }

  /**
   * The full job for everyone (the CLI's `leave:accrue` without --employees), recorded as a run like
   * the schedule's, so that the next scheduled run reads only what changed after it. Returns whom it
   * read and what it wrote.
   */
  async full(day?: string, all = false): Promise<{ employees: number; written: number }> {
    const today = day ?? (await this.clock.today());
    // The marks first, as daily() reads them: what is written meanwhile is the next run's to read.
    await this.changes.catchUp();
    const marks = await this.runs.marks();
    const next = await this.runs.holes({ ledgerMark: 0, changeMark: 0 }, marks);
    const { written, employees } = await this.run(today, all);
    await this.runs.record({ day: today, full: true, ...next, employees, written });
    return { written, employees };
  }

  /**
   * The daily accrual job: for every employee (1 000 at a time) and leave type, writes what the
   * policies owe over the current leave period's window and the one before and is not written yet,
   * dated where it belongs and up to `today`. `all`: over every window begun (after a migration,
   * or to correct history); `only`: those employees. Returns the entries written.
   */
  async accrue(day?: string, all = false, only?: number[]): Promise<number> {
    return (await this.run(day ?? (await this.clock.today()), all, only)).written;
  }

  /** accrue(), with the number of employees read. */
  private async run(today: string, all: boolean, only?: number[]): Promise<{ written: number; employees: number }> {
    const windows = windowsOf(await this.repo.periods());
    const scope = all ? windows.filter((w) => w.start <= today) : windowsAround(windows, today);
    if (!scope.length) return { written: 0, employees: 0 };
    const ids = new Set(scope.map((w) => w.period.id));
    // Corrections of what was written: accruals anywhere; expiries and carry-overs of these windows
    // (but not the carry-over into the first, which is taken as written).
    const inScope = (key: DerivedKey) =>
      key.kind === 'acc' ||
      (key.kind === 'exp' && ids.has(key.window)) ||
      (key.kind === 'cin' && ids.has(key.into) && key.into !== scope[0].period.id);
    const leaveTypes = await this.repo.leaveTypes();
    const types = leaveTypes.map((t) => t.id);
    let written = 0;
    let employees = 0;
    let after = 0;
    const nextChunk = async () => {
      const chunk = only
        ? only
            .filter((id) => id > after)
            .sort((a, b) => a - b)
            .slice(0, CHUNK)
        : await this.repo.employeeIds(after, CHUNK);
      if (!chunk.length) return null;
      after = chunk[chunk.length - 1];
      employees += chunk.length;
      const [resolvers, entries] = await Promise.all([
        this.balances.resolvers(null, chunk, leaveTypes),
        this.repo.entries(null, chunk, scope[0].start, scope.at(-1)?.end ?? null),
      ]);
      return { resolvers, entries };
    };
    await pipelined(nextChunk, async ({ resolvers, entries }) => {
      const rows: NewLedgerEntry[] = [];
      for (const [employeeId, resolver] of resolvers) {
        for (const type of types) {
          const mine = entries.get(`${employeeId}:${type}`) ?? [];
          for (const c of corrections(owedEntries(type, resolver, scope, mine), mine, inScope, today))
            rows.push({
              employeeId,
              leaveTypeId: type,
              date: c.date,
              kind: c.kind,
              days: fromH(c.days),
              source: 'policy',
              sourceId: c.policyId === FALLBACK_POLICY ? null : c.policyId,
              createdBy: null,
              note: c.key.endsWith('#0')
                ? (NOTES[c.kind] ?? null)
                : 'correction: the policy, its assignment or the ledger changed',
              entryKey: c.key,
            });
        }
      }
      await this.repo.append(null, rows);
      written += rows.length;
    });
    return { written, employees };
  }
}
