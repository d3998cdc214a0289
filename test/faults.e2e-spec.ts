import { describeIf, NEEDS_FAULTS } from './helpers/skip';
import { createServer, IncomingHttpHeaders, request as httpRequest, ServerResponse } from 'node:http';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { createConnection } from 'mysql2/promise';
import { benchColumns, benchPayrollBody, loadPayrollDataset } from '../scripts/bench-payroll-columns';
import { ReferenceService } from '../src/reference/reference.service';
import { buildCompany, employeeBody } from './helpers/company';
import { NodeProcess } from './helpers/node-process';
import { PrivateMariaDb, PrivateRedis, freePort, privateServersAvailable } from './helpers/private-services';
import { SmtpSink, startSmtp } from './helpers/smtp';
import { createTestApp, sleep, until } from './helpers/test-app';

/** `npm run test:faults` (a `.ci/run` step): private MariaDB and Redis this suite may stop. */
const FAULTS = process.env.HR_TEST_FAULTS === '1';

interface Sample {
  /** Which of the load's loops (one keep-alive connection each) sent it. */
  loop: number;
  start: number;
  end: number;
  status: number | null;
  code: string | null;
  retryAfter: string | null;
  error: string | null;
}

/**
 * `connections` loops, each sending the next GET as soon as the last one answered (keep-alive),
 * until stopped. A request that takes longer than 10 s counts as an error (a hang).
 */
