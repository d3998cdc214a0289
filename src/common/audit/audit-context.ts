import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a change: a user id, the command line, or the service itself (jobs, events). */
export type AuditActor = number | 'cli' | 'system';

interface AuditStore {
  actor: AuditActor;
  requestId: string | null;
}

const storage = new AsyncLocalStorage<AuditStore>();

/**
 * Runs `fn` as `actor` (the HTTP pipeline starts every request as 'system' with its request id,
 * and the access guard names the user once the token is checked; the CLI runs as 'cli'). What
 * `fn` writes is recorded in the audit log under that actor.
 */
export function runAs<T>(actor: AuditActor, requestId: string | null, fn: () => T): T {
  return storage.run({ actor, requestId }, fn);
}

/** Names the authenticated user as the actor of the current request. */
export function setAuditActor(actor: AuditActor): void {
  const store = storage.getStore();
  if (store) store.actor = actor;
}

/** The current actor and request id; outside a request or command: the service itself. */
export function auditContext(): AuditStore {
  return storage.getStore() ?? { actor: 'system', requestId: null };
}
