import { Catalogue } from '../declarations/catalogue';
import { declareSchemas, replaceSchema } from '../openapi/declared-schemas';

/**
 * The webhook events (issue 64 item 1), each declared by the module that owns it in its
 * `<module>.events.ts`, beside the payload's type, with the OpenAPI schema of its payload (Hardening
 * IV item 16): subscriptions choose among them, the change feed's items are `oneOf` them with `type`
 * as the discriminator, and the webhooks page points at them. The payload types stay checked at
 * compile time (WebhookEventPayloads); test/webhook-events.spec.ts checks that every event typed
 * there is declared here.
 */
const byEvent = new Catalogue<string>('webhook event (its payload schema)');

/** Every declared webhook event, in name order: one array kept up to date in place (validators and the document read it). */
export const WEBHOOK_EVENT_NAMES: string[] = byEvent.names;

/** An event's item schema name: employee.change_effective → EmployeeChangeEffectiveEvent. */
export const eventItemSchema = (event: string) =>
  `${event
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('')}Event`;

/** Declares webhook events, naming the component schema (declared with declareSchemas) of each one's `data`. */
export function declareEventSchemas(events: Record<string, string>): void {
  for (const [event, schema] of Object.entries(events)) {
    if (!byEvent.declare(event, schema)) continue;
    replaceSchema(eventItemSchema(event), () => ({
      type: 'object',
      required: ['id', 'type', 'occurred_at', 'data'],
      properties: {
        id: { type: 'integer', description: 'its position in the feed: events are numbered in the order they were committed' },
        type: { type: 'string', enum: [event] },
        occurred_at: { type: 'string', format: 'date-time' },
        data: { $ref: `#/components/schemas/${schema}` },
      },
    }));
  }
}

/** Each event's payload schema name. */
export function eventSchemas(): Pick<ReadonlyMap<string, string>, 'get'> {
  return byEvent;
}

/** The payload of a change event (ChangeEventPayload): the record, its employee, each changed field before and after. */
export const CHANGE_EVENT_DATA = 'ChangeEventData';
declareSchemas({
  [CHANGE_EVENT_DATA]: {
    type: 'object',
    required: ['id', 'employee', 'changes'],
    properties: {
      id: { type: 'integer', description: 'the record changed (the event says which kind)' },
      employee: { type: 'integer', nullable: true, description: 'the employee it is about, if any' },
      changes: {
        type: 'object',
        description: 'field → [before, after], secrets left out',
        additionalProperties: { type: 'array', minItems: 2, maxItems: 2, items: {} },
      },
    },
  },
});

/** Events whose payload is a change (ChangeEventPayload): each gets ChangeEventData. */
export function declareChangeEvents(events: readonly string[]): void {
  declareEventSchemas(Object.fromEntries(events.map((e) => [e, CHANGE_EVENT_DATA])));
}
