import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { USER_LEVELS, UserLevel } from './user-level';
import { AuthUser } from './auth-user';

export const ACCESS_POLICY = 'hr:access-policy';
export const ALLOW_PENDING_PASSWORD = 'hr:allow-pending-password';
export const ALLOW_PENDING_MFA = 'hr:allow-pending-mfa';

export type AccessPolicy = { public: true } | { public: false; levels: readonly UserLevel[] };

/** No token needed. */
export const Public = () => SetMetadata<string, AccessPolicy>(ACCESS_POLICY, { public: true });

/** The operation extension naming the levels that may call it; finishDocument says it in the description too. */
export const LEVELS_EXTENSION = 'x-levels';

/** A valid token of one of these user levels (the document lists them as the operation's x-levels). */
export const Levels = (...levels: UserLevel[]) =>
  applyDecorators(
    SetMetadata<string, AccessPolicy>(ACCESS_POLICY, { public: false, levels }),
    ApiExtension(LEVELS_EXTENSION, levels),
  );

/** Any authenticated user; record-level scope is then checked by the service. */
export const Authenticated = () => Levels(...USER_LEVELS);

/** Reachable while the caller still has to replace a temporary password. */
export const AllowPendingPasswordChange = () => SetMetadata(ALLOW_PENDING_PASSWORD, true);

/** Reachable while the caller still has to enrol a second factor that its level requires. */
export const AllowPendingMfaEnrolment = () => SetMetadata(ALLOW_PENDING_MFA, true);

export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const request = ctx.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
  if (!request.user) throw new Error('CurrentUser used on a route without authentication');
  return request.user;
});
