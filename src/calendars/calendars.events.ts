import { declareEventSchemas } from '../common/outbox/event-schemas';
import { declareSchemas } from '../common/openapi/declared-schemas';
import { WebhookEvent } from '../common/outbox/outbox';

/** The payload of calendar.changed: a holiday of a calendar added, changed or removed, one event per date touched. */
export interface CalendarChangedPayload {
  calendar: number;
  date: string;
  change: 'added' | 'changed' | 'removed';
}

/** Webhook events (common/outbox WebhookEventPayloads): name → payload. */
declare module '../common/outbox/outbox' {
  interface WebhookEventPayloads {
    'calendar.changed': CalendarChangedPayload;
  }
}

export const CALENDAR_WEBHOOK_EVENTS = ['calendar.changed'] as const satisfies readonly WebhookEvent[];

declareSchemas({
  CalendarChangedEventData: {
    type: 'object',
    required: ['calendar', 'date', 'change'],
    properties: {
      calendar: { type: 'integer', description: 'the calendar' },
      date: { type: 'string', format: 'date', description: 'the day whose working time changed' },
      change: { type: 'string', enum: ['added', 'changed', 'removed'] },
    },
  },
});
declareEventSchemas({ 'calendar.changed': 'CalendarChangedEventData' });
