import { Injectable } from '@nestjs/common';
import { DomainException } from '../../common/errors/domain.exception';
import { RateLimitsService } from '../rate-limits.service';
import { REQUIRE_SSO, levelsIn } from '../auth.settings';
import { SettingsService } from '../../settings/settings.service';
import { MfaService } from '../mfa/mfa.service';
import { IssuedTokens, loginBucket, TokenService } from '../token.service';
import { DirectoryUser } from '../user-directory';

const TOKEN_FIELDS = [
  'grant_type',
  'username',
  'password',
  'refresh_token',
  'mfa_token',
  'otp',
  'recovery_code',
  'client_id',
  'client_secret',
  'scope',
];
const GRANTS = 'password, refresh_token or mfa_otp';

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
    private readonly mfa: MfaService,
    private readonly settings: SettingsService,
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
        return this.passwordSignIn(await this.tokens.checkPassword(user, password, clientAddress));
      }
      case 'mfa_otp':
        return this.mfaGrant(fields);
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
        throw new DomainException('UNSUPPORTED_GRANT_TYPE', `grant_type must be ${GRANTS}`, [
          { field: 'grant_type', message: `must be ${GRANTS}` },
        ]);
    }
  }

  /**
   * After a right password: 401 SSO_REQUIRED when the user's level must sign in through the
   * identity provider; 401 MFA_REQUIRED with a challenge when the user has a second factor.
   */
  private async passwordSignIn(user: DirectoryUser): Promise<IssuedTokens> {
    if (levelsIn(await this.settings.get(REQUIRE_SSO)).has(user.userLevel)) {
      throw new DomainException('SSO_REQUIRED', 'Sign in through single sign-on: GET /auth/oidc/login');
    }
    if (await this.mfa.hasFactor(user.id)) {
      const challenge = await this.tokens.issueMfaChallenge(user.id);
      throw new DomainException(
        'MFA_REQUIRED',
        'Send a code of your authenticator app with grant_type mfa_otp and this mfa_token',
        [{ field: 'mfa_token', message: `good for ${challenge.expiresIn} s`, mfa_token: challenge.token }],
      );
    }
    return this.tokens.issue(user);
  }

  /** grant_type mfa_otp: the challenge of the password step and a code (otp) or a recovery code. */
  private async mfaGrant(fields: Record<string, unknown>): Promise<IssuedTokens> {
    const challenge = stringField(fields, 'mfa_token');
    const otp = stringField(fields, 'otp');
    const recovery = stringField(fields, 'recovery_code');
    if (!challenge)
      throw new DomainException('INVALID_REQUEST', 'mfa_token is required', [{ field: 'mfa_token', message: 'is required' }]);
    if (!otp === !recovery) {
      throw new DomainException('INVALID_REQUEST', 'Send otp or recovery_code (one of them)', [
        { field: 'otp', message: 'send otp or recovery_code' },
      ]);
    }
    const user = await this.tokens.userOfMfaChallenge(challenge);
    if (!user) throw new DomainException('INVALID_GRANT', 'Invalid, expired or used mfa_token: sign in with the password again');
    // Codes count against the user's sign-in allowance, as passwords do.
    await this.limits.consume('login-username', loginBucket(user.username), 'Too many sign-in attempts');
    const code = otp ?? recovery ?? '';
    if (otp !== undefined && !/^\d{6}$/.test(otp)) {
      throw new DomainException('INVALID_REQUEST', 'otp must be six digits', [{ field: 'otp', message: 'must be six digits' }]);
    }
    if (!(await this.mfa.verifyForSignIn(user.id, code))) {
      throw new DomainException('INVALID_CREDENTIALS', 'The code is wrong, expired or already used');
    }
    if (!(await this.tokens.useMfaChallenge(challenge))) {
      throw new DomainException('INVALID_GRANT', 'Invalid, expired or used mfa_token: sign in with the password again');
    }
    return this.tokens.issue(user);
  }

  async revoke(body: unknown): Promise<void> {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const token = stringField(fields, 'token');
    if (!token) throw new DomainException('INVALID_REQUEST', 'token is required', [{ field: 'token', message: 'is required' }]);
    await this.tokens.revoke(token);
  }
}
