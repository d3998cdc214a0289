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