function readLoad(base: string, token: string, paths: string[], connections: number) {
  const samples: Sample[] = [];
  let running = true;
  let n = 0;
  const loop = async (_: unknown, loop: number) => {
    while (running) {
      const start = Date.now();
      const path = paths[n++ % paths.length];
      try {
        const res = await fetch(`${base}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(10_000),
        });
        const body = (await res.json()) as { error?: { code?: string } };
        samples.push({
          loop,
          start,
          end: Date.now(),
          status: res.status,
          code: body.error?.code ?? null,
          retryAfter: res.headers.get('retry-after'),
          error: null,
        });
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause;
        samples.push({
          loop,
          start,
          end: Date.now(),
          status: null,
          code: null,
          retryAfter: null,
          error: cause?.code ?? String(err),
        });
        await sleep(20);
      }
    }
  };
  const loops = Array.from({ length: connections }, loop);
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

const summary = (samples: Sample[]) => {
  const counts: Record<string, number> = {};
  for (const s of samples) {
    const key = s.error ? `error ${s.error}` : `${s.status}${s.code ? ` ${s.code}` : ''}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};

/**
 * Fault injection with real processes (issue 14): the built API and worker (`dist/`) as child
 * processes, on a MariaDB and a Redis of this suite's own, which it stops and starts again.
 */
describeIf(FAULTS, NEEDS_FAULTS)('faults: real processes, MariaDB and Redis stopped and restarted', () => {
  const db = new PrivateMariaDb();
  const redis = new PrivateRedis();
  let smtp: SmtpSink;
  let admin: string;
  let paths: string[];
  let payrollDepartment: number;
  const processes: NodeProcess[] = [];
  const columns = benchColumns().map((c) => c.id);

  const env = (): Record<string, string> => ({
    DATABASE_URL: db.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'faults',
    SMTP_URL: smtp.url,
    MAIL_STATUS_WAIT_MS: '200',
    MAIL_RETRY_BACKOFF_MS: '500',
    QUEUE_LOCK_MS: '3000',
    QUEUE_STALLED_CHECK_MS: '1000',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    OUTBOX_RELAY_MS: '100',
  });

  /** `node dist/src/main.js` (NODE_ENV=production), not consuming jobs; resolves once it answers. */
  const startApi = async () => {
    const port = await freePort();
    const api = new NodeProcess('main', {
      ...env(),
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      QUEUE_CONSUMER: 'false',
    });
    processes.push(api);
    const base = `http://127.0.0.1:${port}/app/api`;
    await until(async () => {
      if (!api.running) throw new Error(`the API exited:\n${api.lines.join('\n')}`);
      return (await fetch(`${base}/health/live`).catch(() => null))?.status === 200;
    }, 30_000);
    return { api, base };
  };
  const startWorker = async (extra: Record<string, string> = {}) => {
    const worker = new NodeProcess('worker', { ...env(), ...extra });
    processes.push(worker);
    await worker.logged('worker consuming jobs');
    return worker;
  };
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const conn = await createConnection({ uri: db.url, dateStrings: true });
    try {
      return (await conn.query(sql, params))[0] as T[];
    } finally {
      await conn.end();
    }
  };
  const post = async (base: string, path: string, body: object) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };

  beforeAll(async () => {
    const missing = privateServersAvailable();
    if (missing) throw new Error(`the fault tests need private servers: ${missing}`);
    await db.init();
    await redis.start();
    smtp = await startSmtp({ acceptDelayMs: 3000 });
    // Schema, a company and a payroll data set, through an app in this process (closed afterwards).
    const setup = await createTestApp({ ...env(), QUEUE_CONSUMER: 'false' });
    try {
      const company = await buildCompany(setup.app);
      admin = company.users.admin.token;
      paths = [...Object.values(company.emp).map((id) => `/employees/${id}`), '/employees?limit=20&sortField=last_name'];
      payrollDepartment = await setup.app.get(ReferenceService).addDepartment('Payroll faults', null);
      await loadPayrollDataset(setup.app, payrollDepartment, 6000, 'XF');
    } finally {
      await setup.close();
    }
  }, 180_000);

  // A failed test leaves nothing stopped behind it for the next.
  afterEach(async () => {
    if (!db.running) await db.start();
    if (!redis.running) await redis.start();
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await smtp?.close();
    await redis.destroy();
    await db.destroy();
  });

  it('MariaDB stopped for 10 s under read load: 503 DEPENDENCY_UNAVAILABLE at once, not ready, and recovery without a restart', async () => {
    const { api, base } = await startApi();
    const load = readLoad(base, admin, paths, 8);
    let down: number;
    let restart: number;
    let up: number;
    let recovery: number;
    let ready: { status: number; body: unknown };
    try {
      await sleep(1500);
      await db.stop();
      down = Date.now();
      await sleep(500);
      const res = await fetch(`${base}/health/ready`, { signal: AbortSignal.timeout(5000) });
      ready = { status: res.status, body: await res.json() };
      await sleep(10_000 - (Date.now() - down));
      restart = Date.now();
      await db.start();
      up = Date.now();
      recovery = await until(() => load.samples.some((s) => s.start >= up && s.status === 200), 20_000);
      await sleep(1500);
    } finally {
      await load.stop();
    }
    const recovered = up + recovery;
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'ERROR',
      error: {
        code: 'DEPENDENCY_UNAVAILABLE',
        message: expect.any(String),
        details: [{ field: 'database', message: 'unreachable' }],
      },
    });

    const outage = load.samples.filter((s) => s.start >= down && s.end <= restart);
    const after = load.samples.filter((s) => s.start >= recovered + 200);
    const slowest = Math.max(...outage.map((s) => s.end - s.start));
    process.stdout.write(
      `MariaDB outage: ${outage.length} requests answered in ${restart - down} ms, slowest ${slowest} ms; ` +
        `first 200 ${recovery} ms after the server was back; all: ${JSON.stringify(summary(load.samples))}\n`,
    );
    // Nothing but 200 and 503, never a hang or a dropped connection.
    expect(Object.keys(summary(load.samples)).sort()).toEqual(['200', '503 DEPENDENCY_UNAVAILABLE']);
    expect(outage.length).toBeGreaterThan(100);
    expect(summary(outage)).toEqual({ '503 DEPENDENCY_UNAVAILABLE': outage.length });
    expect(outage.every((s) => s.retryAfter === '5')).toBe(true);
    expect(slowest).toBeLessThan(1000); // failing fast
    expect(after.length).toBeGreaterThan(50);
    expect(summary(after)).toEqual({ '200': after.length });
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    expect(api.running).toBe(true); // the same process recovered
    expect(await api.kill('SIGTERM')).toBe(0);
  }, 120_000);

  it('Redis restarted while a worker sends a welcome e-mail: one e-mail, and the queue works on afterwards', async () => {
    const { api, base } = await startApi();
    const worker = await startWorker();
    const createUser = async (username: string) => {
      const employee = await post(base, '/employees', employeeBody());
      expect(employee.status).toBe(200);
      const res = await post(base, `/employees/${String(employee.body.data.id)}/create-user`, {
        username,
        email: `${username}@faults.test`,
      });
      expect(res.status).toBe(200);
      return (res.body.data.user as { id: number }).id;
    };
    const sent = async (id: number) =>
      (await query<{ s: string }>('SELECT welcome_email_status AS s FROM users WHERE id = ?', [id]))[0].s;

    const first = await createUser('redisrestart');
    // The worker took the job: the SMTP server has the message and holds its answer for 3 s.
    await until(() => smtp.attempts >= 1, 10_000);
    await redis.stop();
    await sleep(1500);
    await redis.start();
    await until(() => smtp.messages.length >= 1, 30_000);
    await until(async () => (await sent(first)) === 'sent', 30_000);
    await sleep(4000); // a stalled-job check and a retry's backoff: time for a duplicate, should there be one
    expect(smtp.messages.map((m) => m.to)).toEqual([['redisrestart@faults.test']]);

    // The API and the worker reconnected on their own: the next user's e-mail goes out once too.
    const second = await createUser('afterrestart');
    await until(async () => (await sent(second)) === 'sent', 30_000);
    await sleep(2000);
    expect(smtp.messages.map((m) => m.to)).toEqual([['redisrestart@faults.test'], ['afterrestart@faults.test']]);
    expect(await worker.kill('SIGTERM')).toBe(0);
    expect(await api.kill('SIGTERM')).toBe(0);
  }, 120_000);

  it('SIGTERM to the API under load: requests in flight complete, nothing answers 5xx, exit 0', async () => {
    const { api, base } = await startApi();
    const load = readLoad(base, admin, paths, 8);
    await sleep(1000);
    // A POST whose body is half sent when the signal arrives: in flight by any definition.
    const body = JSON.stringify(employeeBody({ employee_id: 'INFLIGHT1' }));
    const url = new URL(`${base}/employees`);
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${admin}`,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => req.end(body.slice(20)), 800);
    });
    await sleep(200);
    const signalled = Date.now();
    let posted: { status: number; body: string };
    let code: number | null;
    try {
      [posted, code] = await Promise.all([answer, api.kill('SIGTERM')]);
    } finally {
      await load.stop();
    }
    expect(code).toBe(0);

    expect(posted.status).toBe(200);
    expect(await query('SELECT id FROM employees WHERE employee_id = ?', ['INFLIGHT1'])).toHaveLength(1);
    const answered = load.samples.filter((s) => s.status !== null);
    const refused = load.samples.filter((s) => s.error !== null);
    process.stdout.write(`SIGTERM under load: ${JSON.stringify(summary(load.samples))}\n`);
    expect(summary(answered)).toEqual({ '200': answered.length });
    // Nothing failed before the signal. After it, a keep-alive connection idle at the instant the
    // listener closed may see its next request reset (it never reached the service: a client
    // retries it), at most once per connection; new connections are refused.
    expect(refused.every((s) => s.start >= signalled)).toBe(true);
    for (let loop = 0; loop < 8; loop++) {
      const errors = refused.filter((s) => s.loop === loop).map((s) => s.error);
      // undici reports the closed keep-alive socket as UND_ERR_SOCKET ("other side closed").
      const resets = errors.filter((e) => e === 'ECONNRESET' || e === 'UND_ERR_SOCKET').length;
      expect({ loop, resets, others: errors.length - resets - errors.filter((e) => e === 'ECONNREFUSED').length }).toEqual({
        loop,
        resets: expect.any(Number),
        others: 0,
      });
      expect(resets).toBeLessThanOrEqual(1);
    }
  }, 60_000);

  it('SIGTERM to a worker during a payroll run: the chunks it took are written before exit 0; the run and a run queued meanwhile are processed once', async () => {
    const { api, base } = await startApi();
    const create = async (name: string) => {
      const res = await post(base, '/payroll_config/payrolls', benchPayrollBody(name, payrollDepartment));
      expect(res.status).toBe(200);
      return res.body.data.id as number;
    };
    const status = async (id: number) =>
      (await query<{ status: string }>('SELECT status FROM payrolls WHERE id = ?', [id]))[0].status;
    const runs = (workers: NodeProcess[], id: number) =>
      workers.flatMap((w) => w.messages()).filter((m) => m.startsWith(`payroll ${id} Processed`)).length;
    const first = await create('SIGTERM mid-run');
    const second = await create('Started while the worker stops');
    const worker = await startWorker();
    expect((await post(base, `/payroll_config/payrolls/${first}/process`, {})).status).toBe(200);
    await until(
      async () => Number((await query<{ p: number }>('SELECT progress AS p FROM payrolls WHERE id = ?', [first]))[0].p) > 0,
      60_000,
    );
    const exit = worker.kill('SIGTERM');
    // The signal came mid-run (checked at once: how long a run of this size takes after its
    // progress shows depends on the machine; after a fixed 1 s wait it was over once in CI).
    expect(await status(first)).toBe('Processing');
    expect((await post(base, `/payroll_config/payrolls/${second}/process`, {})).status).toBe(200);
    expect(await exit).toBe(0);
    // Drained: the chunks it had taken are written, none half (issue 70: the rest wait for the next worker).
    const chunks = await query<{ status: string; n: number }>(
      'SELECT k.status, COUNT(*) AS n FROM payroll_chunks k JOIN payrolls p ON p.id = k.payroll_id AND p.run_revision = k.revision WHERE k.payroll_id = ? GROUP BY k.status',
      [first],
    );
    if ((await status(first)) === 'Processing') expect(chunks.find((c) => c.status === 'Done')?.n ?? 0).toBeGreaterThan(0);
    // A run queued while the worker drains is usually left for the next worker; Bull sometimes
    // still hands it to the stopping one, which then finishes it before exiting (seen once in
    // five runs). Either way it is processed exactly once.
    const next = await startWorker();
    await until(async () => (await status(first)) === 'Processed' && (await status(second)) === 'Processed', 60_000);
    await sleep(1500);
    expect([runs([worker, next], first), runs([worker, next], second)]).toEqual([1, 1]);
    const cells = await query<{ payroll_id: number; n: number }>(
      'SELECT payroll_id, COUNT(*) AS n FROM payroll_cells WHERE payroll_id IN (?, ?) GROUP BY payroll_id ORDER BY payroll_id',
      [first, second],
    );
    expect(cells.map((c) => Number(c.n))).toEqual([Number(cells[0]?.n), Number(cells[0]?.n)]);
    expect(Number(cells[0]?.n)).toBeGreaterThan(0);
    // The review task of the run finished while its worker stopped was written before the exit.
    const tasks = await query<{ source_id: number }>(
      "SELECT DISTINCT source_id FROM tasks WHERE source = 'payroll-review' AND source_id IN (?, ?) ORDER BY source_id",
      [first, second],
    );
    expect(tasks.map((t) => Number(t.source_id))).toEqual([first, second]);
    expect(await next.kill('SIGTERM')).toBe(0);
    expect(await api.kill('SIGTERM')).toBe(0);
  }, 180_000);

  it('workers SIGKILLed in the middle of chunks, and in the last step, again and again: Processed once, every cell once (issue 70)', async () => {
    const { api, base } = await startApi();
    const res = await post(base, '/payroll_config/payrolls', benchPayrollBody('Killed again and again', payrollDepartment));
    const id = res.body.data.id as number;
    const run = async () =>
      (
        await query<{ status: string; progress: number; claim: string }>(
          'SELECT status, progress, claim FROM payrolls WHERE id = ?',
          [id],
        )
      )[0];
    const count = async (current: boolean) =>
      Number(
        (
          await query<{ n: number }>(
            `SELECT COUNT(*) AS n FROM payroll_cells c JOIN payrolls p ON p.id = c.payroll_id${current ? ' AND p.cells_revision = c.revision' : ''} WHERE c.payroll_id = ?`,
            [id],
          )
        )[0].n,
      );
    // Chunks of 400 employees: about 13 for the department's 5 140 Active employees.
    // Four kills in a row may each catch the same chunk: with the default JOB_MAX_WORKER_DEATHS (2)
    // that chunk is given up and the payroll Failed, as it should be (the CI run at 15b4527 saw it).
    const small = { PAYROLL_CHUNK_SIZE: '400', JOB_MAX_WORKER_DEATHS: '10' };
    const workers: NodeProcess[] = [];
    const killWhen = async (done: (r: Awaited<ReturnType<typeof run>>) => boolean) => {
      const worker = await startWorker(small);
      workers.push(worker);
      await until(async () => done(await run()), 120_000);
      expect(await worker.kill('SIGKILL')).toBeNull();
    };
    const processedOnce = (claim: string) =>
      workers.flatMap((w) => w.messages()).filter((m) => m.startsWith(`payroll ${id} Processed (claim ${claim})`)).length;
    let expected = 0;
    for (const round of [1, 2]) {
      expect((await post(base, `/payroll_config/payrolls/${id}/process`, {})).status).toBe(200);
      // Killed in the middle of chunks three times, then (round 2) as the last chunk is written
      // and the last step runs, then a worker that lives.
      await killWhen((r) => r.progress >= 10 || r.status !== 'Processing');
      await killWhen((r) => r.progress >= 40 || r.status !== 'Processing');
      await killWhen((r) => r.progress >= 70 || r.status !== 'Processing');
      if (round === 2) await killWhen((r) => r.progress >= 99 || r.status !== 'Processing');
      const survivor = await startWorker(small);
      workers.push(survivor);
      await until(async () => (await run()).status !== 'Processing', 120_000);
      const end = await run();
      expect({ round, status: end.status, progress: end.progress }).toEqual({ round, status: 'Processed', progress: 100 });
      if (round === 1) expected = await count(true);
      expect(expected).toBeGreaterThan(5000 * columns.length * 0.8);
      expect({ round, current: await count(true) }).toEqual({ round, current: expected });
      // What the killed attempts and the earlier run wrote is gone (the last step's clean-up may still be running).
      await until(async () => (await count(false)) === expected, 60_000);
      await sleep(1500); // a stalled-job check: no second end of the same claim
      expect({ round, processed: processedOnce(end.claim) }).toEqual({ round, processed: 1 });
      expect(await survivor.kill('SIGTERM')).toBe(0);
    }
    expect(await api.kill('SIGTERM')).toBe(0);
  }, 600_000);

  it('a worker SIGKILLed while it delivers a webhook: the next worker delivers the event, with the same webhook-id', async () => {
    const { api, base } = await startApi();
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const held: ServerResponse[] = [];
    // The first delivery is never answered (the worker dies waiting); later ones get 200.
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        if (received.length === 1) held.push(res);
        else res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
      const hook = await post(base, '/webhooks', { url, events: ['employee.created'] });
      expect(hook.status).toBe(200);
      const first = await startWorker();
      const employee = await post(base, '/employees', employeeBody({ employee_id: 'HOOKED1' }));
      expect(employee.status).toBe(200);
      await until(() => received.length >= 1, 15_000);
      expect(await first.kill('SIGKILL')).toBeNull();
      // Its job's lock expires (QUEUE_LOCK_MS 3 s) and the next worker's stalled-job check takes it.
      const next = await startWorker();
      await until(() => received.length >= 2, 30_000);
      const [lost, delivered] = received;
      expect(delivered.headers['webhook-id']).toBe(lost.headers['webhook-id']);
      const payload = new StandardWebhook(String(hook.body.data.secret)).verify(
        delivered.body,
        delivered.headers as Record<string, string>,
      );
      expect(payload).toMatchObject({ type: 'employee.created', data: { id: employee.body.data.id } });
      await until(
        async () =>
          (
            await query<{ n: number }>('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE delivered = 1 AND event = ?', [
              'employee.created',
            ])
          ).map((r) => Number(r.n))[0] === 1,
        10_000,
      );
      expect(await next.kill('SIGTERM')).toBe(0);
      expect(await api.kill('SIGTERM')).toBe(0);
    } finally {
      for (const res of held) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});
