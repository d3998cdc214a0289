import { EntityManager } from 'typeorm';
import { ChangeEvent, recordEvents } from '../outbox/outbox';
import { auditContext } from './audit-context';
import { sqlInstant } from '../time/instants';

/** The table the Audit module owns and lists; every module writes to it through recordAudit. */
export const AUDIT_TABLE = 'audit_log';

export type FieldChanges = Record<string, [unknown, unknown]>;

export interface AuditChange {
  /** create, update, delete, or a state transition (approve, reject, cancel, submit, process, ...). */
  action: string;
  /** The collection as addressed in the API: employees, employees/salary, users, settings, departments, leaves, ... */
  resource: string;
  resourceId: string | number;
  /** The employee the record belongs to, when it belongs to one (what Restricted Admins are scoped by). */
  employee?: number | null;
  /** Before and after as the API shows them (field → value); null for a create's before or a delete's after. */
  before?: object | null;
  after?: object | null;
  /**
   * The webhook event this change is (employee.created, leave.decided, ...), named by the write
   * path itself: it goes to the outbox in the same transaction, with the same field changes.
   */
  event?: ChangeEvent;
}

/**
 * Fields never recorded, not even hashed: passwords and their hashes, tokens, secrets, temporary
 * passwords (matched on the field name).
 */
const SECRET_FIELD = /password|secret|token|hash|api[_-]?key/i;

/** A value as stored in the log: dates as ISO strings, everything else as JSON has it. */
function normalize(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (value === undefined) return null;
  return value;
}

/**
 * The fields whose values differ between `before` and `after` (compared as JSON), each as
 * [before, after]; secrets and the record's own id left out. A create lists every field of `after` that is not null, a
 * delete every field of `before`.
 */
export function fieldChanges(before: object | null | undefined, after: object | null | undefined): FieldChanges {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const changes: FieldChanges = {};
  for (const field of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (field === 'id' || SECRET_FIELD.test(field)) continue; // the id is the entry's resource_id
    const from = before ? normalize(b[field]) : null;
    const to = after ? normalize(a[field]) : null;
    if (JSON.stringify(from) !== JSON.stringify(to)) changes[field] = [from, to];
  }
  return changes;
}

/**
 * Records a change in the audit log with `em`, the entity manager of the transaction that makes
 * the change: the record commits or rolls back with it. An update that changes nothing is not
 * recorded. The actor and request id come from the current request or command (auditContext).
 * A change that is also a webhook event (employee.created, leave.decided, ...) is put in the
 * webhooks' outbox in the same transaction, with the same field changes.
 */
export function recordAudit(em: EntityManager, change: AuditChange): Promise<void> {
  return recordAudits(em, [change]);
}

/** Rows per multi-row INSERT of recordAudits (9 values a row). */
const AUDIT_CHUNK = 500;

/**
 * recordAudit for many changes at once (an import's batch): the same entries and events, in
 * multi-row INSERTs (one row each for a single change: the same statement as ever). Updates that
 * change nothing are left out.
 */
export async function recordAudits(em: EntityManager, changes: readonly AuditChange[]): Promise<void> {
  const { actor, requestId } = auditContext();
  const at = sqlInstant(new Date());
  const rows = changes
    .map((change) => ({ change, changes: fieldChanges(change.before, change.after) }))
    .filter((r) => r.change.action !== 'update' || Object.keys(r.changes).length > 0);
  for (let i = 0; i < rows.length; i += AUDIT_CHUNK) {
    const chunk = rows.slice(i, i + AUDIT_CHUNK);
    await em.query(
      `INSERT INTO ${AUDIT_TABLE} (at, actor_user_id, actor, action, resource, resource_id, employee_id, changes, request_id) VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      chunk.flatMap(({ change, changes }) => [
        at,
        typeof actor === 'number' ? actor : null,
        String(actor),
        change.action,
        change.resource,
        String(change.resourceId),
        change.employee ?? null,
        JSON.stringify(changes),
        requestId,
      ]),
    );
    const events = chunk.filter((r) => r.change.event);
    await recordEvents(
      em,
      events.map(({ change, changes }) => ({
        event: change.event!,
        data: { id: Number(change.resourceId), employee: change.employee ?? null, changes },
      })),
    );
  }
}
