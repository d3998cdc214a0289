import { QueryFailedError } from 'typeorm';

/** True for a unique-index violation on MySQL/MariaDB (ER_DUP_ENTRY) or SQLite (SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY). */
export function isUniqueViolation(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const code = (err.driverError as { code?: string } | undefined)?.code;
  return code === 'ER_DUP_ENTRY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when a row is still referenced (delete restricted) or points to a missing row. */
export function isForeignKeyViolation(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driver = err.driverError as { code?: string; message?: string } | undefined;
  const code = driver?.code;
  if (code === 'ER_ROW_IS_REFERENCED_2' || code === 'ER_NO_REFERENCED_ROW_2' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return true;
  // SQLite reports ON DELETE RESTRICT through a trigger code.
  return code === 'SQLITE_CONSTRAINT_TRIGGER' && /FOREIGN KEY constraint failed/.test(driver?.message ?? '');
}

/** True when MySQL/MariaDB chose this transaction as a deadlock victim (ER_LOCK_DEADLOCK): it was rolled back and may be run again. */
export function isDeadlock(err: unknown): boolean {
  return err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === 'ER_LOCK_DEADLOCK';
}

/**
 * True when MySQL/MariaDB gave up on a statement because of another transaction's locks: chosen
 * as a deadlock victim (ER_LOCK_DEADLOCK, the transaction rolled back) or tired of waiting
 * (ER_LOCK_WAIT_TIMEOUT, innodb_lock_wait_timeout). The request changed nothing and may be sent again.
 */
export function isLockConflict(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const code = (err.driverError as { code?: string } | undefined)?.code;
  return code === 'ER_LOCK_DEADLOCK' || code === 'ER_LOCK_WAIT_TIMEOUT';
}

/** Seconds a client is asked to wait (Retry-After) when the database or Redis is unavailable. */
export const DEPENDENCY_RETRY_AFTER_S = 5;

/**
 * Error codes of a database or Redis that cannot be reached or went away: connection refused, reset
 * or timed out (Node), a connection lost or the server shutting down (mysql2/MariaDB), SQLite locked
 * beyond its busy timeout.
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_CON_COUNT_ERROR',
  'SQLITE_BUSY',
]);

/**
 * True when `err` says a dependency is unavailable rather than that the request or the code is
 * wrong: one of the codes above on the error, its TypeORM `driverError` or its `cause`; a mysql2
 * error flagged `fatal` (the connection is unusable); ioredis giving up on a command while Redis is
 * down. Answered 503 DEPENDENCY_UNAVAILABLE with Retry-After instead of 500.
 */
export function isDependencyUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && typeof e === 'object' && e !== null; depth++) {
    const { code, fatal, name, message } = e as { code?: unknown; fatal?: unknown; name?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (fatal === true) return true;
    if (name === 'MaxRetriesPerRequestError' || message === 'Connection is closed.') return true;
    const inner = e as { driverError?: unknown; cause?: unknown };
    e = inner.driverError ?? inner.cause;
  }
  return false;
}
