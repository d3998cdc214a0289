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
