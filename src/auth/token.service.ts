import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { In, IsNull, LessThan, Not, Repository } from 'typeorm';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { AuthUser } from '../common/auth/auth-user';
import { DomainException } from '../common/errors/domain.exception';
import { OAuthToken, TokenKind } from './entities/oauth-token.entity';
import { UserMfa } from './entities/user-mfa.entity';
import { REQUIRE_MFA, levelsIn } from './auth.settings';
import { SettingsService } from '../settings/settings.service';
import { PasswordHasher } from './password-hasher';
import { DirectoryUser, USER_DIRECTORY, UserDirectory } from './user-directory';
import { Invalidation, TokenInvalidations } from './token-invalidations';

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const PREFIX: Record<TokenKind, string> = { access: 'hra_', refresh: 'hrr_', mfa: 'hrm_' };
const MFA_CHALLENGE_TTL_S = 300;
const CACHE_MAX = 10_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function newToken(kind: TokenKind): string {
  return PREFIX[kind] + randomBytes(32).toString('base64url');
}

/**
 * A username or e-mail as stored and compared: trimmed, NFKC (full-width letters become ASCII) and
 * lower case. Sign-in compares this exactly, on both databases: MariaDB's utf8mb4_unicode_ci also
 * matches accent variants ('ädmin' found 'admin'), which must not sign anyone in.
 */
export function normalizeLogin(login: string): string {
  return login.trim().normalize('NFKC').toLowerCase();
}

/**
 * The sign-in limiter's bucket for a name: accents stripped and case folded as the collation
 * does, so that no variant of a name gets attempts of its own. AuthService keys a known user by
 * its own username this way, so its e-mail shares the bucket too.
 */
export function loginBucket(name: string): string {
  return name.trim().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().normalize('NFKC');
}

/**
 * Opaque bearer tokens: issued in access/refresh pairs sharing a grant id, stored as SHA-256
 * hashes, checked against expiry, revocation and the user's active flag. Validated access tokens
 * are cached for TOKEN_CACHE_MS (not a leaver's near the start of its day: DirectoryUser.leavesSoon); a revocation, password change, deactivation or change of level or
 * scope clears their entries at once, in this process and (TokenInvalidations, with Redis) in every other.
 * Concurrent requests with the same uncached token share one lookup (when the cache entry expires
 * under load, 50 connections made 50 lookups at once). A lookup that was under way when a token or
 * user was invalidated is not cached, and requests after the invalidation do not join it.
 */
