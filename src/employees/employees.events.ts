import { declareChangeEvents } from '../common/outbox/event-schemas';
import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** Webhook events of employee records (written by EmployeesService's recordAudit calls and the employment history). */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'employee.created': ChangeEventPayload;
    'employee.updated': ChangeEventPayload;
    'employee.deleted': ChangeEventPayload;
    /** A dated change took effect (on its day; at once for one dated today or earlier): id is the change's, changes its dated fields before and after its day (salary amounts are never in events). */
    'employee.change_effective': ChangeEventPayload;
    /** The employee's termination took effect (the daily job, on its termination date): changes holds status and termination_date. */
    'employee.terminated': ChangeEventPayload;
    /** A bank account of the employee was added, changed or removed (issue 46): id is the account's; the IBAN masked only. */
    'employee.bank_account_changed': ChangeEventPayload;
  }
  interface InternalEventPayloads {
    /** A dated change of the employee was recorded, corrected or cancelled (id is the change's): its facts over time changed. */
    'employee.change_recorded': ChangeEventPayload;
  }
}

export const EMPLOYEE_WEBHOOK_EVENTS = [
  'employee.created',
  'employee.updated',
  'employee.deleted',
  'employee.change_effective',
  'employee.terminated',
  'employee.bank_account_changed',
] as const satisfies readonly WebhookEvent[];

declareChangeEvents(EMPLOYEE_WEBHOOK_EVENTS);
