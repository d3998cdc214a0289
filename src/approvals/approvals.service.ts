import { Injectable } from '@nestjs/common';
import { APPROVAL_STATES } from './approval.states';
import { CompanyClock } from '../common/time/company-clock';
import { daysBetween } from '../common/time/days';
import { WorkingDaysService } from '../calendars/working-days.service';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException } from '../common/errors/domain.exception';
import { recordEvent } from '../common/outbox/outbox';
import { RecipientRule } from '../common/outbox/reactions';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalAbsences } from './kinds/approval-kinds';
import {
  ChainDecision,
  decide,
  deciders,
  DEFAULT_STEPS,
  openStep,
  pendingStep,
  policyFor,
  resolveRoles,
  ancestry,
  headOf,
} from './approval-chain';
import { ApprovalViewDto } from './dto/approvals.dto';
import { decisionsSentence, toApprovalView } from './approval-views';
import {
  Approval,
  ApprovalApprover,
  ApprovalDecision,
  ApprovalKind,
  ApprovalStatus,
  Decision,
  ResolvedStep,
} from './entities/approval.entities';
import './approvals.events';

/** A request as a chain starts for it (`amount`: for kinds whose requests have one, what min_amount tests). */
export interface ChainRequest {
  kind: ApprovalKind;
  requestId: number;
  employeeId: number;
  leaveTypeId: number | null;
  days: number | null;
  amount?: string | null;
  summary: string;
}

const ERRORS = {
  INVALID_STATE: () => new DomainException('INVALID_STATE', 'The request is no longer waiting for a decision'),
  OWN_REQUEST: () => new DomainException('FORBIDDEN', 'You cannot decide your own request'),
  ALREADY_DECIDED: () => new DomainException('ALREADY_DECIDED', 'You decided a step of this request already'),
  NOT_AN_APPROVER: () => new DomainException('NOT_AN_APPROVER', 'You are not an approver of the open step of this request'),
};

/**
 * Approval chains (issue 45, docs/api/decisions.md §21): a chain starts with its request (the policy and the
 * approvers resolved from the employee's fields that day, kept), takes one decision at a time
 * under the employee's lock, and ends with the request. The Leave and Timesheets modules call it
 * with their own entity manager, so a request and its chain change together or not at all.
 */
