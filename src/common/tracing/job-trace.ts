import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** The field of a job's data that carries the trace context of whoever queued it (W3C traceparent). */
export const TRACE_FIELD = '_trace';

/**
 * The job's data with the caller's trace context, when tracing is on and a span is active (the
 * request that queues the job); the data itself otherwise.
 */
export function withTraceContext<T>(data: T): T {
  if (!trace.getSpan(context.active())) return data;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  if (!carrier.traceparent || data === null || typeof data !== 'object' || Array.isArray(data)) return data;
  return { ...data, [TRACE_FIELD]: carrier };
}

/**
 * Runs one attempt of a job in a span that continues the trace its data carries (the request's,
 * across the queue to the worker): the handler gets the data without the carrier.
 */
export function runTraced<R>(
  queue: string,
  name: string,
  jobId: string,
  data: unknown,
  run: (data: unknown) => Promise<R>,
): Promise<R> {
  let carrier: Record<string, string> | undefined;
  let own = data;
  if (data !== null && typeof data === 'object' && TRACE_FIELD in data) {
    const { [TRACE_FIELD]: sent, ...rest } = data as Record<string, unknown>;
    carrier = sent as Record<string, string>;
    own = rest;
  }
  const tracer = trace.getTracer('hr-service/jobs');
  const parent = carrier ? propagation.extract(ROOT_CONTEXT, carrier) : ROOT_CONTEXT;
  return tracer.startActiveSpan(
    `job ${queue}:${name}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: { 'messaging.destination.name': queue, 'messaging.operation.name': name, 'hr.job.id': jobId },
    },
    parent,
    async (span) => {
      try {
        return await run(own);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Runs `fn` with tracing suppressed: no span of it or of the queries it makes. */
export function runUntraced<R>(fn: () => Promise<R>): Promise<R> {
  return context.with(suppressTracing(ROOT_CONTEXT), fn);
}
