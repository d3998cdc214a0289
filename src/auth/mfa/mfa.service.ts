import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomInt } from 'node:crypto';
import { DataSource, EntityManager, IsNull, LessThan, Not, Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { UserLevel } from '../../common/auth/user-level';
import { recordAudit } from '../../common/audit/audit-log';
import { transaction } from '../../common/database/transaction';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { COMPANY_NAME } from '../../settings/settings.registry';
import { REQUIRE_MFA, levelsIn } from '../auth.settings';
import { SettingsService } from '../../settings/settings.service';
import { UserMfa, UserRecoveryCode } from '../entities/user-mfa.entity';
import { RateLimitsService } from '../rate-limits.service';
import { loginBucket, TokenService } from '../token.service';
import { USER_DIRECTORY, UserDirectory } from '../user-directory';
import { newTotpSecret, totpStepOf, totpUrl } from './totp';

const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "abcde-fghij": 10 characters of a 31-letter alphabet, about 50 bits. */
function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

function recoveryHash(code: string): string {
  return createHash('sha256').update(code.toLowerCase().replace(/[\s-]/g, '')).digest('hex');
}

export interface MfaStatus {
  totp: 'none' | 'pending' | 'enabled';
  confirmed_at: string | null;
  recovery_codes_left: number;
  required: boolean;
}

/**
 * The TOTP second factor (RFC 6238) of docs/api/decisions.md §23: enrolment confirmed by a first code, ten
 * single-use recovery codes kept as hashes, removal with a code. A code is accepted once: the step
 * it belongs to is recorded by a conditional UPDATE, so of two requests with the same code one wins.
 */
@Injectable()
export class MfaService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly tokens: TokenService,
    private readonly limits: RateLimitsService,
    @Inject(USER_DIRECTORY) private readonly users: UserDirectory,
  ) {}

  async status(user: AuthUser): Promise<MfaStatus> {
    const mfa = await this.dataSource.getRepository(UserMfa).findOne({ where: { userId: user.id } });
    const left = mfa?.confirmedAt
      ? await this.dataSource.getRepository(UserRecoveryCode).count({ where: { userId: user.id, usedAt: IsNull() } })
      : 0;
    return {
      totp: !mfa ? 'none' : mfa.confirmedAt ? 'enabled' : 'pending',
      confirmed_at: mfa?.confirmedAt?.toISOString() ?? null,
      recovery_codes_left: left,
      required: await this.isRequiredFor(user.level),
    };
  }

  /** Whether the "Require MFA" setting names the level. */
  async isRequiredFor(level: UserLevel): Promise<boolean> {
    return levelsIn(await this.settings.get(REQUIRE_MFA)).has(level);
  }

  /** Whether the user has a confirmed factor (sign-in then asks for a code). */
  async hasFactor(userId: number): Promise<boolean> {
    return this.dataSource.getRepository(UserMfa).exists({ where: { userId, confirmedAt: Not(IsNull()) } });
  }

  /** A new pending secret (replacing an unconfirmed one); 409 when a factor is already confirmed. */
  async enrol(user: AuthUser): Promise<{ secret: string; otpauth_url: string }> {
    const repo = this.dataSource.getRepository(UserMfa);
    const existing = await repo.findOne({ where: { userId: user.id } });
    if (existing?.confirmedAt) {
      throw new DomainException('MFA_ALREADY_ENROLLED', 'A factor is already set up: remove it first (DELETE /users/me/mfa)');
    }
    const secret = newTotpSecret();
    await repo.upsert({ userId: user.id, secret, confirmedAt: null, lastStep: 0 }, ['userId']);
    const issuer = await this.settings.get(COMPANY_NAME);
    return { secret, otpauth_url: totpUrl(secret, user.email || user.username, issuer) };
  }

  /** Confirms the pending factor with its first code; answers the ten recovery codes (shown once). */
  async confirm(user: AuthUser, code: string): Promise<{ recovery_codes: string[] }> {
    await this.countAttempt(user);
    const mfa = await this.dataSource.getRepository(UserMfa).findOne({ where: { userId: user.id } });
    if (!mfa) throw new DomainException('INVALID_STATE', 'Start with POST /users/me/mfa/totp');
    if (mfa.confirmedAt) throw new DomainException('MFA_ALREADY_ENROLLED', 'The factor is already confirmed');
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await transaction(this.dataSource, async (em) => {
      if (!(await this.acceptTotp(em.getRepository(UserMfa), mfa, code))) throw invalidCode();
      await em.update(UserMfa, { userId: user.id }, { confirmedAt: new Date() });
      await em.delete(UserRecoveryCode, { userId: user.id });
      await em.insert(
        UserRecoveryCode,
        codes.map((c) => ({ userId: user.id, codeHash: recoveryHash(c), usedAt: null })),
      );
      await recordAudit(em, {
        action: 'mfa_enrol',
        resource: 'users',
        resourceId: user.id,
        employee: user.employeeId,
        after: { mfa: 'totp' },
      });
    });
    await this.tokens.forgetUser(user.id); // a token limited to enrolment now reaches everything
    return { recovery_codes: codes };
  }

  /** Removes the caller's factor, proven by a current code or an unused recovery code. */
  async remove(user: AuthUser, code: string): Promise<void> {
    await this.countAttempt(user);
    const mfa = await this.dataSource.getRepository(UserMfa).findOne({ where: { userId: user.id } });
    if (!mfa) throw new DomainException('NOT_FOUND', 'No factor is set up');
    await transaction(this.dataSource, async (em) => {
      if (!(await this.verify(em, mfa, code))) throw invalidCode();
      await this.drop(em, user.id, user.employeeId, 'mfa_remove');
    });
    await this.tokens.forgetUser(user.id);
  }

  /** An Admin removes a user's factor (a lost phone); the user enrols again. */
  async reset(userId: number): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundException('User');
    await transaction(this.dataSource, (em) => this.drop(em, userId, user.employeeId, 'mfa_reset'));
    await this.tokens.forgetUser(userId);
  }

  /** Sign-in's second step: a current TOTP code (once) or an unused recovery code (used up). */
  async verifyForSignIn(userId: number, code: string): Promise<boolean> {
    const mfa = await this.dataSource.getRepository(UserMfa).findOne({ where: { userId } });
    if (!mfa?.confirmedAt) return false;
    return this.verify(this.dataSource.manager, mfa, code);
  }

  /** Every code a user sends counts against its sign-in allowance, as passwords do (429 when spent). */
  private countAttempt(user: AuthUser): Promise<void> {
    return this.limits.consume('login-username', loginBucket(user.username), 'Too many code attempts');
  }

  private async verify(em: EntityManager, mfa: UserMfa, code: string): Promise<boolean> {
    if (/^\d{6}$/.test(code)) return mfa.confirmedAt !== null && this.acceptTotp(em.getRepository(UserMfa), mfa, code);
    if (!mfa.confirmedAt || code.length > 40) return false;
    const res = await em.update(
      UserRecoveryCode,
      { userId: mfa.userId, codeHash: recoveryHash(code), usedAt: IsNull() },
      { usedAt: new Date() },
    );
    return res.affected === 1;
  }

  /** Accepts a code whose step is later than the last one accepted, recording its step. */
  private async acceptTotp(repo: Repository<UserMfa>, mfa: UserMfa, code: string): Promise<boolean> {
    const step = totpStepOf(mfa.secret, code);
    if (step === null) return false;
    const res = await repo.update({ userId: mfa.userId, lastStep: LessThan(step) }, { lastStep: step });
    return res.affected === 1;
  }

  private async drop(em: EntityManager, userId: number, employeeId: number | null, action: string): Promise<void> {
    const res = await em.delete(UserMfa, { userId });
    if (!res.affected) throw new DomainException('NOT_FOUND', 'No factor is set up');
    await em.delete(UserRecoveryCode, { userId });
    await recordAudit(em, { action, resource: 'users', resourceId: userId, employee: employeeId, before: { mfa: 'totp' } });
  }
}

function invalidCode(): DomainException {
  return new DomainException('INVALID_CODE', 'The code is wrong, expired or already used', [
    { field: 'code', message: 'is wrong, expired or already used' },
  ]);
}
