import { createConnection } from 'mysql2/promise';
import { DatabaseConfig } from '../config/config';

/** A database that cannot be used as configured, said in one line (what to create or grant). */
export class DatabaseSetupError extends Error {}

/** The one line for a MariaDB/MySQL refusal that no retry mends, or null for the others (a server still starting). */
export function setupProblem(url: string, err: unknown): string | null {
  const code = (err as { code?: string } | null)?.code ?? '';
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1)) || '(none)';
  const user = decodeURIComponent(u.username) || '(none)';
  const where = `${u.hostname}:${u.port || '3306'}`;
  switch (code) {
    case 'ER_BAD_DB_ERROR':
      return (
        `DATABASE_URL names the database "${name}", which does not exist on ${where}: create it ` +
        `(CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci) or fix DATABASE_URL (docs/operations.md, "MariaDB")`
      );
    case 'ER_ACCESS_DENIED_ERROR':
      return (
        `${where} refused the user "${user}" (access denied): check DATABASE_URL's user and password, or create the user ` +
        `(CREATE USER '${user}'@'%' IDENTIFIED BY '...'; GRANT ALL ON \`${name}\`.* TO '${user}'@'%') (docs/operations.md, "MariaDB")`
      );
    case 'ER_DBACCESS_DENIED_ERROR':
      return `the user "${user}" may not use the database "${name}" on ${where}: GRANT ALL ON \`${name}\`.* TO '${user}'@'%' (docs/operations.md, "MariaDB")`;
    default:
      return null;
  }
}

/**
 * Before the application starts on MariaDB/MySQL: one connection, and a refusal that no retry
 * mends (no such database, access denied) is a DatabaseSetupError with one line, instead of three
 * retries' stack traces. Other failures (the server not up yet) are left to the usual retries.
 */
export async function checkDatabase(config: DatabaseConfig): Promise<void> {
  if (config.type !== 'mysql') return;
  let conn;
  try {
    conn = await createConnection({ uri: config.url, connectTimeout: 5000 });
  } catch (err) {
    const problem = setupProblem(config.url, err);
    if (problem) throw new DatabaseSetupError(problem);
    return;
  }
  await conn.end().catch(() => undefined);
}
