import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Authenticator } from 'passport';
import { BearerStrategy } from '../../auth/bearer.strategy';
import { DomainException } from '../errors/domain.exception';
import { ACCESS_POLICY, AccessPolicy, ALLOW_PENDING_PASSWORD } from './access.decorators';
import { AuthUser } from './auth-user';

/**
 * The one global guard. Every route declares @Public() or @Levels(...); a route declaring nothing
 * is refused (fail closed) and the access-policy test names it. Authentication runs the
 * passport-http-bearer strategy through a passport Authenticator owned by this application:
 * passport's default instance is process-wide, and two applications in one process (the CLI
 * beside a server, the test suites) would otherwise authenticate against each other's database.
 */
/** RFC 6750 §2.1: "Bearer", one space or more, the token (b64token characters). */
const BEARER_RE = /^Bearer +[A-Za-z0-9\-._~+/]+=*$/i;

@Injectable()
export class AccessGuard implements CanActivate {
  private readonly passport = new Authenticator();

  constructor(
    private readonly reflector: Reflector,
    strategy: BearerStrategy,
  ) {
    this.passport.use('bearer', strategy);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    const policy = this.reflector.getAllAndOverride<AccessPolicy | undefined>(ACCESS_POLICY, targets);
    if (!policy) {
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no access policy`);
    }
    if (policy.public) return true;

    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: AuthUser }>();
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !BEARER_RE.test(header)) {
      throw new DomainException('UNAUTHORIZED', 'Missing access token: send Authorization: Bearer <token>');
    }
    const user = await this.authenticate(header);
    if (!user) throw new DomainException('UNAUTHORIZED', 'Invalid, expired or revoked access token');
    request.user = user;

    if (user.mustChangePassword && !this.reflector.getAllAndOverride<boolean>(ALLOW_PENDING_PASSWORD, targets)) {
      throw new DomainException('PASSWORD_CHANGE_REQUIRED', 'Change the temporary password first: POST /users/me/password');
    }
    if (!policy.levels.includes(user.level)) {
      throw new DomainException('FORBIDDEN', 'Your user level does not allow this operation');
    }
    return true;
  }

  /**
   * Resolves the user, false when the token is refused; rejects when the lookup itself fails (a 500,
   * not a 401). The strategy sees the Authorization header alone: passport-http-bearer would also
   * take `access_token` from the query string or the body (API.md §4: only the header counts).
   */
  private authenticate(authorization: string): Promise<AuthUser | false> {
    const request = { headers: { authorization } };
    return new Promise((resolve, reject) => {
      const fail = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
      const middleware = this.passport.authenticate('bearer', { session: false }, (err: unknown, user: AuthUser | false) =>
        err ? fail(err) : resolve(user || false),
      ) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
      middleware(request, {}, (err?: unknown) => (err ? fail(err) : resolve(false)));
    });
  }
}
