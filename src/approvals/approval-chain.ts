import { compareMoney } from '../common/money/money';
import {
  ApprovalKind,
  ApprovalPolicy,
  ApprovalStatus,
  Decision,
  PolicyStep,
  ResolvedStep,
  StepMode,
  Substitution,
} from './entities/approval.entities';

/**
 * The rules of approval chains (issue 45, docs/api/decisions.md §21) as pure functions: which policy applies,
 * who its roles name, who decides a step once absences and delegations are known, and what a
 * decision does. The service reads and writes; the property test drives these against a model.
 */

/** The request's employee as the roles read it (its fields in force the day the request is made). */
export interface ChainSubject {
  id: number;
  departmentId: number | null;
  supervisorId: number | null;
  approver1Id: number | null;
  approver2Id: number | null;
  approver3Id: number | null;
}

/** What a policy's conditions test. */
export interface RequestFacts {
  kind: ApprovalKind;
  leaveTypeId: number | null;
  days: number | null;
  /** The request's amount ("1250.00"), for kinds whose requests have one. */
  amount?: string | null;
  /** The employee's department and its ancestors (a policy for Engineering covers its teams). */
  departments: number[];
}

export const APPROVER_ROLES = ['supervisor', 'approver1', 'approver2', 'approver3', 'department_head', 'admins'] as const;
export const EMPLOYEE_ROLE = /^employee:([1-9]\d{0,9})$/;

/** Today's behaviour when no policy applies: one step, any of the supervisor and approver1..3. */
export const DEFAULT_STEPS: PolicyStep[] = [{ approvers: ['supervisor', 'approver1', 'approver2', 'approver3'], mode: 'any' }];

/** The most specific policy whose conditions all hold (most conditions set; then the lowest id), or null. */
export function policyFor(policies: readonly ApprovalPolicy[], facts: RequestFacts): ApprovalPolicy | null {
  let best: ApprovalPolicy | null = null;
  let bestScore = -1;
  for (const p of [...policies].sort((a, b) => a.id - b.id)) {
    if (p.appliesTo !== facts.kind) continue;
    const c = p.conditions;
    let score = 0;
    if (c.leave_types?.length) {
      if (facts.leaveTypeId === null || !c.leave_types.includes(facts.leaveTypeId)) continue;
      score++;
    }
    if (c.min_days !== undefined && c.min_days !== null) {
      if (facts.days === null || facts.days < c.min_days) continue;
      score++;
    }
    if (c.min_amount !== undefined && c.min_amount !== null) {
      if (facts.amount === undefined || facts.amount === null || compareMoney(facts.amount, c.min_amount) < 0) continue;
      score++;
    }
    if (c.departments?.length) {
      if (!c.departments.some((d) => facts.departments.includes(d))) continue;
      score++;
    }
    if (score > bestScore) [best, bestScore] = [p, score];
  }
  return best;
}

/** The employees (and whether the Admins) a step's roles name; never the subject itself. */
export function resolveRoles(
  step: PolicyStep,
  subject: ChainSubject,
  departmentHead: number | null,
): { mode: StepMode; approvers: number[]; admins: boolean } {
  const ids: Array<number | null> = [];
  let admins = false;
  for (const role of step.approvers) {
    if (role === 'supervisor') ids.push(subject.supervisorId);
    else if (role === 'approver1') ids.push(subject.approver1Id);
    else if (role === 'approver2') ids.push(subject.approver2Id);
    else if (role === 'approver3') ids.push(subject.approver3Id);
    else if (role === 'department_head') ids.push(departmentHead);
    else if (role === 'admins') admins = true;
    else {
      const m = EMPLOYEE_ROLE.exec(role);
      if (m) ids.push(Number(m[1]));
    }
  }
  const approvers = [...new Set(ids.filter((x): x is number => x !== null && x !== subject.id))];
  return { mode: step.mode, approvers, admins };
}

/** A resolved step before it opens. */
export function pendingStep(resolved: { mode: StepMode; approvers: number[]; admins: boolean }): ResolvedStep {
  return { ...resolved, substitutions: [], escalated: [], opened_at: null };
}

/**
 * A step as it opens on `day`: an approver who has left the company by then is skipped; one with a
 * delegation that day is replaced by the delegate; one on approved leave, or who decided an earlier
 * step, is skipped; when nobody is left, the Admins.
 */
export function openStep(
  step: ResolvedStep,
  subjectId: number,
  at: { day: string; instant: string },
  away: ReadonlySet<number>,
  delegates: ReadonlyMap<number, number>,
  decidedEarlier: ReadonlySet<number>,
  left: ReadonlySet<number> = new Set(),
): ResolvedStep {
  const approvers: number[] = [];
  const substitutions: Substitution[] = [];
  for (const a of step.approvers) {
    if (left.has(a)) {
      substitutions.push({ approver: a, by: null, reason: 'left' });
      continue;
    }
    const delegate = delegates.get(a);
    if (delegate !== undefined && delegate !== subjectId && !decidedEarlier.has(delegate)) {
      substitutions.push({ approver: a, by: delegate, reason: 'delegation' });
      if (!approvers.includes(delegate)) approvers.push(delegate);
    } else if (away.has(a) || decidedEarlier.has(a) || delegate !== undefined) {
      substitutions.push({ approver: a, by: null, reason: away.has(a) || delegate !== undefined ? 'leave' : 'decided' });
    } else if (!approvers.includes(a)) approvers.push(a);
  }
  return { ...step, approvers, admins: step.admins || !approvers.length, substitutions, opened_at: at.instant };
}

