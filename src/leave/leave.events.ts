import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';
import { LeaveStatus } from './entities/leave.entities';

/** Events for the Tasks module: approval tasks on request, clean-up on decision. */
export const LEAVE_REQUESTED_EVENT = 'leave.requested';
export const LEAVE_DECIDED_EVENT = 'leave.decided';
export interface LeaveEvent {
  requestId: number;
  employeeId: number;
  status: LeaveStatus;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'leave.requested': ChangeEventPayload;
    'leave.decided': ChangeEventPayload;
  }
}

export const LEAVE_WEBHOOK_EVENTS = ['leave.requested', 'leave.decided'] as const satisfies readonly WebhookEvent[];
