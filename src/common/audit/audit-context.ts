import { AsyncLocalStorage } from 'node:async_hooks';

/** Who made a change: a user id, the command line, or the service itself (jobs, events). */
export type AuditActor = number | 'cli' | 'system' | 'scim';

interface AuditStore {
  actor: AuditActor;
  requestId: string | null;
  /** A job's queue, id and the fields its definition names (a payroll id): on every log line written while it runs. */
  job?: { queue: string; id: string; fields?: Record<string, unknown> };
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

/** Runs a job's handler as the service itself, with the job named in every log line it writes. */
export function runInJob<T>(job: NonNullable<AuditStore['job']>, fn: () => T): T {
  return storage.run({ actor: 'system', requestId: null, job }, fn);
}

/** What a log line written now is part of: the request id, or the job's queue, id and fields. */
export function logContext(): Record<string, unknown> | undefined {
  const store = storage.getStore();
  if (!store) return undefined;
  if (store.job) return { queue: store.job.queue, jobId: store.job.id, ...store.job.fields };
  return store.requestId ? { reqId: store.requestId } : undefined;
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
