import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { APPROVAL_STATES } from './approval.states';
import { CompanyClock } from '../common/time/company-clock';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { recordEvent } from '../common/outbox/outbox';
import { ListQueryDto } from '../common/paging/list-query.dto';
import { parseListQuery } from '../common/paging/list-request';
import { Page } from '../common/paging/page';
import { JobQueue } from '../common/queue/job-queue.service';
import { defineJob } from '../common/queue/queue.constants';
import { withEmployeeLock } from '../employees/core/employee-lock';
import { ApprovalsRepository } from './approvals.repository';
import { PendingApprovalDto } from './dto/approvals.dto';
import { Approval, ApprovalApprover, ApprovalDecision, ResolvedStep } from './entities/approval.entities';

import { PENDING_LIST_SPEC } from './approval-views';

export const APPROVAL_ESCALATION_JOB = defineJob<Record<string, never>>('schedule', 'approval-escalation');
const ESCALATION_EVERY_MS = 15 * 60_000;

const instant = (v: unknown): Date => (v instanceof Date ? v : new Date(`${String(v).replace(' ', 'T')}Z`));

/**
 * The approver's inbox and the escalation of late steps (issue 45). The inbox reads the open
 * steps' rows by approver (ix_approval_approvers_employee): its cost follows the caller's open
 * steps, not the company's requests.
 */
@Injectable()
export class ApprovalInboxService implements OnModuleInit {
  private readonly logger = new Logger('Approvals');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly jobs: JobQueue,
    private readonly clock: CompanyClock,
    private readonly repository: ApprovalsRepository,
  ) {}

  onModuleInit(): void {
    this.jobs.register(APPROVAL_ESCALATION_JOB, async () => {
      const n = await this.escalateDue();
      if (n) this.logger.log(`${n} steps escalated`);
    });
    void this.jobs.schedule(APPROVAL_ESCALATION_JOB, ESCALATION_EVERY_MS);
  }

  /** The caller's open steps, oldest request first: its own rows, and the Admins' for an Admin; never its own requests. */
  async pending(caller: AuthUser, query: ListQueryDto, now = this.clock.now()): Promise<Page<PendingApprovalDto>> {
    const page = await this.repository.pendingApprovalRows(
      { employeeId: caller.employeeId, userId: caller.id, admin: caller.level === 'Admin' },
      parseListQuery(query, PENDING_LIST_SPEC),
    );
    return page.map(([kind, request, employee, first, last, step, steps, summary, requestedAt]) => {
      const chain = JSON.parse(String(steps)) as ResolvedStep[];
      const at = instant(requestedAt);
      return {
        kind: String(kind),
        id: Number(request),
        employee: Number(employee),
        employee_name: `${String(first)} ${String(last)}`,
        step: Number(step),
        steps: chain.length,
        summary: String(summary),
        requested_at: at.toISOString(),
        step_opened_at: chain[Number(step) - 1]?.opened_at ?? null,
        age_days: Math.max(0, Math.floor((now.getTime() - at.getTime()) / 86_400_000)),
      };
    });
  }

  /**
   * Steps open longer than their policy's escalate_after_days: the supervisors of their approvers
   * join them (once per step), with `approval.escalated`. Each under the employee's lock, so a
   * decision and an escalation of one request never interleave. How many steps escalated.
   */
  async escalateDue(now = this.clock.now()): Promise<number> {
    let escalated = 0;
    for (;;) {
      const due = await this.ds.getRepository(Approval).find({
        where: { status: 'Pending', escalateAt: LessThanOrEqual(now) },
        select: { id: true, employeeId: true },
        order: { id: 'ASC' },
        take: 200,
      });
      if (!due.length) return escalated;
      for (const { id, employeeId } of due)
        escalated += await withEmployeeLock(this.ds, employeeId, async (em) => {
          const a = await em.getRepository(Approval).findOne({ where: { id } });
          if (!a || a.status !== 'Pending' || !a.escalateAt || a.escalateAt > now) return 0;
          const step = a.steps[a.currentStep - 1];
          const decided = new Set(
            (await em.getRepository(ApprovalDecision).find({ where: { approvalId: id } })).map((d) => d.employeeId),
          );
          const supervisors = await this.repository.supervisorsOf(em, step.approvers);
          const added = [
            ...new Set(
              [...supervisors.values()].filter(
                (s) => s !== a.employeeId && !step.approvers.includes(s) && !step.escalated.includes(s) && !decided.has(s),
              ),
            ),
          ];
          const steps = a.steps.map((s, i) => (i === a.currentStep - 1 ? { ...s, escalated: [...s.escalated, ...added] } : s));
          APPROVAL_STATES.assert('advance', a.status);
          await em.getRepository(Approval).update({ id, status: a.status }, { steps, escalateAt: null });
          if (!added.length) return 0;
          await em
            .getRepository(ApprovalApprover)
            .insert(added.map((employeeId) => ({ approvalId: id, step: a.currentStep, employeeId })));
          await recordEvent(em, 'approval.escalated', {
            id: a.requestId,
            kind: a.kind,
            employee: a.employeeId,
            step: a.currentStep,
            added,
          });
          return 1;
        });
    }
  }
}
