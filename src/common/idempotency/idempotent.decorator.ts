import { applyDecorators, UseInterceptors } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/** Accepts an Idempotency-Key header on this (authenticated) route; see IdempotencyInterceptor. */
export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Any 1-200 visible ASCII characters. The same key with the same request within 24 h returns the first response ' +
        '(with Idempotent-Replayed: true) and does the work once; with another request → 409 IDEMPOTENCY_KEY_REUSED.',
    }),
  );
