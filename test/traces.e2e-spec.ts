import { describeIf, NEEDS_TRACES } from './helpers/skip';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchColumns, loadPayrollDataset } from '../scripts/bench-payroll-columns';
import { ReferenceService } from '../src/reference/reference.service';
import { buildCompany } from './helpers/company';
import { DIST, NodeProcess, WorkerProcess } from './helpers/node-process';
import { apiCaller, createTestApp, INTEGRATION, until } from './helpers/test-app';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: Array<{ key: string; value: Record<string, unknown> }>;
}
interface Exported {
  span: OtlpSpan;
  role: string;
}

/**
 * OpenTelemetry traces (issue 48, docs/api/decisions.md §24), on the built service (`npm run test:traces` builds):
 * an OTLP/HTTP receiver on loopback, the API (and on MariaDB + Redis a worker) with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at it. One POST .../process gives one trace holding the
 * request, the job (in the worker, across Redis, when there is one) and the database's spans.
 */
const TRACES = process.env.HR_TEST_TRACES === '1';
describeIf(TRACES, NEEDS_TRACES)('traces', () => {
  const spans: Exported[] = [];
  let receiver: Server;
  let endpoint: string;
  let dir: string;
  const processes: NodeProcess[] = [];

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/src/main.js is missing: npm run build');
    dir = mkdtempSync(join(tmpdir(), 'hr-traces-'));
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        if (req.url === '/v1/traces' && (req.headers['content-type'] ?? '').startsWith('application/json')) {
          const sent = JSON.parse(body) as {
            resourceSpans: Array<{
              resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> };
              scopeSpans: Array<{ spans: OtlpSpan[] }>;
            }>;
          };
          for (const rs of sent.resourceSpans) {
            const role = rs.resource.attributes.find((a) => a.key === 'hr.process.role')?.value.stringValue ?? '?';
            for (const ss of rs.scopeSpans) for (const span of ss.spans) spans.push({ span, role });
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const p of processes) if (p.running) await p.kill('SIGKILL');
    await new Promise((r) => receiver.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  it('one POST .../process: one trace with the request, the job and the database spans', async () => {
    const prefix = `${process.env.QUEUE_PREFIX ?? 'hr'}:traces-${randomUUID().slice(0, 8)}`;
    // The company and a payroll, made in this process; the traced service then runs on the same database.
    const setup = await createTestApp(
      INTEGRATION ? { QUEUE_PREFIX: prefix } : { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}` },
    );
    const admin = (await buildCompany(setup.app)).users.admin.token;
    const department = await setup.app.get(ReferenceService).addDepartment('Traced', null);
    await loadPayrollDataset(setup.app, department, 20, 'TR');
    const created = await apiCaller(setup.app)('POST', '/payroll_config/payrolls', admin, {
      name: 'Traced',
      pay_period: 4,
      department,
      date_start: '2026-01-01',
      date_end: '2026-01-31',
      columns: benchColumns().map((c) => c.id),
    });
    expect(created.statusCode).toBe(200);
    const payroll = created.json().data.id as number;
    const database = setup.config.database.type === 'mysql' ? setup.config.database.url : `sqlite:${join(dir, 'hr.sqlite')}`;
    await setup.close();

    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const p = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(p));
      });
    });
    const env: Record<string, string> = {
      DATABASE_URL: database,
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      WORKER_METRICS_PORT: '0',
      ...(INTEGRATION ? { REDIS_URL: process.env.REDIS_URL!, QUEUE_PREFIX: prefix } : {}),
    };
    const api = new NodeProcess('main', { ...env, PORT: String(port), ...(INTEGRATION ? { QUEUE_CONSUMER: 'false' } : {}) });
    processes.push(api);
    if (INTEGRATION) {
      const worker = new WorkerProcess(env);
      processes.push(worker);
      await worker.ready();
    }
    const base = `http://127.0.0.1:${port}/app/api`;
    await until(async () => (await fetch(`${base}/health/live`).catch(() => null))?.status === 200, 30_000);
    const auth = { authorization: `Bearer ${admin}` };
    const processed = await fetch(`${base}/payroll_config/payrolls/${payroll}/process`, { method: 'POST', headers: auth });
    expect(processed.status).toBe(200);
    await until(
      async () =>
        (
          (await (await fetch(`${base}/payroll_config/payrolls/${payroll}`, { headers: auth })).json()) as {
            data: { status: string };
          }
        ).data.status !== 'Processing',
      60_000,
    );

    // The request's server span, then everything of its trace.
    const isRequest = (s: OtlpSpan) =>
      s.kind === 2 && s.name.startsWith('POST') && (s.attributes ?? []).some((a) => JSON.stringify(a.value).includes('/process'));
    await until(() => spans.some((e) => isRequest(e.span)), 20_000);
    const traceId = spans.find((e) => isRequest(e.span))!.span.traceId;
    const job = () => spans.find((e) => e.span.traceId === traceId && e.span.name === 'job payroll:process');
    await until(() => job() !== undefined, 20_000);
    const sql = (s: OtlpSpan) => (s.attributes ?? []).some((a) => a.key === 'db.system.name' || a.key === 'db.system');
    await until(() => spans.some((e) => e.span.traceId === traceId && e.role === job()!.role && sql(e.span)), 20_000);
    const mine = spans.filter((e) => e.span.traceId === traceId);
    const byId = new Map(mine.map((e) => [e.span.spanId, e.span]));
    // The job span's ancestors lead to the request: one trace, API → queue → job.
    const chain: string[] = [];
    for (let s: OtlpSpan | undefined = job()!.span; s; s = s.parentSpanId ? byId.get(s.parentSpanId) : undefined)
      chain.push(s.name);
    expect(chain[chain.length - 1]).toBe(spans.find((e) => isRequest(e.span))!.span.name);
    expect(job()!.role).toBe(INTEGRATION ? 'worker' : 'api');
    // Database spans under the request (its reads) and under the job (the run's writes).
    const jobSql = mine.filter((e) => e.role === job()!.role && sql(e.span));
    expect(jobSql.length).toBeGreaterThan(3);
    expect(mine.filter((e) => e.role === 'api' && sql(e.span)).length).toBeGreaterThan(0);
    // Scheduled work (the relay, every 250 ms) starts no traces of its own.
    expect(spans.filter((e) => e.span.name.startsWith('job schedule:'))).toEqual([]);
    for (const p of processes) expect(await p.kill('SIGTERM')).toBe(0);
  }, 180_000);
});
