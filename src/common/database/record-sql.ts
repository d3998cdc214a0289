import { AsyncLocalStorage } from 'node:async_hooks';
import { DataSource } from 'typeorm';

/**
 * SQL snapshots (issue 26, after immich's @GenerateSql): a repository method marked
 * `@RecordSql(...sampleArguments)` is called with those arguments by test/sql-snapshots.e2e-spec.ts
 * on each dialect (SQLite under `npm test`, MariaDB under the integration run), and every statement
 * it sends is written to sql/<dialect>/<Repository>.sql. A change to a query shows in review as a
 * change to that file; a snapshot that no longer matches fails the test (`npm run sql:update`
 * rewrites them).
 */
export interface RecordedMethod {
  /** The repository class (resolved from the application to call the method). */
  target: abstract new (...args: never[]) => unknown;
  method: string;
  /** A label when one method is recorded with several argument lists. */
  label?: string;
  args: readonly unknown[];
}

const RECORDED: RecordedMethod[] = [];

/**
 * The sample argument standing for an EntityManager (a write's transaction): the snapshot run
 * passes its own connection's, with foreign key checks off, so that writes need no fixture rows.
 */
export const SAMPLE_MANAGER = Symbol('sample EntityManager');

/** Marks a repository method whose statements are recorded, called with `args`. */
export function RecordSql(...args: unknown[]): MethodDecorator {
  return (prototype, method) => {
    RECORDED.push({ target: prototype.constructor as RecordedMethod['target'], method: String(method), args });
  };
}

/** As RecordSql, under a label: one method recorded with several argument lists. */
export function RecordSqlAs(label: string, ...args: unknown[]): MethodDecorator {
  return (prototype, method) => {
    RECORDED.push({ target: prototype.constructor as RecordedMethod['target'], method: String(method), label, args });
  };
}

export function recordedMethods(): readonly RecordedMethod[] {
  return RECORDED;
}

/**
 * The statements of the recording the calling code runs in: a statement is recorded only when it
 * is sent from inside `work` (its async context), never one of a scheduled job that happens to run
 * meanwhile (the webhook dispatcher, every second, used to land in other repositories' snapshots).
 */
const recording = new AsyncLocalStorage<string[]>();

/** Statements sent outside TypeORM's query runners (DriverReader) report here; nothing is kept unless a recording runs. */
export function noteSql(sql: string): void {
  recording.getStore()?.push(sql);
}

/**
 * Runs `work` and returns the statements it sent: through TypeORM's query runners (their logger
 * hook, whatever the logging option) and through DriverReader. One recording at a time.
 */
export async function recordStatements(ds: DataSource, work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const logger = ds.logger;
  const logQuery = logger.logQuery.bind(logger);
  logger.logQuery = (query, parameters, runner) => {
    recording.getStore()?.push(query);
    logQuery(query, parameters, runner);
  };
  try {
    await recording.run(statements, work);
  } finally {
    logger.logQuery = logQuery;
  }
  // A DriverReader read inside a transaction goes through TypeORM as well: noted once.
  return statements.filter((sql, i) => sql !== statements[i - 1]);
}
