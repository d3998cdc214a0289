import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    /** An employee was anonymised: `changes` holds `anonymised_at` only, no personal value. */
    'employee.anonymised': ChangeEventPayload;
  }
}

export const PRIVACY_WEBHOOK_EVENTS = ['employee.anonymised'] as const satisfies readonly WebhookEvent[];

declareChangeEvents(PRIVACY_WEBHOOK_EVENTS);
