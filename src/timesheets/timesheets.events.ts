import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'timesheet.submitted': ChangeEventPayload;
  }
  interface InternalEventPayloads {
    /** A time entry approved or rejected: its approval tasks are done, the employee hears of it. */
    'timesheet.decided': ChangeEventPayload;
  }
}

export const TIMESHEET_WEBHOOK_EVENTS = ['timesheet.submitted'] as const satisfies readonly WebhookEvent[];

declareChangeEvents(TIMESHEET_WEBHOOK_EVENTS);