@Injectable()
export class ApprovalsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly clock: CompanyClock,
    private readonly absences: ApprovalAbsences,
    private readonly repository: ApprovalsRepository,
    private readonly workingDays: WorkingDaysService,
  ) {}

  /** Starts the chain of a new request (a time entry submitted again starts over). */
  async start(em: EntityManager, request: ChainRequest, now = this.clock.now()): Promise<Approval> {
    const employee = await this.repository.subjectOf(em, request.employeeId);
    const departments = await this.repository.departmentsOf(em);
    const policy = policyFor(await this.repository.policiesOf(em, request.kind), {
      ...request, // its kind, leave type, days and amount
      departments: ancestry(departments, employee.departmentId),
    });
    const head = headOf(departments, employee.departmentId, employee.id);
    const steps = (policy?.steps ?? DEFAULT_STEPS).map((s) => pendingStep(resolveRoles(s, employee, head)));
    await this.discard(em, request.kind, request.requestId);
    const repo = em.getRepository(Approval);
    const approval = repo.create({
      kind: request.kind,
      requestId: request.requestId,
      employeeId: request.employeeId,
      policyId: policy?.id ?? null,
      status: 'Pending',
      currentStep: 1,
      steps,
      summary: request.summary.slice(0, 200),
      requestedAt: now,
      escalateAfterDays: policy?.escalateAfterDays ?? null,
      escalateAt: null,
    });
    await this.open(em, approval, [], now);
    approval.id = (await repo.insert(approval)).identifiers[0].id as number;
    await this.inbox(em, approval);
    return approval;
  }

  /**
   * Records the caller's decision on the open step. `expectedStep`: the step the caller saw before
   * the lock (a decision racing another on the same step loses with 409). Answers the chain's
   * status after it: Pending while steps remain, else Approved or Rejected (the caller then moves
   * the request itself, in the same transaction).
   */
  async decide(
    em: EntityManager,
    kind: ApprovalKind,
    request: { id: number; employeeId: number },
    caller: AuthUser,
    decision: Decision,
    options: { administers: boolean; comment?: string | null; expectedStep?: number; now?: Date; summary: () => Promise<string> },
  ): Promise<ApprovalStatus> {
    const now = options.now ?? this.clock.now();
    const approval =
      (await em.getRepository(Approval).findOne({ where: { kind, requestId: request.id } })) ??
      (await this.start(
        em,
        {
          kind,
          requestId: request.id,
          employeeId: request.employeeId,
          leaveTypeId: null,
          days: null,
          summary: await options.summary(),
        },
        now,
      ));
    if (options.expectedStep !== undefined && approval.status === 'Pending' && approval.currentStep !== options.expectedStep)
      throw new DomainException('INVALID_STATE', `Step ${options.expectedStep} of this request was decided meanwhile`);
    const decisions = await this.decisionsOf(em, [approval.id]);
    const outcome = decide(
      { status: approval.status, currentStep: approval.currentStep, steps: approval.steps, decisions },
      approval.employeeId,
      { userId: caller.id, employeeId: caller.employeeId, administers: options.administers, admin: caller.level === 'Admin' },
      decision,
    );
    if ('error' in outcome) throw ERRORS[outcome.error]();
    const step = approval.currentStep;
    await em.getRepository(ApprovalDecision).insert({
      approvalId: approval.id,
      step,
      userId: caller.id,
      employeeId: caller.employeeId,
      decision,
      asAdmin: outcome.record.asAdmin,
      comment: options.comment ?? null,
      at: now,
    });
    const approvers = em.getRepository(ApprovalApprover);
    if (outcome.status !== 'Pending') {
      approval.escalateAt = null;
      await approvers.delete({ approvalId: approval.id });
    } else if (outcome.completesStep) {
      approval.currentStep++;
      await this.open(em, approval, [...decisions, outcome.record], now);
      await approvers.delete({ approvalId: approval.id });
      await this.inbox(em, approval);
    } else if (caller.employeeId !== null) {
      await approvers.delete({ approvalId: approval.id, employeeId: caller.employeeId });
    }
    const set = { currentStep: approval.currentStep, steps: approval.steps, escalateAt: approval.escalateAt };
    const pending = { id: approval.id, status: 'Pending' as const };
    if (outcome.status === 'Pending') {
      APPROVAL_STATES.assert('advance', approval.status);
      await em.getRepository(Approval).update(pending, set);
    } else if (!(await APPROVAL_STATES.move(em, Approval, pending, outcome.status === 'Approved' ? 'approve' : 'reject', set)))
      throw APPROVAL_STATES.invalid(outcome.status === 'Approved' ? 'approve' : 'reject', approval.status);
    else approval.status = outcome.status;
    await recordEvent(em, 'approval.step_decided', {
      id: request.id,
      kind,
      employee: approval.employeeId,
      step,
      decision,
      by: caller.employeeId,
      as_admin: outcome.record.asAdmin,
      status: approval.status,
      next_step: outcome.completesStep && approval.status === 'Pending' ? approval.currentStep : null,
    });
    return approval.status;
  }

  /** Ends the chain of a cancelled request (its inbox rows go; later decisions meet 409). */
  async cancel(em: EntityManager, kind: ApprovalKind, requestId: number): Promise<void> {
    const approval = await em.getRepository(Approval).findOne({ where: { kind, requestId } });
    if (!approval || !APPROVAL_STATES.allows('cancel', approval.status)) return;
    await APPROVAL_STATES.move(em, Approval, { id: approval.id, status: approval.status }, 'cancel', { escalateAt: null });
    await em.getRepository(ApprovalApprover).delete({ approvalId: approval.id });
  }

  /** The open step of a request, before its lock (what a decision expects to find). */
  async openStep(kind: ApprovalKind, requestId: number): Promise<number | undefined> {
    const a = await this.ds
      .getRepository(Approval)
      .findOne({ where: { kind, requestId }, select: { id: true, currentStep: true } });
    return a?.currentStep;
  }

  /** Whether `employeeId` decides (or decided) a step of the request: a later step's approver sees it from the start. */
  async involves(kind: ApprovalKind, requestId: number, employeeId: number | null): Promise<boolean> {
    if (employeeId === null) return false;
    const a = await this.ds.getRepository(Approval).findOne({ where: { kind, requestId }, select: { id: true, steps: true } });
    return !!a?.steps.some((s) => s.approvers.includes(employeeId) || s.escalated.includes(employeeId));
  }

  /** Who hears that a step of a request waits for them (the step as it opened: its approvers, or the Admins); none before it opens. */
  async recipients(kind: ApprovalKind, requestId: number, stepNumber: number): Promise<RecipientRule[]> {
    const a = await this.ds.getRepository(Approval).findOne({ where: { kind, requestId } });
    const step = a?.steps[stepNumber - 1];
    if (!step?.opened_at) return [];
    const rules: RecipientRule[] = [...new Set([...step.approvers, ...step.escalated])].map((id) => ({ usersOf: id }));
    if (step.admins) rules.push({ admins: true });
    return rules;
  }

  /** Who decides the first step of a request (its new-request notification and task); its supervisor and approvers when it has no chain. */
  async firstDeciders(kind: ApprovalKind, requestId: number, employee: number): Promise<RecipientRule[]> {
    const rules = await this.recipients(kind, requestId, 1);
    return rules.length ? rules : [{ approversOf: employee }];
  }

  /** Each step's decisions of a request, as the employee's notification of the outcome says them (" Step 1: approved by ..."). */
  async decisionsText(kind: ApprovalKind, requestId: number): Promise<string> {
    const view = (await this.views(kind, [requestId])).get(requestId);
    if (!view) return '';
    const names = await this.repository.namesOf(
      view.steps.flatMap((s) => s.decisions.map((d) => d.by)).filter((x): x is number => x !== null),
    );
    return decisionsSentence(view, names);
  }

  /** The chains of some requests of a kind, as their DTOs show them: request id → view. */
  async views(kind: ApprovalKind, requestIds: number[]): Promise<Map<number, ApprovalViewDto>> {
    const out = new Map<number, ApprovalViewDto>();
    if (!requestIds.length) return out;
    const approvals = await this.ds.getRepository(Approval).find({ where: { kind, requestId: In(requestIds) } });
    const decisions = await this.ds
      .getRepository(ApprovalDecision)
      .find({ where: { approvalId: In(approvals.map((a) => a.id)) }, order: { id: 'ASC' } });
    for (const a of approvals) out.set(a.requestId, toApprovalView(a, decisions));
    return out;
  }

  /** Opens the approval's current step on the day of `now`: absences, delegations, earlier deciders. */
  private async open(em: EntityManager, approval: Approval, decisions: ChainDecision[], now: Date): Promise<void> {
    const index = approval.currentStep - 1;
    const step: ResolvedStep = approval.steps[index];
    const day = await this.clock.today(now);
    const opened = openStep(
      step,
      approval.employeeId,
      { day, instant: now.toISOString() },
      await this.absences.awayOn(em, step.approvers, day),
      await this.repository.delegatesOn(em, step.approvers, day),
      deciders(decisions),
      await this.repository.leftBy(em, step.approvers, day),
    );
    approval.steps = approval.steps.map((s, i) => (i === index ? opened : s));
    approval.escalateAt = approval.escalateAfterDays ? await this.escalation(em, approval, day, now) : null;
  }

  /** When a step opened on `day` at `now` escalates: escalate_after_days of the requester's working days later (issue 65). */
  private async escalation(em: EntityManager, approval: Approval, day: string, now: Date): Promise<Date> {
    const due = await this.workingDays.workingDaysAfter(approval.employeeId, day, approval.escalateAfterDays!, em);
    return new Date(now.getTime() + daysBetween(day, due) * 86_400_000);
  }

  /** The inbox rows of the open step: its approvers and escalated supervisors, and the Admins (null) when it went to them. */
  private async inbox(em: EntityManager, approval: Approval): Promise<void> {
    const step = approval.steps[approval.currentStep - 1];
    const who: Array<number | null> = [...new Set([...step.approvers, ...step.escalated])];
    if (step.admins) who.push(null);
    if (who.length)
      await em
        .getRepository(ApprovalApprover)
        .insert(who.map((employeeId) => ({ approvalId: approval.id, step: approval.currentStep, employeeId })));
  }

  /** A request's earlier chain (a time entry submitted again): gone with its rows. */
  private async discard(em: EntityManager, kind: ApprovalKind, requestId: number): Promise<void> {
    const old = await em.getRepository(Approval).findOne({ where: { kind, requestId }, select: { id: true } });
    if (!old) return;
    await em.getRepository(ApprovalApprover).delete({ approvalId: old.id });
    await em.getRepository(ApprovalDecision).delete({ approvalId: old.id });
    await em.getRepository(Approval).delete({ id: old.id });
  }

  private async decisionsOf(em: EntityManager, approvalIds: number[]): Promise<ChainDecision[]> {
    return (await em.getRepository(ApprovalDecision).find({ where: { approvalId: In(approvalIds) }, order: { id: 'ASC' } })).map(
      (d) => ({ step: d.step, userId: d.userId, employeeId: d.employeeId, decision: d.decision, asAdmin: d.asAdmin }),
    );
  }
}