@Injectable()
export class TokenService {
  private readonly cache = new Map<string, { user: AuthUser; expiresAt: number; cachedUntil: number }>();
  private readonly lookups = new Map<string, Promise<AuthUser | null>>();
  /** Counts invalidations: a lookup that saw another value than the current one must not be cached. */
  private generation = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(OAuthToken) private readonly tokens: Repository<OAuthToken>,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
    private readonly hasher: PasswordHasher,
    @InjectRepository(UserMfa) private readonly factors: Repository<UserMfa>,
    private readonly settings: SettingsService,
    private readonly invalidations: TokenInvalidations,
  ) {
    invalidations.onInvalidate((invalidation) => this.apply(invalidation));
  }

  /** Issues an access/refresh pair. `accessTtlSec` overrides ACCESS_TOKEN_TTL (CLI tokens). */
  async issue(
    user: Pick<DirectoryUser, 'id' | 'userLevel'>,
    opts: { accessTtlSec?: number; grantId?: string } = {},
  ): Promise<IssuedTokens> {
    const accessTtl = opts.accessTtlSec ?? this.config.accessTokenTtlSec;
    const grantId = opts.grantId ?? randomUUID();
    const access = newToken('access');
    const refresh = newToken('refresh');
    const now = Date.now();
    await this.tokens.insert([
      this.row(user.id, 'access', access, grantId, new Date(now + accessTtl * 1000)),
      this.row(user.id, 'refresh', refresh, grantId, new Date(now + this.config.refreshTokenTtlSec * 1000)),
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: accessTtl,
      refresh_token: refresh,
      // RFC 6749 §3.3: scope is a space-separated list, so the level is one token (restricted_admin).
      scope: user.userLevel.toLowerCase().replace(/ /g, '_'),
    };
  }

  /** The user a username or e-mail names exactly (after normalizeLogin), or null. */
  async userOfLogin(login: string): Promise<DirectoryUser | null> {
    const normalized = normalizeLogin(login);
    const user = await this.users.findByLogin(normalized);
    return user && (user.username === normalized || user.email === normalized) ? user : null;
  }

  /** The login's user when the password is its own (unknown and wrong look alike); `client` counts the hash against its share. */
  async checkPassword(user: DirectoryUser | null, password: string, client: string | null = null): Promise<DirectoryUser> {
    const ok = user
      ? await this.hasher.verify(password, user.passwordHash, client)
      : await this.hasher.verifyAgainstNothing(password, client);
    if (!user || !ok || !user.active) {
      throw new DomainException('INVALID_CREDENTIALS', 'Invalid username or password');
    }
    if (this.hasher.needsRehash(user.passwordHash)) {
      // Older parameters: upgraded now that the password is known; unless it changed meanwhile.
      await this.users.replacePasswordHash(user.id, user.passwordHash, await this.hasher.hash(password));
    }
    return user;
  }

  /** A sign-in challenge for a user whose password was right and who has a second factor. */
  async issueMfaChallenge(userId: number): Promise<{ token: string; expiresIn: number }> {
    const token = newToken('mfa');
    await this.tokens.insert(this.row(userId, 'mfa', token, randomUUID(), new Date(Date.now() + MFA_CHALLENGE_TTL_S * 1000)));
    return { token, expiresIn: MFA_CHALLENGE_TTL_S };
  }

  /** The user of a sign-in challenge that is neither used nor expired, or null. */
  async userOfMfaChallenge(token: string): Promise<DirectoryUser | null> {
    const row = await this.tokens.findOne({ where: { tokenHash: hashToken(token), kind: 'mfa' } });
    if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
    const user = await this.users.findById(row.userId);
    return user?.active ? user : null;
  }

  /** Uses up a sign-in challenge; false when another request used it first. */
  async useMfaChallenge(token: string): Promise<boolean> {
    const res = await this.tokens.update(
      { tokenHash: hashToken(token), kind: 'mfa', revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return res.affected === 1;
  }

  /**
   * The refresh_token grant. A refresh token works once; presenting a used one again revokes the
   * whole grant, since one of the two parties holding it is not its owner.
   */
  async refreshGrant(refreshToken: string): Promise<IssuedTokens> {
    const invalid = () => new DomainException('INVALID_GRANT', 'Invalid, expired or revoked refresh token');
    const row = await this.tokens.findOne({ where: { tokenHash: hashToken(refreshToken), kind: 'refresh' } });
    if (!row) throw invalid();
    if (row.revokedAt) {
      await this.revokeGrant(row.grantId);
      throw invalid();
    }
    if (row.expiresAt.getTime() <= Date.now()) throw invalid();
    const user = await this.users.findById(row.userId);
    if (!user || !user.active) throw invalid();
    // Only one of two concurrent refreshes with the same token wins this update.
    const res = await this.tokens.update({ id: row.id, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (res.affected !== 1) throw invalid();
    return this.issue(user, { grantId: row.grantId });
  }

  /** RFC 7009: revoking a refresh token ends its grant; an access token ends alone. Unknown tokens are ignored. */
  async revoke(token: string): Promise<void> {
    const row = await this.tokens.findOne({ where: { tokenHash: hashToken(token) } });
    if (!row) return;
    if (row.kind === 'refresh') {
      await this.revokeGrant(row.grantId);
    } else {
      await this.tokens.update({ id: row.id, revokedAt: IsNull() }, { revokedAt: new Date() });
      await this.invalidate({ kind: 'tokens', hashes: [row.tokenHash] });
    }
  }

  /** Ends every token of the user, except those of one grant (the caller's own, on password change). */
  async revokeUserTokens(userId: number, exceptGrantId?: string): Promise<void> {
    await this.tokens.update(
      exceptGrantId ? { userId, revokedAt: IsNull(), grantId: Not(exceptGrantId) } : { userId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    await this.forgetUser(userId);
  }

  /** Drops cached tokens of a user whose level, flags or scope changed, in every process. */
  forgetUser(userId: number): Promise<void> {
    return this.forgetUsers([userId]);
  }

  /** forgetUser() for many users at once: one invalidation, one round of acknowledgements. */
  forgetUsers(userIds: number[]): Promise<void> {
    return userIds.length ? this.invalidate({ kind: 'users', userIds }) : Promise.resolve();
  }

  /** Deletes tokens that expired more than a day ago; returns how many. */
  async purgeExpired(): Promise<number> {
    const cutoff = new Date(Date.now() - 86_400_000);
    const res = await this.tokens.delete({ expiresAt: LessThan(cutoff) });
    return res.affected ?? 0;
  }

  /**
   * The token's user from the token cache without a promise: undefined when the cache cannot answer
   * (not cached, kept past TOKEN_CACHE_MS, or invalidations not trusted), null when the token expired.
   */
  cached(token: string, hash = hashToken(token), now = Date.now()): AuthUser | null | undefined {
    const cached = this.invalidations.trusted ? this.cache.get(hash) : undefined;
    if (!cached || cached.cachedUntil <= now) return undefined;
    return cached.expiresAt > now ? cached.user : null;
  }

  /** Resolves an access token to its user, or null when unknown, expired, revoked or the user is inactive. */
  async authenticate(token: string): Promise<AuthUser | null> {
    const hash = hashToken(token);
    const now = Date.now();
    const trusted = this.invalidations.trusted;
    const cached = this.cached(token, hash, now);
    if (cached !== undefined) return cached;

    let lookup = this.lookups.get(hash);
    if (!lookup) {
      const generation = this.generation;
      lookup = this.lookUp(hash, now).then((user) => {
        if (user?.cacheable && this.config.tokenCacheMs > 0 && generation === this.generation && trusted) {
          if (this.cache.size >= CACHE_MAX) this.cache.clear();
          this.cache.set(hash, { user: user.user, expiresAt: user.expiresAt, cachedUntil: now + this.config.tokenCacheMs });
        }
        return user && user.user;
      });
      const settled = lookup;
      const forget = () => this.lookups.get(hash) === settled && this.lookups.delete(hash);
      this.lookups.set(hash, settled);
      void settled.then(forget, forget);
    }
    return lookup;
  }

  private async lookUp(hash: string, now: number): Promise<{ user: AuthUser; expiresAt: number; cacheable: boolean } | null> {
    const row = await this.tokens.findOne({ where: { tokenHash: hash, kind: 'access' } });
    if (!row || row.revokedAt || row.expiresAt.getTime() <= now) return null;
    const user = await this.users.findById(row.userId);
    if (!user || !user.active) return null;
    const departmentIds = user.userLevel === 'Restricted Admin' ? await this.users.departmentsOf(user.id) : [];
    const mfaEnrolmentRequired =
      levelsIn(await this.settings.get(REQUIRE_MFA)).has(user.userLevel) &&
      !(await this.factors.exists({ where: { userId: user.id, confirmedAt: Not(IsNull()) } }));
    const authUser: AuthUser = {
      id: user.id,
      username: user.username,
      email: user.email,
      level: user.userLevel,
      employeeId: user.employeeId,
      departmentIds,
      mustChangePassword: user.mustChangePassword,
      ...(mfaEnrolmentRequired ? { mfaEnrolmentRequired } : {}),
      grantId: row.grantId,
    };
    return { user: authUser, expiresAt: row.expiresAt.getTime(), cacheable: !user.leavesSoon };
  }

  /** Applies an invalidation here, then publishes it to the other processes. */
  private invalidate(invalidation: Invalidation): Promise<void> {
    this.apply(invalidation);
    return this.invalidations.publish(invalidation);
  }

  /** Forgets the cached tokens the invalidation names, and every lookup under way (they may have read what changed). */
  private apply(invalidation: Invalidation): void {
    this.generation += 1;
    this.lookups.clear();
    if (invalidation.kind === 'all') return this.cache.clear();
    if (invalidation.kind === 'tokens') {
      for (const hash of invalidation.hashes) this.cache.delete(hash);
      return;
    }
    const users = new Set(invalidation.userIds);
    for (const [hash, entry] of this.cache) if (users.has(entry.user.id)) this.cache.delete(hash);
  }

  private async revokeGrant(grantId: string): Promise<void> {
    const rows = await this.tokens.find({ where: { grantId }, select: { id: true, tokenHash: true, userId: true } });
    if (!rows.length) return;
    await this.tokens.update({ id: In(rows.map((r) => r.id)), revokedAt: IsNull() }, { revokedAt: new Date() });
    await this.invalidate({ kind: 'tokens', hashes: rows.map((r) => r.tokenHash) });
  }

  private row(userId: number, kind: TokenKind, token: string, grantId: string, expiresAt: Date): Partial<OAuthToken> {
    return { userId, kind, tokenHash: hashToken(token), grantId, expiresAt, revokedAt: null };
  }
}
