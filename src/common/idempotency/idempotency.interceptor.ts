import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { catchError, from, mergeMap, Observable, of } from 'rxjs';
import { LessThan, Repository } from 'typeorm';
import { AuthUser } from '../auth/auth-user';
import { DomainException, ValidationException } from '../errors/domain.exception';
import { IdempotencyKey } from './idempotency-key.entity';

const KEY_RE = /^[\x21-\x7e]{1,200}$/;
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** JSON with object keys sorted, so {"a":1,"b":2} and {"b":2,"a":1} are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * Idempotency-Key (docs/api/decisions.md §12), for authenticated POST routes marked @Idempotent(): the same key
 * with the same request within 24 h returns the first response and does the work once; the same
 * key with another request → 409 IDEMPOTENCY_KEY_REUSED; while the first is still running → 409
 * CONFLICT. Keys belong to the user. Failed requests are not stored, so they can be retried.
 * The handler must return a plain object (not a Page): it is stored as JSON.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(@InjectRepository(IdempotencyKey) private readonly keys: Repository<IdempotencyKey>) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: AuthUser }>();
    const key = request.headers['idempotency-key'];
    if (key === undefined || !request.user) return next.handle();
    if (typeof key !== 'string' || !KEY_RE.test(key)) {
      throw ValidationException.field('Idempotency-Key', 'must be 1 to 200 visible ASCII characters');
    }
    const userId = request.user.id;
    const path = request.url.split('?')[0];
    const requestHash = createHash('sha256')
      .update(`${request.method} ${path}\n${canonicalJson(request.body)}`)
      .digest('hex');

    await this.keys.delete({ userId, idemKey: key, expiresAt: LessThan(new Date()) });
    const existing = await this.keys.findOne({ where: { userId, idemKey: key } });
    if (existing) return of(this.replay(existing, requestHash, http.getResponse<FastifyReply>()));
    try {
      await this.keys.insert({
        userId,
        idemKey: key,
        requestHash,
        state: 'processing',
        responseBody: null,
        expiresAt: new Date(Date.now() + IDEMPOTENCY_TTL_MS),
      });
    } catch (err) {
      // Lost a race with the same key: the unique index let the other request through.
      const winner = await this.keys.findOne({ where: { userId, idemKey: key } });
      if (!winner) throw err;
      return of(this.replay(winner, requestHash, http.getResponse<FastifyReply>()));
    }

    return next.handle().pipe(
      mergeMap((value: unknown) =>
        from(
          this.keys
            .update({ userId, idemKey: key }, { state: 'done', responseBody: JSON.stringify(value ?? null) })
            .then(() => value),
        ),
      ),
      catchError((err: unknown) =>
        from(
          this.keys.delete({ userId, idemKey: key }).then(() => {
            throw err;
          }),
        ),
      ),
    );
  }

  /** Deletes expired keys; returns how many (`hr maintenance:purge`). */
  async purgeExpired(): Promise<number> {
    return (await this.keys.delete({ expiresAt: LessThan(new Date()) })).affected ?? 0;
  }

  private replay(row: IdempotencyKey, requestHash: string, reply: FastifyReply): unknown {
    if (row.requestHash !== requestHash) {
      throw new DomainException('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
    }
    if (row.state !== 'done' || row.responseBody === null) {
      throw new DomainException('CONFLICT', 'A request with this Idempotency-Key is still being processed; retry later');
    }
    void reply.header('Idempotent-Replayed', 'true');
    return JSON.parse(row.responseBody) as unknown;
  }
}
