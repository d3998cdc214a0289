import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './to-error-response';

/** Paths of the SCIM service (RFC 7644), whose errors are SCIM error bodies, not the envelope. */
const SCIM_PATH = /\/app\/api\/scim\/v2(\/|\?|$)/;

/**
 * The one global filter: every error leaves as the docs/api/decisions.md §2 envelope (on /scim/v2: as an RFC 7644
 * §3.12 error body with its scimType); unknown errors are logged.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const res = toErrorResponse(exception);
    if (res.unexpected) request.log.error({ err: exception }, 'unhandled error');
    else if (res.unavailable) request.log.warn({ err: exception }, 'dependency unavailable');
    else if (res.lockConflict) request.log.warn({ err: exception }, 'lock conflict: transaction rolled back');
    else if (res.clientGone) request.log.info('the client went away before its request was read');
    if (SCIM_PATH.test(request.url)) {
      const scimType = (exception as { scimType?: unknown }).scimType ?? scimTypeOf(res.body.error.code);
      void reply
        .status(res.status)
        .headers(res.headers)
        .type('application/scim+json; charset=utf-8')
        .send({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: String(res.status),
          ...(typeof scimType === 'string' ? { scimType } : {}),
          detail: res.body.error.message,
        });
      return;
    }
    void reply.status(res.status).headers(res.headers).send(res.body);
  }
}

/** The scimType of the service's own codes met on SCIM routes (a taken userName, a bad value). */
function scimTypeOf(code: string): string | undefined {
  if (code === 'USERNAME_TAKEN' || code === 'EMAIL_TAKEN' || code === 'DUPLICATE') return 'uniqueness';
  if (code === 'VALIDATION_FAILED') return 'invalidValue';
  if (code === 'INVALID_JSON') return 'invalidSyntax';
  if (code === 'LAST_ADMIN') return 'mutability';
  return undefined;
}
