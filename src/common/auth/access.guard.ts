import { setAuditActor } from '../audit/audit-context';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { DomainException } from '../errors/domain.exception';
import { ACCESS_POLICY, AccessPolicy, ALLOW_PENDING_MFA, ALLOW_PENDING_PASSWORD } from './access.decorators';
import { AuthUser } from './auth-user';
import { AUTHENTICATOR, Authenticator } from './authenticator';

/** RFC 6750 §2.1: "Bearer", one space or more, the token (b64token characters). */
const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** What the guard reads of a route's metadata, once per controller class and handler. */
interface RouteAccess {
  policy: AccessPolicy;
  allowPendingPassword: boolean;
  allowPendingMfa: boolean;
}

/**
 * The one global guard. Every route declares @Public() or @Levels(...); a route declaring nothing
 * is refused (fail closed) and the access-policy test names it. Only `Authorization: Bearer <token>`
 * authenticates; the Authenticator (provided by the Auth module) resolves the token.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  /**
   * Per controller class, then handler: metadata is fixed once the application is built, and a
   * handler inherited by several controllers (CrudController) may sit under different class-level
   * metadata. Three metadata lookups on two targets per request before.
   */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAccess>>();

  constructor(
    private readonly reflector: Reflector,
    @Inject(AUTHENTICATOR) private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const { policy, allowPendingPassword, allowPendingMfa } = this.routeAccess(context);
    if (policy.public) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER_RE.exec(header)?.[1] : undefined;
    if (!token) throw new DomainException('UNAUTHORIZED', 'Missing access token: send Authorization: Bearer <token>');
    const user = await this.authenticator.authenticate(token);
    if (!user) throw new DomainException('UNAUTHORIZED', 'Invalid, expired or revoked access token');
    // A copy per request: per-request caches (a Restricted Admin's department subtree) key on it,
    // and the token cache hands out the same object to every request for a while.
    request.user = { ...user };
    setAuditActor(user.id);

    if (user.mustChangePassword && !allowPendingPassword) {
      throw new DomainException('PASSWORD_CHANGE_REQUIRED', 'Change the temporary password first: POST /users/me/password');
    }
    if (user.mfaEnrolmentRequired && !allowPendingMfa) {
      throw new DomainException(
        'MFA_ENROLMENT_REQUIRED',
        'Your user level requires a second factor: set one up first (POST /users/me/mfa/totp, then /users/me/mfa/totp/confirm)',
      );
    }
    if (!policy.levels.includes(user.level)) {
      throw new DomainException('FORBIDDEN', 'Your user level does not allow this operation');
    }
    return true;
  }

  private routeAccess(context: ExecutionContext): RouteAccess {
    const handler = context.getHandler();
    const controller = context.getClass();
    let handlers = this.routes.get(controller);
    if (!handlers) this.routes.set(controller, (handlers = new WeakMap()));
    let access = handlers.get(handler);
    if (!access) {
      const targets = [handler, controller];
      const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, targets);
      if (!policy) throw new Error(`${controller.name}.${handler.name} declares no access policy`);
      access = {
        policy,
        allowPendingPassword: this.reflector.getAllAndOverride<boolean>(ALLOW_PENDING_PASSWORD, targets) === true,
        allowPendingMfa: this.reflector.getAllAndOverride<boolean>(ALLOW_PENDING_MFA, targets) === true,
      };
      handlers.set(handler, access);
    }
    return access;
  }
}
