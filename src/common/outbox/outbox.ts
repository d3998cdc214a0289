import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { sqlInstant } from '../time/instants';

/** The outbox: every module's events, written in the transaction of each change; the relay hands them to the subscribers. */
export const OUTBOX_TABLE = 'outbox_events';

/**
 * The webhook events by name, each with its payload's type (issue 26). Each module declares its own
 * in its `*.events.ts` by merging into this interface (`declare module '../common/outbox/outbox'`),
 * and lists them at run time for the Webhooks module (`webhooks/webhook-events.ts`, which fails to
 * compile when a declared event is missing from the list).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WebhookEventPayloads {}
export type WebhookEvent = Extract<keyof WebhookEventPayloads, string>;

/**
 * Events for the service's own subscribers only (tasks, notifications), never offered to webhooks
 * (issue 42): `user.password_changed`, `document.reminder`, ... Declared like the webhook events.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface InternalEventPayloads {}

/** Every event the outbox carries, by name → payload. */
export type OutboxEventPayloads = WebhookEventPayloads & InternalEventPayloads;
export type OutboxEventName = Extract<keyof OutboxEventPayloads, string>;

/** The payload of an audited change that is a webhook event (recordAudit's `event`): the record, its employee, the field changes. */
export interface ChangeEventPayload {
  id: number;
  employee: number | null;
  /** field → [before, after], secrets left out. */
  changes: Record<string, [unknown, unknown]>;
}

/** The events whose payload is a change (those recordAudit may name). */
export type ChangeEvent = {
  [E in OutboxEventName]: OutboxEventPayloads[E] extends ChangeEventPayload ? E : never;
}[OutboxEventName];

/**
 * Records an event with `em`, the entity manager of the transaction that makes the change: the
 * event exists exactly when the change does, and a crash before it is handled loses nothing (the
 * relay hands it to every subscriber). `data` holds ids and changed fields, never secrets.
 */
export function recordEvent<E extends OutboxEventName>(em: EntityManager, event: E, data: OutboxEventPayloads[E]): Promise<void> {
  return recordEvents(em, [{ event, data }]);
}

/** recordEvent for many events at once, in one multi-row INSERT. */
export async function recordEvents<E extends OutboxEventName>(
  em: EntityManager,
  events: ReadonlyArray<{ event: E; data: OutboxEventPayloads[E] }>,
): Promise<void> {
  if (!events.length) return;
  const at = sqlInstant();
  // employee_id: the employee the event is about, for the events feed's scope (GET /events).
  const employeeOf = (data: unknown) => {
    const employee = (data as { employee?: unknown }).employee;
    return typeof employee === 'number' ? employee : null;
  };
  await em.query(
    `INSERT INTO ${OUTBOX_TABLE} (event_id, event, payload, created_at, employee_id) VALUES ${events.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
    events.flatMap((e) => [randomUUID(), e.event, JSON.stringify(e.data), at, employeeOf(e.data)]),
  );
}
