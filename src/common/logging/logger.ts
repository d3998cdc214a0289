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
/** Nest's contexts that log each module, controller and route mapped while the application starts. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory']);

export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    // Nest's start-up chatter (a line per module, controller and route: 478 at start) is debug.
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && STARTUP_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  /**
   * Nest hands (message, ...params, context). A message that is an object is pino's style
   * (`logger.error({ err, import: 7 }, 'import failed')`): its fields go on the line (an `err` with
   * its stack) and the next string is the text; an Error is logged as `err`; a string as it is,
   * with an error's stack after it (Nest's `error(message, stack)`).
   */
  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace', message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context =
      rest.length && (typeof rest[rest.length - 1] === 'string' || rest[rest.length - 1] === undefined) ? rest.pop() : undefined;
    let fields: Record<string, unknown> = {};
    let text: string;
    if (message instanceof Error) {
      fields = { err: message };
      text = typeof rest[0] === 'string' ? rest[0] : message.message;
    } else if (message !== null && typeof message === 'object') {
      fields = { ...(message as Record<string, unknown>) };
      text = typeof rest[0] === 'string' ? rest[0] : typeof fields.msg === 'string' ? fields.msg : '';
      delete fields.msg;
    } else {
      text = String(message);
      if (level === 'error' && typeof rest[0] === 'string') fields = { trace: rest[0] };
    }
    this.logger[level]({ context, ...fields, ...logContext() }, text);
  }
}
