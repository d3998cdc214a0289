import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { LogLevel } from '../../config/config';
import { logContext } from '../audit/audit-context';

/** Paths pino removes from every log line: credentials never reach the logs. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.new_password',
  '*.current_password',
  '*.access_token',
  '*.refresh_token',
  '*.token',
  '*.temporary_password',
];

/** Keeps query-string tokens out of logged URLs, should a client send one. */
export function redactUrl(url: string): string {
  return url.replace(/((?:access_token|refresh_token|token|password)=)[^&]*/gi, '$1[REDACTED]');
}

export function createRootLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'hr' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: {
        // Only these three: request headers (Authorization, cookies) are never logged.
        req: (req: { method?: string; url?: string; ip?: string }) => ({
          method: req.method,
          url: typeof req.url === 'string' ? redactUrl(req.url) : undefined,
          remoteAddress: req.ip,
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: pino.stdSerializers.err,
      },
    },
    destination,
  );
}

/**
 * Nest's own log calls (bootstrap, module messages, Logger in services) as JSON through pino, each
 * with what it is part of: the request id (`reqId`, as Fastify's request lines), or the job's
 * queue, job id and fields (a payroll id), from the async context requests and jobs run in.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context, ...logContext() }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace, ...logContext() }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context, ...logContext() }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context, ...logContext() }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context, ...logContext() }, String(message));
  }
}
