import { replaceSchema } from '../common/openapi/declared-schemas';
import { eventItemSchema, WEBHOOK_EVENT_NAMES } from '../common/outbox/event-schemas';

/**
 * The events a webhook may subscribe to (README, Webhooks: each one's payload): those the modules
 * declare in their `*.events.ts` (declareEventSchemas, declareChangeEvents), in name order. One array,
 * kept up to date in place as modules load.
 */
export const WEBHOOK_EVENTS: readonly string[] = WEBHOOK_EVENT_NAMES;

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
