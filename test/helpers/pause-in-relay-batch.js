'use strict';
/**
 * Test-only (outbox-relay-workers.e2e-spec), preloaded with `--require` into a built service on
 * SQLite: at the first write of an outbox relay batch, inside the batch's transaction, the process
 * prints `paused in a batch of <subscriber> at seq <cursor>` straight to its stdout (not through
 * the logger, whose lines leave when the event loop turns) and blocks its thread, so that the test's
 * SIGKILL lands with the batch uncommitted. (Holding SQLite's write lock from the test did that
 * while transactions began DEFERRED; an IMMEDIATE one waits for the lock before its batch begins.)
 */
const { writeSync } = require('node:fs');
const Database = require('better-sqlite3');

const probe = new Database(':memory:');
const statement = Object.getPrototypeOf(probe.prepare('SELECT 1'));
probe.close();

/** The relay's read of its cursor, in the batch's transaction (OutboxRepository). */
const CURSOR_READ = /^SELECT last_seq, failures FROM outbox_cursors WHERE subscriber = \?/;
let batch = null;

const all = statement.all;
statement.all = function (...params) {
  const rows = all.apply(this, params);
  if (CURSOR_READ.test(this.source) && this.database.inTransaction && rows.length)
    batch = { subscriber: params[0], seq: Number(rows[0].last_seq) };
  return rows;
};
const run = statement.run;
statement.run = function (...params) {
  if (batch && this.database.inTransaction) {
    writeSync(1, `${JSON.stringify({ msg: `paused in a batch of ${batch.subscriber} at seq ${batch.seq}` })}\n`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  }
  return run.apply(this, params);
};
