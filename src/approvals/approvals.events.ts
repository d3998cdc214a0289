import { WebhookEvent } from '../common/outbox/outbox';
import { ApprovalKind, ApprovalStatus, Decision } from './entities/approval.entities';

/** A decision on one step of a request's chain (issue 45). */
export interface StepDecidedPayload {
  /** The leave request or time entry. */
  id: number;
  kind: ApprovalKind;
  employee: number;
  step: number;
  decision: Decision;
  /** The employee who decided (null: an Admin without one). */
  by: number | null;
  as_admin: boolean;
  /** The chain's status after it. */
  status: ApprovalStatus;
  /** The step that opened with it, if any. */
  next_step: number | null;
}

/** Supervisors joined a step that waited escalate_after_days (issue 45). */
export interface EscalatedPayload {
  id: number;
  kind: ApprovalKind;
  employee: number;
  step: number;
  /** The supervisors who joined it. */
  added: number[];
}

declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'approval.step_decided': StepDecidedPayload;
    'approval.escalated': EscalatedPayload;
  }
}

export const APPROVAL_WEBHOOK_EVENTS = ['approval.step_decided', 'approval.escalated'] as const satisfies readonly WebhookEvent[];
