import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { recordAudit } from '../../common/audit/audit-log';
import { SET_REPLACEMENT } from '../../common/database/transaction';
import { JobQueue } from '../../common/queue/job-queue.service';
import { defineJob } from '../../common/queue/queue.constants';
import { EmployeeHooks } from '../core/employee-hooks';
import { withEmployeeLock } from '../core/employee-lock';
import { EmployeesRepository } from '../core/employees.repository';
import { Employee } from '../entities/employee.entity';
import { EmploymentChange } from '../entities/employment-history.entities';
import { EmploymentHistoryRepository } from './employment-history.repository';
import { CHANGE_STATES, EmploymentHistoryWriter, toRecorded } from './employment-history.writer';
import { segmentsAt } from './employment-history';

/**
 * The day's changes (issue 43): every 5 minutes, Scheduled changes due by the company's day take
 * effect, and terminations due take effect. A run on a day with nothing due is two indexed
 * queries; a run after downtime catches up on every day missed; a change takes effect once
 * however many runs or workers see it (a conditional UPDATE of its state decides).
 */
export const EMPLOYMENT_CHANGES_JOB = defineJob<Record<string, never>>('schedule', 'employment-changes');
const EVERY_MS = 5 * 60_000;

@Injectable()
export class EmploymentHistoryJobs implements OnModuleInit {
  private readonly logger = new Logger('EmploymentHistory');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly repository: EmploymentHistoryRepository,
    private readonly writer: EmploymentHistoryWriter,
    private readonly employees: EmployeesRepository,
    private readonly hooks: EmployeeHooks,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
  ) {}

  onModuleInit(): void {
    this.jobs.register(EMPLOYMENT_CHANGES_JOB, () => this.run());
    void this.jobs.schedule(EMPLOYMENT_CHANGES_JOB, EVERY_MS, 10_000);
  }

  /** One run at `now`: the changes, then the terminations, due by the company's day. */
  async run(now = this.clock.now()): Promise<{ changes: number; terminations: number }> {
    const changes = await this.applyDue(now);
    const terminations = await this.terminateDue(now);
    if (changes || terminations) this.logger.log(`${changes} changes and ${terminations} terminations took effect`);
    return { changes, terminations };
  }

  /**
   * The daily job's work (issue 43): every Scheduled change due by the company's day takes effect,
   * once (a conditional UPDATE decides it), with its event and today's values applied; then the
   * terminations of the day. Catches up on every day it missed. How many changes took effect.
   */
  async applyDue(now = this.clock.now()): Promise<number> {
    const today = await this.clock.today(now);
    let applied = 0;
    for (;;) {
      let moved = 0;
      for (const employeeId of await this.repository.dueEmployees(today, 200))
        moved += await withEmployeeLock(
          this.ds,
          employeeId,
          async (em) => {
            const changes = await this.repository.changesOf(em, employeeId);
            const before = segmentsAt(changes.map(toRecorded));
            const taking: EmploymentChange[] = [];
            for (const c of changes) {
              if (c.status !== 'Scheduled' || c.effectiveDate > today) continue;
              if (!(await CHANGE_STATES.move(em, EmploymentChange, { id: c.id, status: 'Scheduled' }, 'take_effect'))) continue;
              c.status = 'Effective';
              taking.push(c);
            }
            if (!taking.length) return 0;
            // The segments held these changes since they were recorded: today's salary is applied when one of them sets it.
            const after = await this.writer.settle(em, employeeId, changes, before, {
              today,
              salary: taking.some((c) => c.salary !== null),
            });
            for (const c of taking) await this.writer.effective(em, c, after);
            return taking.length;
          },
          SET_REPLACEMENT,
        );
      applied += moved;
      if (!moved) break;
    }
    return applied;
  }

  /**
   * Terminations whose day has come (the termination date by the company's day): the employee
   * becomes Terminated once (a conditional UPDATE), with `employee.terminated` and the termination
   * hooks (the Users module deactivates its user; its tokens are revoked after the commit).
   */
  async terminateDue(now = this.clock.now()): Promise<number> {
    const today = await this.clock.today(now);
    let done = 0;
    for (;;) {
      let n = 0;
      for (const employeeId of await this.employees.terminationsDue(today, 200)) if (await this.terminate(employeeId, today)) n++;
      done += n;
      if (!n) return done;
    }
  }

  /**
   * A termination recorded for today or earlier by a write of the employee (PUT /employees/{id}
   * setting its termination date or status) takes effect at once, as the job would make it: the
   * write keeps the employee Active and this moves it (a crash between the two leaves it to the job).
   */
  async terminateNow(employeeId: number, now = this.clock.now()): Promise<void> {
    await this.terminate(employeeId, await this.clock.today(now));
  }

  /** The employee becomes Terminated once (a conditional UPDATE), with its event and hooks; whether it did. */
  private async terminate(employeeId: number, today: string): Promise<boolean> {
    const later = await withEmployeeLock(this.ds, employeeId, async (em) => {
      const e = await em.findOne(Employee, { where: { id: employeeId } });
      if (!e || e.status !== 'Active' || !e.terminationDate || e.terminationDate > today) return null;
      const moved = await em.update(Employee, { id: employeeId, status: 'Active' }, { status: 'Terminated' });
      if (moved.affected !== 1) return null;
      await recordAudit(em, {
        action: 'terminate',
        resource: 'employees',
        event: 'employee.terminated',
        resourceId: employeeId,
        employee: employeeId,
        before: { status: 'Active', termination_date: e.terminationDate },
        after: { status: 'Terminated', termination_date: e.terminationDate },
      });
      const after: Array<() => Promise<void>> = [];
      for (const hook of this.hooks.termination) {
        const then = await hook(em, employeeId);
        if (then) after.push(then);
      }
      return after;
    });
    if (!later) return false;
    for (const then of later) await then();
    return true;
  }
}
