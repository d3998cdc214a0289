import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import * as oidc from 'openid-client';
import { IsNull, LessThan, Repository } from 'typeorm';
import { DomainException, ValidationException } from '../../common/errors/domain.exception';
import { AppConfig, OidcSettings } from '../../config/config';
import { APP_CONFIG } from '../../config/config.module';
import { OidcLogin } from '../entities/oidc-login.entity';
import { RateLimitsService } from '../rate-limits.service';
import { IssuedTokens, normalizeLogin, TokenService } from '../token.service';
import { USER_DIRECTORY, UserDirectory } from '../user-directory';

/** How long a sign-in may take between the redirect to the provider and the callback. */
const LOGIN_TTL_MS = 10 * 60_000;
const MAX_SUBJECT = 255;

const sha256 = (value: string) => createHash('sha256').update(value).digest();

function badState(why: string): DomainException {
  return new DomainException('INVALID_REQUEST', `This sign-in cannot be finished: ${why}. Start again at GET /auth/oidc/login`, [
    { field: 'state', message: why },
  ]);
}

function rejected(why: string): DomainException {
  return new DomainException('OIDC_REJECTED', `Single sign-on failed: ${why}`);
}

/**
 * OpenID Connect sign-in (docs/api/decisions.md §23) with openid-client: the authorization code flow with PKCE
 * (S256), a state bound to the browser that started it (a cookie whose hash is kept with it) and
 * used once, a nonce, and the ID token verified by the library (signature by the provider's keys
 * from its JWKS, issuer, audience, expiry, nonce). The user is the one linked to the token's subject, else the
 * one SCIM provisioned with Entra ID's object id (`oid`) as externalId, else the one with the
 * token's verified e-mail; nobody is created by signing in. Answers the token response of §4.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('Oidc');
  private discovered: Promise<oidc.Configuration> | null = null;
  readonly redirectUri: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(OidcLogin) private readonly logins: Repository<OidcLogin>,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
    private readonly tokens: TokenService,
    private readonly limits: RateLimitsService,
  ) {
    this.redirectUri = `${config.publicUrl}/app/api/auth/oidc/callback`;
  }

  /** The provider's authorization URL for a new sign-in, and the browser secret to set as a cookie. */
  async start(returnTo: string | undefined, address: string): Promise<{ location: string; browser: string }> {
    this.settings();
    // Every start writes a row: unauthenticated, so bounded per address like the sign-ins themselves.
    await this.limits.consume('login-address', address, 'Too many sign-in attempts');
    const target = returnTo === undefined ? null : this.checkedReturnTo(returnTo);
    const provider = await this.provider();
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const browser = randomBytes(32).toString('base64url');
    // Sign-ins never finished are not kept past their time.
    await this.logins.delete({ expiresAt: LessThan(new Date(Date.now() - LOGIN_TTL_MS)) });
    await this.logins.insert({
      stateHash: sha256(state).toString('hex'),
      browserHash: sha256(browser).toString('hex'),
      codeVerifier: verifier,
      nonce,
      returnTo: target,
      expiresAt: new Date(Date.now() + LOGIN_TTL_MS),
      usedAt: null,
    });
    const url = oidc.buildAuthorizationUrl(provider, {
      redirect_uri: this.redirectUri,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { location: url.href, browser };
  }

  /**
   * The callback: the state must be one this service issued, unused, unexpired, to this browser;
   * it is used up before the code is exchanged, so a replayed callback signs nobody in.
   */
  async finish(
    query: string,
    browser: string | undefined,
    address: string,
  ): Promise<{ tokens: IssuedTokens; returnTo: string | null }> {
    this.settings();
    await this.limits.consume('login-address', address, 'Too many sign-in attempts');
    const params = new URLSearchParams(query);
    const state = params.get('state');
    if (!state || state.length > 512) throw badState('the state is missing');
    const login = await this.logins.findOne({ where: { stateHash: sha256(state).toString('hex') } });
    if (!login || login.usedAt || login.expiresAt.getTime() <= Date.now())
      throw badState('the state was not issued, expired or was used');
    if (!browser || !timingSafeEqual(sha256(browser), Buffer.from(login.browserHash, 'hex'))) {
      throw badState('the sign-in was started in another browser');
    }
    const used = await this.logins.update({ id: login.id, usedAt: IsNull() }, { usedAt: new Date() });
    if (used.affected !== 1) throw badState('the state was used');
    const refusal = params.get('error');
    if (refusal) throw rejected(`the provider answered ${refusal.slice(0, 100)}`);

    const provider = await this.provider();
    let claims: oidc.IDToken | undefined;
    let accessToken: string;
    try {
      const answer = await oidc.authorizationCodeGrant(provider, new URL(`${this.redirectUri}?${query}`), {
        pkceCodeVerifier: login.codeVerifier,
        expectedState: state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = answer.claims();
      accessToken = answer.access_token;
    } catch (err) {
      this.logger.warn(`OpenID Connect callback refused: ${err instanceof Error ? err.message : String(err)}`);
      throw rejected('the provider’s answer did not verify');
    }
    if (!claims) throw rejected('no ID token');
    const subject = `${claims.iss} ${claims.sub}`;
    if (subject.length > MAX_SUBJECT) throw rejected('the subject is too long');
    const identity = await this.identityClaims(provider, claims, accessToken);
    const email = identity.email_verified === true && typeof identity.email === 'string' ? normalizeLogin(identity.email) : null;
    const objectId = typeof identity.oid === 'string' ? identity.oid : null;
    const user = await this.users.findForSignOn(subject, objectId, email);
    if (!user || !user.active) {
      throw new DomainException(
        'UNKNOWN_USER',
        'No active user of this service matches your sign-in: ask an administrator to provision you',
      );
    }
    await this.users.linkSubject(user.id, subject);
    return { tokens: await this.tokens.issue(user), returnTo: login.returnTo };
  }

  /**
   * The claims that name the user: the ID token's when it carries the e-mail (Entra ID, Okta), else
   * the UserInfo endpoint's, as OpenID Connect Core §5.4 has a provider answer when it issued an
   * access token (panva's oidc-provider at its defaults, Keycloak with the claim off the ID token).
   * UserInfo is asked with the access token, and its `sub` must be the ID token's (Core §5.3.2).
   */
  private async identityClaims(
    provider: oidc.Configuration,
    idToken: oidc.IDToken,
    accessToken: string,
  ): Promise<Record<string, unknown>> {
    if (typeof idToken.email === 'string' || !provider.serverMetadata().userinfo_endpoint) return idToken;
    try {
      const info = await oidc.fetchUserInfo(provider, accessToken, idToken.sub);
      return { ...idToken, ...info };
    } catch (err) {
      this.logger.warn(`OpenID Connect UserInfo refused: ${err instanceof Error ? err.message : String(err)}`);
      throw rejected('the provider’s UserInfo answer did not verify');
    }
  }

  /** The cookie that binds a sign-in to its browser (HttpOnly, SameSite=Lax: sent on the provider's redirect back). */
  browserCookie(value: string): string {
    const secure = this.config.publicUrl.startsWith('https://') ? '; Secure' : '';
    return `${OIDC_COOKIE}=${value}; Path=${this.config.apiPrefix}/auth/oidc; Max-Age=${LOGIN_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`;
  }

  private settings(): OidcSettings {
    if (!this.config.oidc) {
      throw new DomainException(
        'NOT_FOUND',
        'Single sign-on is not configured (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)',
      );
    }
    return this.config.oidc;
  }

  /** The provider's metadata, discovered once (again after a failure). */
  private provider(): Promise<oidc.Configuration> {
    const s = this.settings();
    // enableNonRepudiationChecks: the ID token's signature is checked against the provider's keys
    // even though it came straight from the token endpoint (OpenID Connect Core 3.1.3.7 lets a
    // client rely on TLS there instead; the issue asks for the signature, and a forged token to fail).
    const execute = s.allowHttp
      ? [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks]
      : [oidc.enableNonRepudiationChecks];
    this.discovered ??= oidc
      .discovery(new URL(s.issuer), s.clientId, s.clientSecret, undefined, { execute })
      .catch((err: unknown) => {
        this.discovered = null;
        this.logger.warn(`OpenID provider discovery failed: ${err instanceof Error ? err.message : String(err)}`);
        throw new DomainException('DEPENDENCY_UNAVAILABLE', 'The OpenID provider does not answer');
      });
    return this.discovered;
  }

  /** Where the browser may be sent with its tokens: this service's origin or a CORS origin; else 400. */
  private checkedReturnTo(value: string): string {
    const own = new URL(this.config.publicUrl).origin;
    let url: URL;
    try {
      url = new URL(value, own);
    } catch {
      throw ValidationException.field('return_to', 'must be a URL');
    }
    const allowed = [own, ...this.config.corsOrigins.filter((o) => o !== '*')];
    if (value.length > 2000 || !allowed.includes(url.origin)) {
      throw ValidationException.field('return_to', `must be on ${allowed.join(' or ')}`);
    }
    return url.href;
  }
}

export const OIDC_COOKIE = 'hr_oidc';

/** The value of the sign-in cookie in a Cookie header, or undefined. */
export function browserOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader || cookieHeader.length > 8192) return undefined;
  for (const part of cookieHeader.split(';')) {
    const [name, ...rest] = part.trim().split('=');
    if (name === OIDC_COOKIE) return rest.join('=');
  }
  return undefined;
}
