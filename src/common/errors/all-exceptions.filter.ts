import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './to-error-response';

/** The one global filter: every error leaves as the API.md §2 envelope; unknown errors are logged. */
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
    void reply.status(res.status).headers(res.headers).send(res.body);
  }
}
