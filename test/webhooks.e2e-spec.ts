import { itIf, NEEDS_SERVERS } from './helpers/skip';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { WebhookDeliveryProcessor } from '../src/webhooks/webhook-delivery.processor';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, INTEGRATION, okCaller, sleep, TestApp, until } from './helpers/test-app';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback answering each request with the next status of `statuses` (then the last one). */
async function receiver(statuses: number[] = [200]) {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)];
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const FAST = {
  WEBHOOK_ALLOW_PRIVATE: 'true',
  OUTBOX_RELAY_MS: '20',
  WEBHOOK_RETRY_BACKOFF_MS: '50',
  WEBHOOK_ATTEMPTS: '5',
};

/** A database and job runner of the app's own, whatever the suite runs on. */
const OWN_DATABASE = { DATABASE_URL: 'sqlite::memory:', REDIS_URL: '' };

/** Issue 15: signed webhooks fed by a transactional outbox. */
describe('webhooks', () => {
  let t: TestApp;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp(FAST);
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it('subscriptions: the secret only when made or rotated, validated URL and events, Admins only', async () => {
    const made = await ok('POST', '/webhooks', admin, {
      url: 'http://127.0.0.1:9/x',
      events: ['employee.created'],
      description: 'ERP',
    });
    expect(made).toEqual({
      id: expect.any(Number),
      url: 'http://127.0.0.1:9/x',
      events: ['employee.created'],
      active: true,
      description: 'ERP',
      disabled_reason: null,
      created_at: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const read = await ok('GET', `/webhooks/${made.id}`, admin);
    expect(read).not.toHaveProperty('secret');
    expect(JSON.stringify(await ok('GET', '/webhooks', admin))).not.toContain(made.secret);
    const rotated = await ok('POST', `/webhooks/${made.id}/rotate-secret`, admin);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(made.secret);
    // The audit log records the subscription and the rotation, never a secret.
    const audit = JSON.stringify(await ok('GET', '/audit-log?filters=' + encodeURIComponent('{"resource":"webhooks"}'), admin));
    expect(audit).toContain('rotate-secret');
    expect(audit).not.toContain(made.secret);
    expect(audit).not.toContain(rotated.secret);

    for (const [body, field] of [
      [{ url: 'ftp://example.com/x', events: ['employee.created'] }, 'url'],
      [{ url: 'http://u:p@example.com/x', events: ['employee.created'] }, 'url'],
      [{ url: 'http://127.0.0.1:9/x', events: ['employee.hired'] }, 'events'],
      [{ url: 'http://127.0.0.1:9/x', events: [] }, 'events'],
    ] as const) {
      const res = await call('POST', '/webhooks', admin, body);
      expect({ status: res.statusCode, field: res.json().error.details?.[0]?.field }).toEqual({ status: 400, field });
    }
    expect((await call('GET', '/webhooks', c.users.restricted.token)).statusCode).toBe(403);
    await ok('DELETE', `/webhooks/${made.id}`, admin);
    expect((await call('GET', `/webhooks/${made.id}`, admin)).statusCode).toBe(404);
  });

  it('a subscribed receiver gets leave.decided once, signed so that a Standard Webhooks verifier accepts it', async () => {
    const r = await receiver();
    try {
      const hook = await ok('POST', '/webhooks', admin, { url: r.url, events: ['leave.decided'] });
      await ok('POST', '/leave-periods', admin, { name: 'Hooks 2026', date_start: '2026-01-01', date_end: '2026-12-31' });
      const type = await ok('POST', '/leave-types', admin, { name: 'Hooks leave', default_days: 0, allow_negative: true });
      const leave = await ok('POST', '/leaves', c.users.employee.token, {
        leave_type: type.id,
        date_start: '2026-06-01',
        date_end: '2026-06-01',
      });
      await ok('POST', `/leaves/${leave.id}/approve`, c.users.manager.token, {});
      await until(() => r.received.length >= 1, 5000);
      await sleep(300); // time for a duplicate, or for leave.requested (not subscribed)
      expect(r.received).toHaveLength(1);
      const payload = new StandardWebhook(hook.secret).verify(
        r.received[0].body,
        r.received[0].headers as Record<string, string>,
      );
      expect(payload).toEqual({
        type: 'leave.decided',
        timestamp: expect.any(String),
        data: { id: leave.id, employee: c.emp.report1, changes: expect.objectContaining({ status: ['Pending', 'Approved'] }) },
      });
      expect(r.received[0].headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
      // Another secret does not verify it.
      expect(() =>
        new StandardWebhook('whsec_' + Buffer.alloc(24, 7).toString('base64')).verify(
          r.received[0].body,
          r.received[0].headers as Record<string, string>,
        ),
      ).toThrow();
      const deliveries = await ok('GET', `/webhooks/${hook.id}/deliveries`, admin);
      expect(deliveries).toEqual([
        expect.objectContaining({ event: 'leave.decided', attempt: 1, status_code: 200, delivered: true, error: null }),
      ]);
      await ok('DELETE', `/webhooks/${hook.id}`, admin);
    } finally {
      await r.close();
    }
  });

  it('while the receiver answers 500 the event is retried with the same webhook-id; delivered once it answers 200', async () => {
    const r = await receiver([500, 500, 200]);
    try {
      const hook = await ok('POST', '/webhooks', admin, { url: r.url, events: ['employee.created'] });
      const employee = await ok('POST', '/employees', admin, employeeBody());
      await until(() => r.received.length >= 3, 10_000);
      await sleep(300);
      expect(r.received).toHaveLength(3);
      expect(new Set(r.received.map((x) => x.headers['webhook-id'])).size).toBe(1);
      expect((JSON.parse(r.received[2].body) as { data: { id: number } }).data.id).toBe(employee.id);
      const deliveries = (await ok('GET', `/webhooks/${hook.id}/deliveries`, admin)) as Array<{
        attempt: number;
        status_code: number;
        delivered: boolean;
      }>;
      expect(deliveries.map((d) => [d.attempt, d.status_code, d.delivered])).toEqual([
        [3, 200, true],
        [2, 500, false],
        [1, 500, false],
      ]);
      expect((await ok('GET', `/webhooks/${hook.id}`, admin)).active).toBe(true);
      await ok('DELETE', `/webhooks/${hook.id}`, admin);
    } finally {
      await r.close();
    }
  });

  it('a delivery given up after its worker died JOB_MAX_WORKER_DEATHS times is listed with the reason (issue 42)', async () => {
    const r = await receiver([200]);
    const hook = await ok('POST', '/webhooks', admin, { url: r.url, events: ['employee.created'] });
    await r.close();
    const [event] = await t.app
      .get(DataSource)
      .query<Array<{ event_id: string }>>(`SELECT event_id FROM outbox_events ORDER BY id DESC LIMIT 1`);
    await t.app
      .get(WebhookDeliveryProcessor)
      .abandon({ eventId: event.event_id, webhookId: hook.id }, 'the worker stopped while running this job 2 times');
    const deliveries = (await ok('GET', `/webhooks/${hook.id}/deliveries`, admin)) as Array<Record<string, unknown>>;
    expect(deliveries).toEqual([
      expect.objectContaining({
        attempt: 0,
        delivered: false,
        error: 'given up: the worker stopped while running this job 2 times; the receiver may or may not have it',
      }),
    ]);
    await ok('DELETE', `/webhooks/${hook.id}`, admin);
  });

  // The clean-clone CI of 2026-12-06 on MariaDB: a rotation answered 409 (a deadlock victim). A failed
  // delivery inserted its attempt (the foreign key's shared lock on the subscription's row) and then
  // marked the subscription failing (an exclusive lock): a rotation's UPDATE waiting between the two
  // closed the cycle, as did two failed deliveries to one subscription. The row is now written first.
  it('secrets rotated while deliveries to the subscription fail: every rotation and every attempt recorded, no deadlock', async () => {
    const r = await receiver([503]);
    const hook = await ok('POST', '/webhooks', admin, { url: r.url, events: ['employee.created'] });
    const ds = t.app.get(DataSource);
    const events = (
      await ds.query<Array<{ event_id: string }>>(`SELECT event_id FROM outbox_events ORDER BY id DESC LIMIT 24`)
    ).map((e) => e.event_id);
    const processor = t.app.get(WebhookDeliveryProcessor);
    const failures: string[] = [];
    try {
      for (let round = 0; round < 6; round++) {
        // Each round starts with a subscription not yet failing, so that every attempt marks it.
        await ok('PUT', `/webhooks/${hook.id}`, admin, { active: true });
        const attempts = [0, 1, 2, 3].map((k) =>
          processor
            .deliver({ eventId: events[(round * 4 + k) % events.length], webhookId: hook.id }, { attempt: 1 } as never)
            .then(
              () => failures.push('delivered to a receiver answering 503'),
              (err: Error) => {
                if (err.message !== `webhook ${hook.id}: answered 503`) failures.push(err.message);
              },
            ),
        );
        const rotations = [0, 1].map(async () => {
          const res = await call('POST', `/webhooks/${hook.id}/rotate-secret`, admin);
          if (res.statusCode !== 200) failures.push(`rotation: ${res.statusCode} ${res.body}`);
        });
        await Promise.all([...attempts, ...rotations]);
      }
      expect(failures).toEqual([]);
      const deliveries = (await ok('GET', `/webhooks/${hook.id}/deliveries?limit=100`, admin)) as unknown[];
      expect(deliveries).toHaveLength(24);
    } finally {
      await r.close();
      await ok('DELETE', `/webhooks/${hook.id}`, admin);
    }
  });

  it('POST /webhooks/{id}/test sends a signed ping and answers with the attempt', async () => {
    const r = await receiver([204]);
    try {
      const hook = await ok('POST', '/webhooks', admin, { url: r.url, events: ['user.created'] });
      const attempt = await ok('POST', `/webhooks/${hook.id}/test`, admin);
      expect(attempt).toMatchObject({ event: 'webhook.ping', status_code: 204, delivered: true, error: null });
      expect(
        new StandardWebhook(hook.secret).verify(r.received[0].body, r.received[0].headers as Record<string, string>),
      ).toMatchObject({
        type: 'webhook.ping',
      });
      await ok('DELETE', `/webhooks/${hook.id}`, admin);
    } finally {
      await r.close();
    }
  });

  it('without WEBHOOK_ALLOW_PRIVATE a URL reaching this host or a private network is refused at save time', async () => {
    // Apps of their own database (on MariaDB a second app on the suite's database would reset it).
    const strict = await createTestApp(OWN_DATABASE);
    try {
      const sc = await buildCompany(strict.app);
      for (const url of [
        'http://127.0.0.1:8080/',
        'http://10.0.0.1/',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/',
        'http://localhost/',
      ]) {
        const res = await apiCaller(strict.app)('POST', '/webhooks', sc.users.admin.token, { url, events: ['user.created'] });
        expect({ url, status: res.statusCode, code: res.json().error.code }).toEqual({
          url,
          status: 400,
          code: 'WEBHOOK_URL_NOT_ALLOWED',
        });
      }
    } finally {
      await strict.close();
    }
  });

  it('events are written with their change: a refused change leaves no event', async () => {
    const ds = t.app.get(DataSource);
    const outbox = async () => Number((await ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM outbox_events'))[0].n);
    const before = await outbox();
    expect((await call('POST', '/employees', admin, employeeBody({ joined_date: 'soon' }))).statusCode).toBe(400);
    expect((await call('PUT', `/employees/${c.emp.outsider}`, c.users.restricted.token, { city: 'Oslo' })).statusCode).toBe(404);
    expect(await outbox()).toBe(before);
    await ok('PUT', `/employees/${c.emp.outsider}`, admin, { city: 'Oslo' });
    expect(await outbox()).toBe(before + 1);
  });

  // CI soak, 2026-11-24: POST /leaves answered 500 (ER_LOCK_DEADLOCK on its outbox INSERT). The
  // dispatcher's locking read, in REPEATABLE READ, locked the gap every new event goes into for its
  // whole transaction (Redis calls included): every audited change waited for it, and a change that
  // the dispatcher's UPDATE waited for in turn closed a cycle.
  itIf(INTEGRATION, NEEDS_SERVERS)(
    'MariaDB: while the dispatcher holds a batch, a change that writes an event does not wait for it',
    async () => {
      const jobs = t.app.get(JobQueue);
      const hook = await ok('POST', '/webhooks', admin, { url: 'http://127.0.0.1:9/x', events: ['employee.updated'] });
      const original = jobs.add.bind(jobs);
      let entered!: () => void;
      const inBatch = new Promise<void>((r) => (entered = r));
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const add = jest.spyOn(jobs, 'add').mockImplementation(async (...args: Parameters<JobQueue['add']>) => {
        entered();
        await held;
        return original(...args);
      });
      try {
        await ok('PUT', `/employees/${c.emp.report1}`, admin, { city: 'Bergen' });
        await inBatch; // the dispatcher took that event and is queueing it, its transaction open
        const change = call('PUT', `/employees/${c.emp.report2}`, admin, { city: 'Tromsø' });
        const outcome = await Promise.race([change.then((r) => r.statusCode), sleep(5000).then(() => 'still waiting')]);
        expect(outcome).toBe(200);
      } finally {
        release();
        add.mockRestore();
        await ok('DELETE', `/webhooks/${hook.id}`, admin);
      }
    },
  );

  it('a subscription failing for longer than WEBHOOK_DISABLE_AFTER is disabled and the Admins get a task', async () => {
    const failing = await createTestApp({
      ...FAST,
      ...OWN_DATABASE,
      WEBHOOK_DISABLE_AFTER: '1s',
      WEBHOOK_ATTEMPTS: '50',
      WEBHOOK_RETRY_BACKOFF_MS: '100',
    });
    const r = await receiver([503]);
    try {
      const fc = await buildCompany(failing.app);
      const fok = okCaller(failing.app);
      const hook = await fok('POST', '/webhooks', fc.users.admin.token, { url: r.url, events: ['employee.created'] });
      await fok('POST', '/employees', fc.users.admin.token, employeeBody());
      await until(async () => !(await fok('GET', `/webhooks/${hook.id}`, fc.users.admin.token)).active, 15_000);
      const disabled = await fok('GET', `/webhooks/${hook.id}`, fc.users.admin.token);
      expect(disabled.disabled_reason).toMatch(/^deliveries failed since .*; last: answered 503$/);
      const attempts = r.received.length;
      await sleep(500);
      expect(r.received.length).toBe(attempts); // no further attempts
      const tasks = (await fok('GET', '/tasks', fc.users.admin.token)) as Array<{
        source: string;
        source_id: number;
        priority: string;
      }>;
      expect(tasks).toContainEqual(expect.objectContaining({ source: 'webhook-disabled', source_id: hook.id, priority: 'High' }));
    } finally {
      await r.close();
      await failing.close();
    }
  });

  it('an event written before a crash, not yet dispatched, is delivered by the next process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hr-webhooks-'));
    const url = `sqlite:${join(dir, 'hooks.sqlite')}`;
    const r = await receiver();
    try {
      // The first process never dispatches (as if it died right after the commit).
      const first = await createTestApp({ ...FAST, DATABASE_URL: url, OUTBOX_RELAY_MS: '600000', REDIS_URL: '' });
      const fc = await buildCompany(first.app);
      const hook = await okCaller(first.app)('POST', '/webhooks', fc.users.admin.token, {
        url: r.url,
        events: ['employee.created'],
      });
      const employee = await okCaller(first.app)('POST', '/employees', fc.users.admin.token, employeeBody());
      await first.close();
      expect(r.received).toHaveLength(0);

      const second = await createTestApp({ ...FAST, DATABASE_URL: url, REDIS_URL: '' }, { keepDatabase: true });
      try {
        const ofEmployee = () => r.received.find((x) => (JSON.parse(x.body) as { data: { id: number } }).data.id === employee.id);
        await until(() => ofEmployee() !== undefined, 5000);
        const got = ofEmployee()!;
        const payload = new StandardWebhook(hook.secret).verify(got.body, got.headers as Record<string, string>) as {
          type: string;
          data: { id: number };
        };
        expect(payload).toMatchObject({ type: 'employee.created', data: { id: employee.id } });
        expect(await second.app.get(OutboxRelay).relay()).toBe(0); // dispatched once
      } finally {
        await second.close();
      }
    } finally {
      await r.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
