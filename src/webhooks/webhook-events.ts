import { WebhookEvent } from '../common/outbox/outbox';
import { eventSchemas } from '../common/outbox/event-schemas';
import { replaceSchema } from '../common/openapi/declared-schemas';
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

/** An event's item schema name: employee.change_effective → EmployeeChangeEffectiveEvent. */
export const eventItemSchema = (event: string) =>
  `${event
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

/**
 * The change feed's item (FeedEventDto) in the document: `oneOf` one schema per webhook event, whose
 * `type` is that event and whose `data` is the payload schema its module declared, with `type` as the
 * discriminator (Hardening IV item 16: `type` was a free string and `data` an open object).
 */
replaceSchema('FeedEventDto', () => {
  const ref = (name: string) => `#/components/schemas/${name}`;
  return {
    oneOf: WEBHOOK_EVENTS.map((e) => ({ $ref: ref(eventItemSchema(e)) })),
    discriminator: { propertyName: 'type', mapping: Object.fromEntries(WEBHOOK_EVENTS.map((e) => [e, ref(eventItemSchema(e))])) },
  };
});
for (const event of WEBHOOK_EVENTS)
  replaceSchema(eventItemSchema(event), () => {
    const data = eventSchemas().get(event);
    // Its module declares it beside the payload's type (declareEventSchemas in <module>.events.ts).
    if (!data) throw new Error(`webhook event ${event} has no payload schema: declare it in its module's events file`);
    return {
      type: 'object',
      required: ['id', 'type', 'occurred_at', 'data'],
      properties: {
        id: { type: 'integer', description: 'its position in the feed: events are numbered in the order they were committed' },
        type: { type: 'string', enum: [event] },
        occurred_at: { type: 'string', format: 'date-time' },
        data: { $ref: `#/components/schemas/${data}` },
      },
    };
  });
