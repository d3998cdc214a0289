import { Injectable } from '@nestjs/common';
import { Authenticator as Passport } from 'passport';
import { AuthUser } from '../common/auth/auth-user';
import { Authenticator } from '../common/auth/authenticator';
import { BearerStrategy } from './bearer.strategy';
import { TokenService } from './token.service';

/**
 * The Authenticator behind the access guard: the passport-http-bearer strategy, run through a
 * passport instance owned by this application (passport's default instance is process-wide, and two
 * applications in one process, the CLI beside a server or the test suites, would otherwise
 * authenticate against each other's database). The strategy sees the Authorization header alone:
 * it would also take `access_token` from the query string or the body (docs/api/decisions.md §4: only the header counts).
 */
@Injectable()
export class BearerAuthenticator implements Authenticator {
  private readonly passport = new Passport();

  constructor(
    strategy: BearerStrategy,
    private readonly tokens: TokenService,
  ) {
    this.passport.use('bearer', strategy);
  }

  /**
   * Resolves the user, null when the token is refused; rejects when the lookup itself fails (a 500,
   * not a 401). A token the token cache answers for skips passport's per-request middleware (what
   * the strategy would do with it is the same cache lookup: BearerStrategy.validate).
   */
  authenticate(token: string): Promise<AuthUser | null> {
    const cached = this.tokens.cached(token);
    if (cached !== undefined) return Promise.resolve(cached);
    const request = { headers: { authorization: `Bearer ${token}` } };
    return new Promise((resolve, reject) => {
      const fail = (err: unknown) => reject(err instanceof Error ? err : new Error(String(err)));
      const middleware = this.passport.authenticate('bearer', { session: false }, (err: unknown, user: AuthUser | false) =>
        err ? fail(err) : resolve(user || null),
      ) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void;
      middleware(request, {}, (err?: unknown) => (err ? fail(err) : resolve(null)));
    });
  }
}
