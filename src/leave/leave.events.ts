import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'leave.requested': ChangeEventPayload;
    'leave.decided': ChangeEventPayload;
  }
}

export const LEAVE_WEBHOOK_EVENTS = ['leave.requested', 'leave.decided'] as const satisfies readonly WebhookEvent[];

declareChangeEvents(LEAVE_WEBHOOK_EVENTS);
