import { declareSchemas } from '../openapi/declared-schemas';

/**
 * The OpenAPI schema of each webhook event's payload (Hardening IV item 16), declared by the module
 * that owns the event in its `<module>.events.ts`, beside the payload's type: the change feed's items
 * are `oneOf` them with `type` as the discriminator, and the webhooks page points at them. A test
 * checks that every webhook event has one.
 */
const byEvent = new Map<string, string>();

/** Names the component schema (declared with declareSchemas) of each event's `data`. */
export function declareEventSchemas(events: Record<string, string>): void {
  for (const [event, schema] of Object.entries(events)) {
    const before = byEvent.get(event);
    if (before && before !== schema) throw new Error(`event ${event} has two payload schemas: ${before} and ${schema}`);
    byEvent.set(event, schema);
  }
}

/** Each event's payload schema name. */
export function eventSchemas(): ReadonlyMap<string, string> {
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
