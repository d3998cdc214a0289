import { version } from '../package.json';
import { startTracing } from './common/tracing/tracing';

/**
 * Imported first by main.ts and worker.ts, so that tracing (when OTEL_EXPORTER_OTLP_ENDPOINT is
 * set) is on before Fastify, mysql2 and ioredis are loaded: an import's code runs before the
 * importing module's own statements.
 */
export const tracing = startTracing(/worker\.[jt]s$/.test(require.main?.filename ?? '') ? 'worker' : 'api', version);
