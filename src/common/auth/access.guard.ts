import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { DomainException } from '../errors/domain.exception';
import { ACCESS_POLICY, AccessPolicy, ALLOW_PENDING_PASSWORD } from './access.decorators';
import { AuthUser } from './auth-user';

/**
 * The one global guard. Every route declares @Public() or @Levels(...); a route declaring nothing
 * is refused (fail closed) and the access-policy test names it. Authentication goes through the
 * passport bearer strategy, reading the Authorization header only.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, targets);
    if (!policy) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no access policy`);
    }
    if (policy.public) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
    if (!request.headers.authorization) {
      throw new DomainException('UNAUTHORIZED', 'Missing access token: send Authorization: Bearer <token>');
    }
    await super.canActivate(context);
    const user = request.user as AuthUser;

    if (user.mustChangePassword && !this.reflector.getAllAndOverride<boolean>(ALLOW_PENDING_PASSWORD, targets)) {
      throw new DomainException(
        'PASSWORD_CHANGE_REQUIRED',
        'Change the temporary password first: POST /users/me/password',
      );
    }
    if (!policy.levels.includes(user.level)) {
      throw new DomainException('FORBIDDEN', 'Your user level does not allow this operation');
    }
    return true;
  }

  override handleRequest<TUser = AuthUser>(err: unknown, user: TUser | false): TUser {
    // A failing token lookup (database down) is not the caller's fault: it must not read as 401.
    if (err) throw err;
    if (!user) throw new DomainException('UNAUTHORIZED', 'Invalid, expired or revoked access token');
    return user;
  }
}
