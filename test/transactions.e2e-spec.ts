import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { transaction } from '../src/common/database/transaction';
import { isDeadlock } from '../src/common/errors/db-errors';
import { Department } from '../src/reference/entities/reference.entities';
import { createTestApp, INTEGRATION, TestApp } from './helpers/test-app';

/** MariaDB only: what the transaction helper does when the server picks a deadlock victim. */
(INTEGRATION ? describe : describe.skip)('transaction(): deadlock victims on MariaDB', () => {
  let t: TestApp;
  let ds: DataSource;
  let rows: [number, number];

  beforeAll(async () => {
    t = await createTestApp();
    ds = t.app.get(DataSource);
    const repo = ds.getRepository(Department);
    rows = [(await repo.save({ name: 'lock-a', parentId: null })).id, (await repo.save({ name: 'lock-b', parentId: null })).id];
  });
  afterAll(() => t.close());

  /** Two transactions locking the two rows in opposite orders, each waiting until the other holds its first lock. */
  const crossed = (deadlockRetries: number) => {
    let held = 0;
    let bothHeld!: () => void;
    const barrier = new Promise<void>((r) => (bothHeld = r));
    const runs: number[] = [0, 0];
    const work = (i: 0 | 1) =>
      transaction(
        ds,
        async (em) => {
          runs[i]++;
          const [first, second] = i === 0 ? rows : [rows[1], rows[0]];
          await em.query('UPDATE departments SET name = name WHERE id = ?', [first]);
          if (++held === 2) bothHeld();
          await barrier;
          await em.query(`UPDATE departments SET name = CONCAT(name, '${i}') WHERE id = ?`, [second]);
        },
        { deadlockRetries },
      );
    return { results: Promise.allSettled([work(0), work(1)]), runs };
  };

  it('without retries the victim fails with ER_LOCK_DEADLOCK; with one retry both commit, the victim having run twice', async () => {
    const once = crossed(0);
    const results = await once.results;
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(isDeadlock(rejected.reason)).toBe(true);

    const retried = crossed(1);
    expect((await retried.results).map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(retried.runs.sort()).toEqual([1, 2]);
  });
});

/**
 * SQLite in a file shared by several processes (API_PROCESSES, a separate worker): a transaction
 * that read before it wrote failed with SQLITE_BUSY_SNAPSHOT (a 500) when another process had
 * written in between; busy_timeout does not wait for that one. Transactions begin IMMEDIATE: the
 * other process's write waits for the commit instead.
 */
(INTEGRATION ? describe.skip : describe)('transaction(): several processes on one SQLite file', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hr-sqlite-tx-'));
    t = await createTestApp({ DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` });
    await t.app.get(DataSource).query('CREATE TABLE scratch (n INTEGER)');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a transaction that read, then writes after another process's write, commits; the other's write waits for it", async () => {
    const ds = t.app.get(DataSource);
    let other!: Promise<number | null>;
    await transaction(ds, async (em) => {
      await em.query('SELECT COUNT(*) AS n FROM scratch');
      // Another process writes while this transaction is open (better-sqlite3 is synchronous: a
      // child process, so that its wait for the lock does not stop this one).
      const child = spawn(
        process.execPath,
        [
          '-e',
          "const db = new (require('better-sqlite3'))(process.argv[1], { timeout: 5000 }); db.prepare('INSERT INTO scratch VALUES (2)').run();",
          join(dir, 'hr.sqlite'),
        ],
        { stdio: 'inherit' },
      );
      other = new Promise((r) => child.on('exit', (code) => r(code)));
      await new Promise((r) => setTimeout(r, 500));
      await em.query('INSERT INTO scratch VALUES (1)');
    });
    expect(await other).toBe(0);
    expect(await ds.query('SELECT n FROM scratch ORDER BY rowid')).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