/**
 * An open step once `leaver` has left the company: it no longer decides it; the step goes on with
 * its other approvers, or to the Admins when none is left who could still complete it (mode `all`:
 * every other approver has approved already). `approvedInStep`: who approved this step so far.
 */
export function withoutLeaver(step: ResolvedStep, leaver: number, approvedInStep: ReadonlySet<number>): ResolvedStep {
  if (!step.approvers.includes(leaver) && !step.escalated.includes(leaver)) return step;
  const approvers = step.approvers.filter((a) => a !== leaver);
  const escalated = step.escalated.filter((a) => a !== leaver);
  const stuck =
    (!approvers.length && !escalated.length) ||
    (step.mode === 'all' && !escalated.length && approvers.every((a) => approvedInStep.has(a)));
  return {
    ...step,
    approvers,
    escalated,
    admins: step.admins || stuck,
    substitutions: [...step.substitutions, { approver: leaver, by: null, reason: 'left' }],
  };
}

export interface ChainDecision {
  step: number;
  userId: number;
  employeeId: number | null;
  decision: Decision;
  asAdmin: boolean;
}

export interface ChainState {
  status: ApprovalStatus;
  currentStep: number;
  steps: ResolvedStep[];
  decisions: ChainDecision[];
}

export interface Decider {
  userId: number;
  employeeId: number | null;
  /** An Admin (or a Restricted Admin over the employee): may decide any step, recorded as such. */
  administers: boolean;
  /** The Admin level: decides the steps that went to the Admins as their approver. */
  admin: boolean;
}

export type DecisionOutcome =
  | { error: 'INVALID_STATE' | 'OWN_REQUEST' | 'ALREADY_DECIDED' | 'NOT_AN_APPROVER' }
  | { record: ChainDecision; completesStep: boolean; status: ApprovalStatus };

/** Whether `who` is among the deciders of `step` (its approvers, the supervisors it escalated to, the Admins). */
export function decidesStep(step: ResolvedStep, who: Pick<Decider, 'employeeId' | 'admin'>): boolean {
  return (
    (who.employeeId !== null && (step.approvers.includes(who.employeeId) || step.escalated.includes(who.employeeId))) ||
    (step.admins && who.admin)
  );
}

/**
 * What a decision on the current step does. A rejection ends the request; an approval completes
 * the step when its mode is `any`, when it comes from an Admin outside the step or a supervisor it
 * escalated to, or (mode `all`) when every approver has approved; the last step's completion
 * approves the request.
 */
export function decide(state: ChainState, subjectId: number, who: Decider, decision: Decision): DecisionOutcome {
  if (state.status !== 'Pending') return { error: 'INVALID_STATE' };
  if (who.employeeId === subjectId) return { error: 'OWN_REQUEST' };
  if (state.decisions.some((d) => d.userId === who.userId)) return { error: 'ALREADY_DECIDED' };
  const step = state.steps[state.currentStep - 1];
  const approver = decidesStep(step, who);
  if (!approver && !who.administers) return { error: 'NOT_AN_APPROVER' };
  const record: ChainDecision = {
    step: state.currentStep,
    userId: who.userId,
    employeeId: who.employeeId,
    decision,
    asAdmin: !approver,
  };
  if (decision === 'reject') return { record, completesStep: true, status: 'Rejected' };
  const approvedBy = new Set(
    [...state.decisions, record]
      .filter((d) => d.step === state.currentStep && d.decision === 'approve')
      .map((d) => d.employeeId)
      .filter((x): x is number => x !== null),
  );
  const inStep = who.employeeId !== null && step.approvers.includes(who.employeeId);
  const completesStep = step.mode === 'any' || !inStep || step.approvers.every((a) => approvedBy.has(a));
  const last = state.currentStep === state.steps.length;
  return { record, completesStep, status: completesStep && last ? 'Approved' : 'Pending' };
}

/** The employees who decided any step so far (they decide no later one). */
export function deciders(decisions: readonly ChainDecision[]): Set<number> {
  return new Set(decisions.map((d) => d.employeeId).filter((x): x is number => x !== null));
}

/** The department and its ancestors, nearest first (a cycle stops the walk). */
export function ancestry(departments: ReadonlyMap<number, { parent: number | null }>, id: number | null): number[] {
  const out: number[] = [];
  for (let at = id; at !== null && !out.includes(at); at = departments.get(at)?.parent ?? null) out.push(at);
  return out;
}

/** The head of the employee's department: its own, else the nearest ancestor's; never the employee itself. */
export function headOf(
  departments: ReadonlyMap<number, { parent: number | null; head: number | null }>,
  departmentId: number | null,
  employeeId: number,
): number | null {
  for (const d of ancestry(departments, departmentId)) {
    const head = departments.get(d)?.head ?? null;
    if (head !== null && head !== employeeId) return head;
  }
  return null;
}
