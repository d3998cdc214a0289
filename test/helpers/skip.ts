/**
 * Suites and tests that need what a newcomer's `npm test` does not have say so in their name, and
 * the run ends with the list of what was skipped and why (test/helpers/skip-reporter.js).
 */
export const NEEDS_SERVERS = 'MariaDB and Redis: npm run test:integration, a step of .ci/run';
export const NEEDS_SQLITE = 'the embedded SQLite database: it is about SQLite, npm test runs it';
/** A suite about the code's declarations, not the database: npm test runs it, test:integration need not. */
export const NOT_DATABASE = 'nothing of the database: npm test runs it';
/** The project's ESLint on planted code: a step of .ci/run (npm run test:lint-rules), beside lint. */
export const NEEDS_LINT = "the project's ESLint: npm run test:lint-rules, a step of .ci/run";

const named = (name: string, needs: string) => `${name} [skipped: needs ${needs}]`;

/** `describe` when `run`, else `describe.skip` with what it needs in its name. */
export function describeIf(run: boolean, needs: string): (name: string, fn: () => void) => void {
  return run ? describe : (name, fn) => describe.skip(named(name, needs), fn);
}

/** `it` when `run`, else `it.skip` with what it needs in its name. */
export function itIf(run: boolean, needs: string): (name: string, fn: jest.ProvidesCallback, timeout?: number) => void {
  return run ? it : (name, fn, timeout) => it.skip(named(name, needs), fn, timeout);
}
export const NEEDS_FAULTS = 'a MariaDB and a Redis of its own that it stops: npm run test:faults, a step of .ci/run';
export const NEEDS_REPLICA = 'a MariaDB primary and its replica: npm run test:replicas, a step of .ci/run';
export const NEEDS_TRACES = 'an OTLP receiver and the built service: npm run test:traces, a step of .ci/run';

/**
 * The long suites (the demo's whole seed, migrations over the demo's data, a list over thousands of
 * employees, slow clients held for seconds, hostile input by the hundred): `npm run test:long` and
 * test:integration run them, both steps of .ci/run; a newcomer's npm test stays within 4 minutes.
 */
export const LONG = process.env.HR_TEST_LONG === '1' || process.env.HR_TEST_INTEGRATION === '1';
export const NEEDS_LONG = 'time: npm run test:long (or test:integration), a step of .ci/run';
