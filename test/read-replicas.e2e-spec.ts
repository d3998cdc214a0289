import { describeIf, NEEDS_REPLICA } from './helpers/skip';
import { createConnection, Connection } from 'mysql2/promise';
import { ReadReplicas } from '../src/common/database/read-replicas';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { parsePrometheusText } from './helpers/prometheus';
import { apiCaller, createTestApp, createUser, INTEGRATION, TestApp, testConfig, until } from './helpers/test-app';

/** host:port of a MariaDB replicating DATABASE_URL's server (.ci/run starts one: services.sh start-replication). */
const REPLICA = process.env.HR_TEST_REPLICA;

/**
 * DATABASE_READ_URLS (issue 48, docs/api/decisions.md §24) on a real replica: lists read it; the caller that wrote
 * reads the primary; a replica whose SQL thread stopped, or that does not answer, is skipped and
 * the primary serves.
 */
describeIf(INTEGRATION && !!REPLICA, NEEDS_REPLICA)('read replicas (MariaDB primary and replica)', () => {
  let t: TestApp;
  /** Another API process on the same database, replicas and Redis. */
  let t2: TestApp;
  let c: Company;
  let replica: Connection;
  let replicas: ReadReplicas;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    const url = (testConfig().database as { url: string }).url;
    const readUrl = url.replace(/@[^/]+\//, `@${REPLICA}/`);
    // A second replica that never answers: skipped from the first check on.
    const env = {
      DATABASE_READ_URLS: `${readUrl},mysql://hr:hr@127.0.0.1:9/nowhere`,
      READ_REPLICA_CHECK_MS: '600000', // the test reads the state when it wants: check()
      READ_REPLICA_MAX_LAG_S: '2',
      READ_YOUR_WRITES_MS: '5000',
    };
    t = await createTestApp(env);
    c = await buildCompany(t.app);
    t2 = await createTestApp({ ...env, QUEUE_PREFIX: t.config.queuePrefix }, { keepDatabase: true });
    call = apiCaller(t.app);
    replicas = t.app.get(ReadReplicas);
    replica = await createConnection(readUrl.replace(/\/[^/]*$/, '/'));
  }, 60_000);
  afterAll(async () => {
    await replica.query('START SLAVE SQL_THREAD').catch(() => undefined);
    await replica.query('STOP SLAVE').catch(() => undefined);
    await replica.query('CHANGE MASTER TO MASTER_DELAY = 0').catch(() => undefined);
    await replica.query('START SLAVE').catch(() => undefined);
    await replica.end();
    await t2.close();
    await t.close();
  });

  const ids = async (token: string): Promise<number[]> => {
    const res = await call('GET', '/employees?limit=500', token);
    expect(res.statusCode).toBe(200);
    return res.json().data.map((e: { id: number }) => e.id);
  };
  const onReplica = async (id: number) => {
    const db = (testConfig().database as { url: string }).url.replace(/^.*\//, '');
    const [rows] = await replica.query(`SELECT id FROM \`${db}\`.employees WHERE id = ?`, [id]);
    return (rows as unknown[]).length === 1;
  };
  const inUse = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/metrics' });
    const f = parsePrometheusText(res.body).get('hr_db_replica_in_use');
    return Object.fromEntries(f!.samples.map((s) => [s.labels.replica, s.value]));
  };

  it('lists read the replica; the writer reads its own writes; a stopped replica is skipped, then used again', async () => {
    const other = (await createUser(t.app, 'Admin')).token;
    const writer = c.users.admin.token;
    await until(() => onReplica(c.emp.outsider), 10_000);
    await replicas.check();
    await t2.app.get(ReadReplicas).check();
    expect(t2.app.get(ReadReplicas).state()[0].usable).toBe(true);
    expect(replicas.state().map((r) => [r.name, r.usable])).toEqual([
      ['replica1', true],
      ['replica2', false],
    ]);
    expect(replicas.state()[1].why).toMatch(/^unreachable/);
    expect(await inUse()).toEqual({ replica1: 1, replica2: 0 });

    // The replica stops applying; until the router next reads its state it still counts as in use.
    await replica.query('STOP SLAVE SQL_THREAD');
    const created = await call('POST', '/employees', writer, employeeBody({ department: c.departments.sales }));
    expect(created.statusCode).toBe(200);
    const id = created.json().data.id as number;
    expect(await onReplica(id)).toBe(false);
    // The writer reads the primary: its new employee is there.
    expect(await ids(writer)).toContain(id);
    // Another caller's list comes from the replica, which has not applied it.
    expect(await ids(other)).not.toContain(id);
    // In another API process too: the writer's mark is in Redis, the other caller's list is the replica's.
    const call2 = apiCaller(t2.app);
    const list2 = async (token: string) =>
      (await call2('GET', '/employees?limit=500', token)).json().data.map((e: { id: number }) => e.id);
    expect(await list2(writer)).toContain(id);
    expect(await list2(other)).not.toContain(id);

    // Read now, the replica's SQL thread is stopped: it is skipped and the primary serves everyone.
    await replicas.check();
    expect(replicas.state()[0]).toMatchObject({ usable: false, why: expect.stringContaining('replication stopped') });
    expect(await inUse()).toEqual({ replica1: 0, replica2: 0 });
    expect(await ids(other)).toContain(id);

    // Applying again, caught up: in use again, and it has the employee now.
    await replica.query('START SLAVE SQL_THREAD');
    await until(() => onReplica(id), 10_000);
    await replicas.check();
    expect(replicas.state()[0].usable).toBe(true);
    expect(await ids(other)).toContain(id);
  }, 60_000);

  it('a replica applying, but further behind than READ_REPLICA_MAX_LAG_S, is skipped until it catches up', async () => {
    const other = (await createUser(t.app, 'Admin')).token;
    const lag = async () => {
      const [rows] = await replica.query('SHOW SLAVE STATUS');
      return (rows as Array<{ Seconds_Behind_Master: number | null }>)[0].Seconds_Behind_Master;
    };
    // MariaDB's delayed replication: each event applied 6 s after it was written; both threads run.
    await replica.query('STOP SLAVE');
    await replica.query('CHANGE MASTER TO MASTER_DELAY = 6');
    await replica.query('START SLAVE');
    const created = await call('POST', '/employees', c.users.admin.token, employeeBody({ department: c.departments.sales }));
    const id = created.json().data.id as number;
    await until(async () => ((await lag()) ?? 0) >= 3, 10_000);
    await replicas.check();
    expect(replicas.state()[0]).toMatchObject({
      usable: false,
      why: expect.stringMatching(/^\d+ s behind \(READ_REPLICA_MAX_LAG_S 2\)$/),
    });
    expect((await lag()) ?? 0).toBeGreaterThanOrEqual(3);
    expect(await ids(other)).toContain(id); // the primary's answer
    await replica.query('STOP SLAVE');
    await replica.query('CHANGE MASTER TO MASTER_DELAY = 0');
    await replica.query('START SLAVE');
    await until(() => onReplica(id), 10_000);
    await until(async () => (await lag()) === 0, 10_000);
    await replicas.check();
    expect(replicas.state()[0].usable).toBe(true);
  }, 60_000);
});
