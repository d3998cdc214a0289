import { WebhookEvent } from '../common/outbox/outbox';

/** For the Tasks module: a reminder made by the expiry job (after its transaction committed). */
export const DOCUMENT_REMINDER_EVENT = 'document.reminder';
export interface DocumentReminderEvent {
  /** The reminder's id: the tasks' source record (one task per reminder and user). */
  reminderId: number;
  documentId: number;
  employeeId: number;
  /** "Passport" */
  documentName: string;
  validUntil: string;
  /** Days before valid_until of the reminder; null once the document has expired. */
  daysLeft: number | null;
  /** The users to remind: the employee's HR, and the employee itself where the type is visible to it. */
  userIds: number[];
}

/** For the Tasks module: a document renewed (a new version) or deleted: its reminders' tasks are done. */
export const DOCUMENT_SETTLED_EVENT = 'document.settled';
export interface DocumentSettledEvent {
  documentId: number;
  reminderIds: number[];
}

/** The payload of document.expiring and document.expired. */
export interface DocumentExpiryPayload {
  id: number;
  employee: number;
  document_type: number;
  name: string;
  version: number;
  valid_until: string;
  /** Days left (0: the last valid day); negative once expired. */
  days_left: number;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'document.expiring': DocumentExpiryPayload;
    'document.expired': DocumentExpiryPayload;
  }
}

export const DOCUMENT_WEBHOOK_EVENTS = ['document.expiring', 'document.expired'] as const satisfies readonly WebhookEvent[];
