import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'leave.requested': ChangeEventPayload;
    'leave.decided': ChangeEventPayload;
  }
  interface InternalEventPayloads {
    /** A leave policy or its assignment was created, changed or deleted: what every balance reads. */
    'leave_policy.changed': ChangeEventPayload;
    'leave_type.changed': ChangeEventPayload;
    'leave_period.changed': ChangeEventPayload;
  }
}

export const LEAVE_WEBHOOK_EVENTS = ['leave.requested', 'leave.decided'] as const satisfies readonly WebhookEvent[];

declareChangeEvents(LEAVE_WEBHOOK_EVENTS);
