import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
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

/** An approver of an open step left the company (its termination took effect): the step goes on without it (issue 67). */
export interface ApproverLeftPayload {
  id: number;
  kind: ApprovalKind;
  employee: number;
  step: number;
  /** The employee who left. */
  left: number;
  /** Nobody else could complete the step: it went to the Admins. */
  to_admins: boolean;
}

declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'approval.step_decided': StepDecidedPayload;
    'approval.escalated': EscalatedPayload;
  }
  interface InternalEventPayloads {
    'approval.approver_left': ApproverLeftPayload;
  }
}

export const APPROVAL_WEBHOOK_EVENTS = ['approval.step_decided', 'approval.escalated'] as const satisfies readonly WebhookEvent[];

declareSchemas({
  ApprovalStepDecidedEventData: {
    type: 'object',
    required: ['id', 'kind', 'employee', 'step', 'decision', 'by', 'as_admin', 'status', 'next_step'],
    properties: {
      id: { type: 'integer', description: 'the leave request or time entry' },
      kind: { type: 'string' },
      employee: { type: 'integer' },
      step: { type: 'integer' },
      decision: { type: 'string' },
      by: { type: 'integer', nullable: true, description: 'the employee who decided (null: an Admin without one)' },
      as_admin: { type: 'boolean' },
      status: { type: 'string', description: "the chain's status after it" },
      next_step: { type: 'integer', nullable: true },
    },
  },
  ApprovalEscalatedEventData: {
    type: 'object',
    required: ['id', 'kind', 'employee', 'step', 'added'],
    properties: {
      id: { type: 'integer' },
      kind: { type: 'string' },
      employee: { type: 'integer' },
      step: { type: 'integer' },
      added: { type: 'array', items: { type: 'integer' }, description: 'the supervisors who joined the step' },
    },
  },
});
declareEventSchemas({
  'approval.step_decided': 'ApprovalStepDecidedEventData',
  'approval.escalated': 'ApprovalEscalatedEventData',
});
