import { Injectable } from '@nestjs/common';
import { DomainException } from '../common/errors/domain.exception';
import { RateLimitsService } from './rate-limits.service';
import { IssuedTokens, loginBucket, TokenService } from './token.service';

const TOKEN_FIELDS = ['grant_type', 'username', 'password', 'refresh_token', 'client_id', 'client_secret', 'scope'];

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || v.length === 0 || v.length > 1024) {
    throw new DomainException('INVALID_REQUEST', `${name} must be a non-empty string`, [
      { field: name, message: 'must be a non-empty string' },
    ]);
  }
  return v;
}

/** POST /oauth/token and /oauth/revoke: request checks, rate limits, then the token service. */
@Injectable()
export class AuthService {
  constructor(
    private readonly tokens: TokenService,
    private readonly limits: RateLimitsService,
  ) {}

  async token(body: unknown, clientAddress: string): Promise<IssuedTokens> {
    await this.limits.consume('login-address', clientAddress, 'Too many sign-in attempts');
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new DomainException('INVALID_REQUEST', 'Send a JSON or form-encoded body with grant_type');
    }
    const fields = body as Record<string, unknown>;
    const unknown = Object.keys(fields).filter((k) => !TOKEN_FIELDS.includes(k));
    if (unknown.length) {
      throw new DomainException(
        'INVALID_REQUEST',
        `Unknown parameter ${unknown[0]}`,
        unknown.map((field) => ({ field, message: 'is not a token request parameter' })),
      );
    }
    const grantType = stringField(fields, 'grant_type');
    switch (grantType) {
      case undefined:
        throw new DomainException('INVALID_REQUEST', 'grant_type is required', [{ field: 'grant_type', message: 'is required' }]);
      case 'password': {
        const username = stringField(fields, 'username');
        const password = stringField(fields, 'password');
        if (!username || !password) {
          const missing = !username ? 'username' : 'password';
          throw new DomainException('INVALID_REQUEST', `${missing} is required`, [{ field: missing, message: 'is required' }]);
        }
        // One bucket per user, whichever of its names (username, e-mail, a variant) is tried.
        const user = await this.tokens.userOfLogin(username);
        await this.limits.consume('login-username', loginBucket(user?.username ?? username), 'Too many sign-in attempts');
        return this.tokens.passwordGrant(user, password);
      }
      case 'refresh_token': {
        const refresh = stringField(fields, 'refresh_token');
        if (!refresh) {
          throw new DomainException('INVALID_REQUEST', 'refresh_token is required', [
            { field: 'refresh_token', message: 'is required' },
          ]);
        }
        return this.tokens.refreshGrant(refresh);
      }
      default:
        throw new DomainException('UNSUPPORTED_GRANT_TYPE', 'grant_type must be password or refresh_token', [
          { field: 'grant_type', message: 'must be password or refresh_token' },
        ]);
    }
  }

  async revoke(body: unknown): Promise<void> {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const token = stringField(fields, 'token');
    if (!token) throw new DomainException('INVALID_REQUEST', 'token is required', [{ field: 'token', message: 'is required' }]);
    await this.tokens.revoke(token);
  }
}
