import { request as httpRequest } from 'node:http';
import { Metrics } from '../src/common/metrics/metrics';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { startMetricsListener } from '../src/common/metrics/metrics-listener';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { SettingsService } from '../src/settings/settings.service';
import { buildCompany, Company } from './helpers/company';
import { Family, histogramCount as count, parsePrometheusText } from './helpers/prometheus';
import { apiCaller, createTestApp, INTEGRATION, TestApp, testJob, until } from './helpers/test-app';

const TOKEN = 'metrics-token-0123456789';

/** GET {base_url}/metrics (issue 48, docs/api/decisions.md §24): Prometheus text for this process, to loopback or with METRICS_TOKEN. */
describe('metrics', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    // The relay runs when a test drains it, so an event waits for it as long as the test likes.
    t = await createTestApp({ METRICS_TOKEN: TOKEN, OUTBOX_RELAY_MS: '600000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  const scrape = async (headers: Record<string, string> = {}, remoteAddress?: string) =>
    t.app.inject({ method: 'GET', url: '/app/api/metrics', headers, ...(remoteAddress ? { remoteAddress } : {}) });
  const families = async (): Promise<Map<string, Family>> => {
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(res.body);
  };

  it('parses as Prometheus text: requests by route template and status class, jobs, queues, the relay, the process', async () => {
    const before = count((await families()).get('hr_http_request_duration_seconds'), {
      method: 'GET',
      route: '/employees/:id',
      status_class: '2xx',
    });
    const admin = c.users.admin.token;
    for (const id of [c.emp.manager, c.emp.report1]) expect((await call('GET', `/employees/${id}`, admin)).statusCode).toBe(200);
    expect((await call('GET', '/employees/999999', admin)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/app/api/no/such/route' })).statusCode).toBe(404);

    const fams = await families();
    const http = fams.get('hr_http_request_duration_seconds');
    expect(http?.type).toBe('histogram');
    // The two reads moved their series by two; the 404 has its own; ids never make series.
    expect(count(http, { method: 'GET', route: '/employees/:id', status_class: '2xx' })).toBe(before + 2);
    expect(count(http, { method: 'GET', route: '/employees/:id', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(count(http, { route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    const routes = new Set(http!.samples.map((m) => m.labels.route));
    expect([...routes].filter((r) => /\d/.test(r))).toEqual([]);
    expect(Object.keys(http!.samples.find((m) => m.name.endsWith('_count'))!.labels).sort()).toEqual([
      'method',
      'route',
      'status_class',
    ]);

    const queues = fams.get('hr_queue_jobs');
    expect(queues?.type).toBe('gauge');
    expect(new Set(queues!.samples.map((m) => m.labels.state))).toEqual(new Set(['waiting', 'active', 'delayed', 'failed']));
    expect(new Set(queues!.samples.map((m) => m.labels.queue))).toEqual(
      new Set(['mail', 'payroll', 'webhooks', 'imports', 'documents', 'schedule']),
    );
    const lag = fams.get('hr_outbox_relay_lag_seconds');
    expect(new Set(lag!.samples.map((m) => m.labels.subscriber))).toEqual(
      new Set(['checklists', 'leave-accrual', 'leave-calendar', 'notifications', 'tasks', 'webhooks']),
    );
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'process_cpu_user_seconds_total', 'process_resident_memory_bytes'])
      expect(fams.has(name)).toBe(true);
    // The pool is mysql2's: on MariaDB only (SQLite has one connection, no pool).
    expect((fams.get('hr_db_pool_connections')?.samples.length ?? 0) > 0).toBe(INTEGRATION);
  });

  it('counts job attempts by queue, name and outcome', async () => {
    const jobs = t.app.get(JobQueue);
    const ok = testJob<{ n: number }>('imports', 'metrics-ok', { attempts: 1, backoffMs: 10 });
    const bad = testJob<{ n: number }>('imports', 'metrics-bad', { attempts: 1, backoffMs: 10 });
    jobs.register(ok, async () => undefined);
    jobs.register(bad, async () => {
      throw new Error('no');
    });
    await (await jobs.add(ok, { n: 1 })).firstAttempt(10_000);
    await (await jobs.add(bad, { n: 1 })).firstAttempt(10_000);
    const f = (await families()).get('hr_job_duration_seconds');
    expect(count(f, { queue: 'imports', name: 'metrics-ok', outcome: 'completed' })).toBe(1);
    expect(count(f, { queue: 'imports', name: 'metrics-bad', outcome: 'failed' })).toBe(1);
  });

  it('shows how old the oldest event a subscriber has not handled is', async () => {
    const relay = t.app.get(OutboxRelay);
    await relay.drain();
    expect((await families()).get('hr_outbox_relay_lag_seconds')!.samples.map((s) => s.value)).toEqual([0, 0, 0, 0, 0, 0]);
    // A change records an event: until the relay hands it over, every subscriber lags behind it.
    expect((await call('PUT', `/employees/${c.emp.outsider}`, c.users.admin.token, { first_name: 'Lagging' })).statusCode).toBe(
      200,
    );
    const lagging = await relay.lag(Date.now() + 5000);
    expect(lagging.map(([labels]) => labels.subscriber).sort()).toEqual([
      'checklists',
      'leave-accrual',
      'leave-calendar',
      'notifications',
      'tasks',
      'webhooks',
    ]);
    for (const [, seconds] of lagging) expect(seconds).toBeGreaterThanOrEqual(5);
    await relay.drain();
    expect((await relay.lag(Date.now() + 5000)).map(([, seconds]) => seconds)).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('answers loopback without a token, anyone with METRICS_TOKEN, and no one else; the REST API setting does not gate it', async () => {
    expect((await scrape({}, '10.1.2.3')).statusCode).toBe(401);
    expect((await scrape({ 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(401);
    expect((await scrape({ authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(401);
    expect((await scrape({ authorization: `Bearer ${c.users.admin.token}` })).statusCode).toBe(401);
    expect((await scrape({ authorization: `Bearer ${TOKEN}` }, '10.1.2.3')).statusCode).toBe(200);
    const settings = t.app.get(SettingsService);
    await settings.set('Enable Rest Api', 'No');
    try {
      await until(async () => (await call('GET', '/echo', c.users.admin.token)).statusCode === 503, 5_000);
      expect((await scrape()).statusCode).toBe(200);
    } finally {
      await settings.set('Enable Rest Api', 'Yes');
    }
  });

  it("the worker's listener serves the same metrics on a port of its own, with the same rule", async () => {
    const settings = { token: TOKEN, workerPort: 0, workerPortDefault: false, workerHost: '127.0.0.1' };
    const listener = await startMetricsListener(t.app.get(Metrics), settings);
    try {
      const get = (path: string, headers: Record<string, string> = {}) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest({ host: '127.0.0.1', port: listener!.port, path, headers }, (res) => {
            let body = '';
            res.on('data', (d: Buffer) => (body += d.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end();
        });
      const ok = await get('/metrics');
      expect(ok.status).toBe(200);
      expect(parsePrometheusText(ok.body).has('hr_queue_jobs')).toBe(true);
      expect((await get('/metrics', { authorization: 'Bearer nope-nope-nope-nope' })).status).toBe(401);
      expect((await get('/metrics', { 'x-forwarded-for': '203.0.113.9' })).status).toBe(401);
      expect((await get('/metrics', { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
      expect((await get('/other')).status).toBe(404);
      // A second worker on the host: the default port taken, it moves to a free one; a chosen one taken stops it.
      const port = listener!.port;
      const second = await startMetricsListener(t.app.get(Metrics), { ...settings, workerPort: port, workerPortDefault: true });
      expect([second?.movedFromDefault, second?.port === port]).toEqual([true, false]);
      await second?.close();
      await expect(startMetricsListener(t.app.get(Metrics), { ...settings, workerPort: port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await listener?.close();
    }
  });
});
