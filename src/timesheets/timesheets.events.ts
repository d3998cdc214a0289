import { ChangeEventPayload, WebhookEvent } from '../common/outbox/outbox';

/** For the Tasks module: an approval task for the employee's supervisor. */
export const TIMESHEET_SUBMITTED_EVENT = 'timesheet.submitted';
export interface TimesheetSubmittedEvent {
  entryId: number;
  employeeId: number;
}

/** For the Tasks module: the approval task of the entry is done. */
export const TIMESHEET_DECIDED_EVENT = 'timesheet.decided';
export interface TimesheetDecidedEvent {
  entryId: number;
  employeeId: number;
  status: 'Approved' | 'Rejected';
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'timesheet.submitted': ChangeEventPayload;
  }
}

export const TIMESHEET_WEBHOOK_EVENTS = ['timesheet.submitted'] as const satisfies readonly WebhookEvent[];
