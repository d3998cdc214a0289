import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { FastifyRequest } from 'fastify';
import { ValidationException } from '../errors/domain.exception';

/** A handler's query: validated whole by its DTO (the validation pipe refuses unknown names), or these names alone. */
type Accepted = 'dto' | ReadonlySet<string>;

/**
 * Refuses query parameters a route does not read (issue 41): lists refused them through their DTO
 * while every other GET ignored them (`/notifications/unread-count?sortField=nope` → 200), so a
 * misspelt parameter looked like a honoured one. A route whose handler takes the whole query
 * (@Query() dto) is left to its DTO; one taking named parameters (@Query('format')) accepts those;
 * one taking none accepts none.
 */
@Injectable()
export class QueryParamsGuard implements CanActivate {
  private readonly accepted = new WeakMap<object, Accepted>();

  canActivate(context: ExecutionContext): boolean {
    const query = context.switchToHttp().getRequest<FastifyRequest>().query as Record<string, unknown> | undefined;
    if (!query) return true;
    const names = Object.keys(query);
    if (names.length === 0) return true;
    const accepted = this.acceptedBy(context);
    if (accepted === 'dto') return true;
    const unknown = names.filter((n) => !accepted.has(n));
    if (unknown.length) throw new ValidationException(unknown.map((field) => ({ field, message: 'is not allowed' })));
    return true;
  }

  private acceptedBy(context: ExecutionContext): Accepted {
    const handler = context.getHandler();
    let accepted = this.accepted.get(handler);
    if (!accepted) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, context.getClass(), handler.name) ?? {}) as Record<
        string,
        { data?: unknown }
      >;
      const queries = Object.entries(args).filter(([key]) => key.split(':')[0] === String(RouteParamtypes.QUERY));
      accepted = queries.some(([, a]) => typeof a.data !== 'string') ? 'dto' : new Set(queries.map(([, a]) => a.data as string));
      this.accepted.set(handler, accepted);
    }
    return accepted;
  }
}
