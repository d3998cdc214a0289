import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace';

/**
 * OpenTelemetry traces (docs/api/decisions.md §24), on when OTEL_EXPORTER_OTLP_ENDPOINT is set, off and free
 * otherwise (no SDK loaded, the API's no-op tracer). Started first thing in main.ts and worker.ts,
 * before the modules it instruments are loaded: HTTP (Node's server and client), Fastify's routes
 * and hooks (@fastify/otel), mysql2, ioredis (Bull) and better-sqlite3 (our own wrapper: no
 * maintained instrumentation exists). Spans go over OTLP/HTTP (JSON) to the endpoint, in batches.
 *
 * Like the logger's level, this reads the environment itself: it must run before the
 * configuration module is even loaded.
 */
export interface Tracing {
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

export function startTracing(role: 'api' | 'worker', version: string, env: NodeJS.ProcessEnv = process.env): Tracing | null {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return null;
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is on */
  const { TracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, AlwaysOnSampler } =
    require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
  const { AsyncLocalStorageContextManager } =
    require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { registerInstrumentations } =
    require('@opentelemetry/instrumentation') as typeof import('@opentelemetry/instrumentation');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { MySQL2Instrumentation } =
    require('@opentelemetry/instrumentation-mysql2') as typeof import('@opentelemetry/instrumentation-mysql2');
  const { IORedisInstrumentation } =
    require('@opentelemetry/instrumentation-ioredis') as typeof import('@opentelemetry/instrumentation-ioredis');
  const { FastifyOtelInstrumentation } = require('@fastify/otel') as typeof import('@fastify/otel');
  /* eslint-enable @typescript-eslint/no-require-imports */

  const delay = Number(env.OTEL_BSP_SCHEDULE_DELAY);
  // OTEL_TRACES_SAMPLER_ARG (0-1): that share of traces, decided where a trace starts (a request)
  // and followed by its jobs; every trace otherwise.
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG);
  const root = Number.isFinite(ratio) && ratio >= 0 && ratio < 1 ? new TraceIdRatioBasedSampler(ratio) : new AlwaysOnSampler();
  const provider = new TracerProvider({
    sampler: new ParentBasedSampler({ root }),
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME?.trim() || 'hr-service',
      'service.version': version,
      'service.instance.id': `${role}-${process.pid}`,
      'hr.process.role': role,
    }),
    spanProcessors: [
      // Query strings carry what users typed (search=, SCIM filters with e-mails): their values are
      // redacted from every span unless OTEL_TRACE_QUERY_VALUES=true.
      ...(env.OTEL_TRACE_QUERY_VALUES === 'true' ? [] : [new RedactQueryValues()]),
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter(),
        ...(Number.isFinite(delay) && delay > 0 ? { scheduledDelayMillis: delay } : {}),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // OTEL_NODE_DISABLED_INSTRUMENTATIONS (as in OpenTelemetry's auto-instrumentations): a comma list
  // of http, fastify, mysql2, ioredis, better-sqlite3 left out (Fastify's route and hook spans cost
  // the most: docs/operations.md, Traces).
  const off = new Set((env.OTEL_NODE_DISABLED_INSTRUMENTATIONS ?? '').split(',').map((n) => n.trim()));
  const wanted: Array<[string, () => InstanceType<typeof HttpInstrumentation> | object]> = [
    ['http', () => new HttpInstrumentation()],
    ['fastify', () => new FastifyOtelInstrumentation({ registerOnInitialization: true })],
    ['mysql2', () => new MySQL2Instrumentation()],
    ['ioredis', () => new IORedisInstrumentation({ requireParentSpan: true })],
  ];
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: wanted.filter(([name]) => !off.has(name)).map(([, make]) => make()) as Parameters<
      typeof registerInstrumentations
    >[0]['instrumentations'],
  });
  if (!off.has('better-sqlite3')) instrumentBetterSqlite3();
  return { shutdown: () => provider.shutdown() };
}

interface SqliteStatement {
  source: string;
  reader: boolean;
  [method: string]: unknown;
}

/**
 * A span per better-sqlite3 statement run inside a traced operation (a request, a job); none
 * outside one (timers), like ioredis' requireParentSpan. The calls are synchronous: the span ends
 * when the call returns.
 */
function instrumentBetterSqlite3(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Database = require('better-sqlite3') as typeof import('better-sqlite3');
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const tracer = trace.getTracer('hr-service/better-sqlite3');
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method] as (this: SqliteStatement, ...args: unknown[]) => unknown;
    proto[method] = function traced(this: SqliteStatement, ...args: unknown[]): unknown {
      if (!trace.getSpan(context.active())?.isRecording()) return original.apply(this, args);
      const text = this.source;
      const span = tracer.startSpan(text.split(/\s+/, 1)[0].toUpperCase() || 'sqlite', {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'sqlite', 'db.query.text': text.length > 2000 ? `${text.slice(0, 2000)}…` : text },
      });
      try {
        return original.apply(this, args);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: 2 });
        throw err;
      } finally {
        span.end();
      }
    };
  }
}

/** The span attributes that hold a URL or its query string, as the HTTP and Fastify instrumentations set them. */
const URL_ATTRIBUTES = ['http.target', 'http.url', 'url.full', 'url.query', 'http.route.query'];

/** `a=1&b=x` → `a=REDACTED&b=REDACTED` (names kept: they say which filter was used), in a URL or a bare query. */
export function redactQuery(value: string): string {
  const at = value.indexOf('?');
  const [head, query] =
    at < 0 ? (value.includes('=') ? ['', value] : [value, null]) : [value.slice(0, at + 1), value.slice(at + 1)];
  if (query === null) return value;
  const [search, fragment] = query.split('#', 2);
  const redacted = search
    .split('&')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=REDACTED` : pair))
    .join('&');
  return `${head}${redacted}${fragment === undefined ? '' : '#REDACTED'}`;
}

/** A span processor that redacts query values when a span starts, before any exporter sees it. */
export class RedactQueryValues implements SpanProcessor {
  onStart(span: Span): void {
    const attributes = (span as unknown as { attributes: Record<string, unknown> }).attributes;
    for (const name of URL_ATTRIBUTES) {
      const value = attributes[name];
      if (typeof value === 'string') span.setAttribute(name, redactQuery(value));
    }
  }
  onEnd(): void {}
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
