import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';

/** The table the Webhooks module dispatches from; written in the transaction of each change. */
export const OUTBOX_TABLE = 'webhook_outbox';

/** The events a webhook may subscribe to (README, Webhooks: each one's payload). */
export const WEBHOOK_EVENTS = [
  'employee.created',
  'employee.updated',
  'employee.deleted',
  'user.created',
  'leave.requested',
  'leave.decided',
  'timesheet.submitted',
  'payroll.processed',
  'payroll.failed',
  'payroll.completed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * Records an event for the webhooks with `em`, the entity manager of the transaction that makes
 * the change: the event exists exactly when the change does, and a crash before its delivery
 * loses nothing (the dispatcher picks it up). `data` holds ids and changed fields, never secrets.
 */
export async function recordEvent(em: EntityManager, event: WebhookEvent, data: Record<string, unknown>): Promise<void> {
  await em.query(`INSERT INTO ${OUTBOX_TABLE} (event_id, event, payload, created_at) VALUES (?, ?, ?, ?)`, [
    randomUUID(),
    event,
    JSON.stringify(data),
    new Date().toISOString().slice(0, 23).replace('T', ' '),
  ]);
}
