import { declareChangeEvents, declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** A subject-access export is ready (issue 69): ids only, no personal value. */
export interface PersonalDataExportedPayload {
  /** The export. */
  id: number;
  employee: number;
  /** The user who asked for it. */
  requested_by: number | null;
  /** Its ZIP's size in bytes. */
  size: number;
  expires_at: string;
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    /** An employee was anonymised: `changes` holds `anonymised_at` only, no personal value. */
    'employee.anonymised': ChangeEventPayload;
    'personal_data.exported': PersonalDataExportedPayload;
  }
}

export const PRIVACY_WEBHOOK_EVENTS = [
  'employee.anonymised',
  'personal_data.exported',
] as const satisfies readonly WebhookEvent[];

declareChangeEvents(['employee.anonymised']);
declareSchemas({
  PersonalDataExportedEventData: {
    type: 'object',
    required: ['id', 'employee', 'requested_by', 'size', 'expires_at'],
    properties: {
      id: { type: 'integer', description: 'the export' },
      employee: { type: 'integer' },
      requested_by: { type: 'integer', nullable: true, description: 'the user who asked for it' },
      size: { type: 'integer', description: 'its ZIP’s size in bytes' },
      expires_at: { type: 'string', format: 'date-time' },
    },
  },
});
declareEventSchemas({ 'personal_data.exported': 'PersonalDataExportedEventData' });
