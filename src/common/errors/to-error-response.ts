import { HttpException } from '@nestjs/common';
import { DEPENDENCY_RETRY_AFTER_S, isDependencyUnavailable, isLockConflict } from './db-errors';
import { DomainException } from './domain.exception';
import { codeForStatus, ErrorCode } from './error-codes';
import { ErrorEnvelope, errorEnvelope } from './error-envelope';

export interface ErrorResponse {
  status: number;
  body: ErrorEnvelope;
  headers: Record<string, string>;
  /** True for unexpected errors: logged with the request id, answered with a bare 500. */
  unexpected: boolean;
  /** True when a dependency (database, Redis) is unavailable: logged as a warning, answered 503. */
  unavailable?: boolean;
  /** True when the database gave up on the request's transaction over another one's locks: logged as a warning, answered 409. */
  lockConflict?: boolean;
  /** True when the client hung up before its request was read: logged as that (info), answered 400 to nobody. */
  clientGone?: boolean;
}

/**
 * Node's error for a request whose client closed the connection before sending all of its body
 * ("aborted", ECONNRESET, which Fastify's body reader marks 400). Its code is also a database's or
 * Redis's connection reset, which was answered 503 and logged "dependency unavailable".
 */
function isClientAbort(err: unknown): boolean {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  return code === 'ECONNRESET' && message === 'aborted';
}

const FASTIFY_CODES: Record<string, ErrorCode> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  // Invalid JSON never reaches here: our own JSON parser (app.factory) throws INVALID_JSON itself.
};

const FASTIFY_MESSAGES: Partial<Record<ErrorCode, string>> = {
  PAYLOAD_TOO_LARGE: 'Request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported Content-Type: send application/json',
};

function isFastifyError(err: unknown): err is { code: string; statusCode: number; message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    (err as { code: string }).code.startsWith('FST_') &&
    typeof (err as { statusCode?: unknown }).statusCode === 'number'
  );
}

function withAuthChallenge(status: number, headers: Record<string, string>): Record<string, string> {
  return status === 401 ? { 'WWW-Authenticate': 'Bearer realm="hr"', ...headers } : headers;
}

/**
 * Maps anything thrown during a request to the error envelope of docs/api/decisions.md §2. Used by the Nest
 * exception filter and by Fastify's own error handler, so framework errors look the same.
 */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof DomainException) {
    return {
      status: err.status,
      body: errorEnvelope(err.code, err.message, err.details),
      headers: withAuthChallenge(err.status, err.headers ?? {}),
      unexpected: false,
    };
  }
  if (err instanceof HttpException) {
    const status = err.getStatus();
    if (status >= 500) return internal();
    const code = codeForStatus(status);
    const message = status === 401 ? 'Missing, invalid or expired access token' : (FASTIFY_MESSAGES[code] ?? err.message);
    return { status, body: errorEnvelope(code, message), headers: withAuthChallenge(status, {}), unexpected: false };
  }
  if (isFastifyError(err) && err.statusCode < 500) {
    const code = FASTIFY_CODES[err.code] ?? codeForStatus(err.statusCode);
    return {
      status: err.statusCode,
      body: errorEnvelope(code, FASTIFY_MESSAGES[code] ?? err.message),
      headers: {},
      unexpected: false,
    };
  }
  if (isClientAbort(err)) {
    return {
      status: 400,
      body: errorEnvelope('BAD_REQUEST', 'The client closed the connection before its request was read'),
      headers: {},
      unexpected: false,
      clientGone: true,
    };
  }
  // A transaction rolled back by MariaDB (deadlock victim, lock wait timeout) is not a bug of the
  // request nor of the code: 409, nothing was changed, the client may send it again.
  if (isLockConflict(err)) {
    return {
      status: 409,
      body: errorEnvelope(
        'CONFLICT',
        'The request collided with concurrent changes to the same records and was not applied; send it again',
      ),
      headers: {},
      unexpected: false,
      lockConflict: true,
    };
  }
  if (isDependencyUnavailable(err)) {
    return {
      status: 503,
      body: errorEnvelope(
        'DEPENDENCY_UNAVAILABLE',
        'A service this API depends on (the database or the job queue) is unavailable; retry shortly',
      ),
      headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_S) },
      unexpected: false,
      unavailable: true,
    };
  }
  return internal();
}

function internal(): ErrorResponse {
  return {
    status: 500,
    body: errorEnvelope('INTERNAL_ERROR', 'Internal server error'),
    headers: {},
    unexpected: true,
  };
}
