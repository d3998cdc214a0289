import type { FastifyInstance } from 'fastify';
import { CursorPage } from '../paging/cursor-page';
import { Page } from '../paging/page';
import { RAW_RESPONSE } from './raw-response.decorator';

export interface SuccessEnvelope<T> {
  status: 'SUCCESS';
  data: T;
}

export interface ListEnvelope<T> extends SuccessEnvelope<T[]> {
  total: number;
  page: number;
  limit: number;
  nextPage: number | null;
}

/** The body of a success, as Fastify serializes it (JSON.stringify of this object). */
export function successEnvelope<T>(data: T): SuccessEnvelope<T> {
  return { status: 'SUCCESS', data };
}

export function listEnvelope<T>(page: Page<T>): ListEnvelope<T> {
  return {
    status: 'SUCCESS',
    data: page.items,
    total: page.total,
    page: page.page,
    limit: page.limit,
    nextPage: page.nextPage,
  };
}

/**
 * Wraps every successful handler result in the success envelope, the list envelope for a Page, or
 * the feed envelope (data and next_after) for a CursorPage,
 * as Fastify serializes it (a preSerialization hook: objects and arrays; handlers return those).
 * Error responses (status ≥ 300: the exception filter writes their envelope) and routes flagged
 * `@RawResponse()` (route config) pass as they are. A Fastify hook rather than a Nest interceptor:
 * the interceptor chain (an rxjs pipeline and an AsyncResource.bind through a deprecation wrapper per
 * request) cost about an eighth of the CPU of a by-id read.
 */
export function registerEnvelope(fastify: FastifyInstance): void {
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const config = request.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (reply.statusCode >= 300 || config?.[RAW_RESPONSE] === true) return done(null, payload);
    done(
      null,
      payload instanceof Page
        ? listEnvelope(payload)
        : payload instanceof CursorPage
          ? { status: 'SUCCESS', data: payload.items, next_after: payload.nextAfter }
          : successEnvelope(payload),
    );
  });
}
