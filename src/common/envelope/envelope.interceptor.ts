import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
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

/** Wraps every handler result in the success envelope, or the list envelope for a Page. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const raw = this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()]);
    return next.handle().pipe(
      map((value: unknown) => {
        if (raw) return value;
        if (value instanceof Page) return listEnvelope(value);
        return { status: 'SUCCESS', data: value ?? null } satisfies SuccessEnvelope<unknown>;
      }),
    );
  }
}
