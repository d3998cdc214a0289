import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    /** A claim was submitted for approval. */
    'expense.submitted': ChangeEventPayload;
    /** A claim was approved or rejected (its chain's last step, or any rejection). */
    'expense.decided': ChangeEventPayload;
    /** A claim was paid: by a payroll's completion (`paid_in`) or outside payroll (`paid_reference`). */
    'expense.paid': ChangeEventPayload;
  }
}

export const EXPENSE_WEBHOOK_EVENTS = [
  'expense.submitted',
  'expense.decided',
  'expense.paid',
] as const satisfies readonly WebhookEvent[];

declareChangeEvents(EXPENSE_WEBHOOK_EVENTS);
