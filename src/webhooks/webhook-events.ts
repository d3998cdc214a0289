import { WebhookEvent } from '../common/outbox/outbox';
import { APPROVAL_WEBHOOK_EVENTS } from '../approvals/approvals.events';
import { DOCUMENT_WEBHOOK_EVENTS } from '../documents/documents.events';
import { EMPLOYEE_WEBHOOK_EVENTS } from '../employees/employees.events';
import { LEAVE_WEBHOOK_EVENTS } from '../leave/leave.events';
import { PAYROLL_WEBHOOK_EVENTS } from '../payroll/payroll.events';
import { TIMESHEET_WEBHOOK_EVENTS } from '../timesheets/timesheets.events';
import { TASK_WEBHOOK_EVENTS } from '../tasks/tasks.events';
import { USER_WEBHOOK_EVENTS } from '../users/users.events';

/** The events a webhook may subscribe to (README, Webhooks: each one's payload), as the modules declare them. */
export const WEBHOOK_EVENTS = [
  ...EMPLOYEE_WEBHOOK_EVENTS,
  ...USER_WEBHOOK_EVENTS,
  ...LEAVE_WEBHOOK_EVENTS,
  ...TIMESHEET_WEBHOOK_EVENTS,
  ...PAYROLL_WEBHOOK_EVENTS,
  ...DOCUMENT_WEBHOOK_EVENTS,
  ...TASK_WEBHOOK_EVENTS,
  ...APPROVAL_WEBHOOK_EVENTS,
] as const;

/** Fails to compile when a module declares an event (WebhookEventPayloads) that the list above lacks. */
type Unlisted = Exclude<WebhookEvent, (typeof WEBHOOK_EVENTS)[number]>;
export const EVERY_DECLARED_EVENT_IS_LISTED: [Unlisted] extends [never] ? true : Unlisted = true;
