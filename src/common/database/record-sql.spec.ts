import { DataSource } from 'typeorm';
import { recordStatements } from './record-sql';

describe('SQL recording for the snapshots', () => {
  it("records the work's own statements, not those another task sends meanwhile (a scheduled job)", async () => {
    const ds = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    try {
      let stop = false;
      // A job of its own, outside the recording: it sends a statement at every turn of the event loop.
      const job = (async () => {
        while (!stop) {
          await ds.query('SELECT 2 AS job');
          await new Promise((r) => setImmediate(r));
        }
      })();
      const recorded = await recordStatements(ds, async () => {
        await new Promise((r) => setImmediate(r));
        await ds.query('SELECT 1 AS work');
        await new Promise((r) => setTimeout(r, 20));
        await ds.query('SELECT 3 AS work');
      });
      stop = true;
      await job;
      expect(recorded).toEqual(['SELECT 1 AS work', 'SELECT 3 AS work']);
    } finally {
      await ds.destroy();
    }
  });
});
