import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events of employee records (written by EmployeesService's recordAudit calls). */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'employee.created': ChangeEventPayload;
    'employee.updated': ChangeEventPayload;
    'employee.deleted': ChangeEventPayload;
  }
}

export const EMPLOYEE_WEBHOOK_EVENTS = [
  'employee.created',
  'employee.updated',
  'employee.deleted',
] as const satisfies readonly WebhookEvent[];
