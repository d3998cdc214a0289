import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** The payload of the internal event document.reminder: a reminder the expiry job made. */
export interface DocumentReminderPayload {
  /** The reminder's id: the tasks' source record (one task per reminder and user). */
  reminder: number;
  document: number;
  employee: number;
  document_type: number;
  /** "Passport" */
  name: string;
  valid_until: string;
  /** Days before valid_until of the reminder; null once the document has expired. */
  days_left: number | null;
}

/** The payload of the internal event document.settled: a document renewed (a new version) or deleted. */
export interface DocumentSettledPayload {
  document: number;
  reminders: number[];
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
  interface InternalEventPayloads {
    /** Someone uploaded a document or a new version of one for the employee (not a file the service made): id is the document's, changes its fields. */
    'document.uploaded': ChangeEventPayload;
    'document.reminder': DocumentReminderPayload;
    'document.settled': DocumentSettledPayload;
  }
  interface WebhookEventPayloads {
    'document.expiring': DocumentExpiryPayload;
    'document.expired': DocumentExpiryPayload;
  }
}

export const DOCUMENT_WEBHOOK_EVENTS = ['document.expiring', 'document.expired'] as const satisfies readonly WebhookEvent[];

declareSchemas({
  DocumentExpiryEventData: {
    type: 'object',
    required: ['id', 'employee', 'document_type', 'name', 'version', 'valid_until', 'days_left'],
    properties: {
      id: { type: 'integer', description: 'the document' },
      employee: { type: 'integer' },
      document_type: { type: 'integer' },
      name: { type: 'string' },
      version: { type: 'integer' },
      valid_until: { type: 'string', format: 'date' },
      days_left: { type: 'integer', description: 'days left (0: the last valid day); negative once expired' },
    },
  },
});
declareEventSchemas({ 'document.expiring': 'DocumentExpiryEventData', 'document.expired': 'DocumentExpiryEventData' });
