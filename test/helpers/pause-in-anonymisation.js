'use strict';
/**
 * Test-only (privacy-crash.e2e-spec), preloaded with `--require` into a built service on SQLite:
 * at the anonymisation's write of the employee's names (its first holder's, after the privacy row
 * and the audit entry were written), inside the transaction, the process prints `paused in an
 * anonymisation` straight to its stdout and blocks its thread, so that the test's SIGKILL lands
 * with the anonymisation half written and uncommitted.
 */
const { writeSync } = require('node:fs');
const Database = require('better-sqlite3');

const probe = new Database(':memory:');
const statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();

const NAMES = /^UPDATE "employees" SET .*"first_name" = /;
const run = statement.run;
statement.run = function (...params) {
  if (this.database.inTransaction && NAMES.test(this.source)) {
    writeSync(1, `${JSON.stringify({ msg: 'paused in an anonymisation' })}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  }
  return run.apply(this, params);
};
