import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { recordEvent } from '../common/outbox/outbox';
import { recordAudit } from '../common/audit/audit-log';
import { transaction } from '../common/database/transaction';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { NO_PASSWORD, PasswordHasher } from '../auth/password-hasher';
import { RateLimitsService } from '../auth/rate-limits.service';
import { normalizeLogin, TokenService } from '../auth/token.service';
import { AuthUser } from '../common/auth/auth-user';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, ValidationException } from '../common/errors/domain.exception';
import { UserLevel } from '../common/auth/user-level';
import { User, WelcomeEmailStatus } from './entities/user.entity';
import { UserDepartment } from './entities/user-department.entity';
import './users.events';

/** A temporary password: 16 random characters (96 bits). */
export function temporaryPassword(): string {
  return randomBytes(12).toString('base64url');
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const USERNAME_RE = /^[a-z0-9._@-]{2,100}$/;

/** Refuses a username (after normalizeLogin) outside the allowed characters and length, naming `field`. */
export function assertUsername(username: string, field = 'username'): void {
  if (!USERNAME_RE.test(username)) throw ValidationException.field(field, 'must be 2-100 characters: letters, digits, . _ @ -');
}

export interface NewUser {
  username: string;
  email: string;
  /** null: no password at all (a provisioned user signs in through single sign-on, or after users:reset-password). */
  password: string | null;
  level: UserLevel;
  employeeId?: number | null;
  mustChangePassword?: boolean;
  userRoles?: number[];
  lang?: string | null;
  defaultModule?: string | null;
  welcomeEmailStatus?: WelcomeEmailStatus | null;
  /** A Restricted Admin's departments (existing ids), stored and audited with the user. */
  departmentIds?: number[];
  /** Opens the user's "change your temporary password" task (a user made for an employee). */
  passwordTask?: boolean;
  /** Default true. */
  active?: boolean;
  /** The identity provider's id and its other SCIM attributes (JSON), for a provisioned user. */
  externalId?: string | null;
  scimAttributes?: string | null;
  /** More to write in the user's transaction (its welcome e-mail). */
  inTransaction?: (em: EntityManager, user: User) => Promise<unknown>;
}

/** A user as the audit log records it: the API's fields, never the password hash. */
export function userAuditView(u: User, departments: number[]): Record<string, unknown> {
  return {
    username: u.username,
    email: u.email,
    user_level: u.userLevel,
    employee: u.employeeId,
    active: u.active,
    departments,
    user_roles: u.userRoles ?? [],
    lang: u.lang,
    default_module: u.defaultModule,
    must_change_password: u.mustChangePassword,
  };
}

@Injectable()
export class UsersService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly hasher: PasswordHasher,
    private readonly tokens: TokenService,
    private readonly limits: RateLimitsService,
    private readonly employees: EmployeeFactsService,
  ) {}

  /**
   * Who decides an employee's leave and time entries: the users of its supervisor and approvers;
   * the Admins when none of them has one.
   */
  async approverUsersOf(employeeId: number): Promise<number[]> {
    const approvers = await this.usersOfEmployees(await this.employees.approversOf(employeeId));
    return approvers.length ? approvers.map((a) => a.user) : this.adminIds();
  }

  /** The active users of these employees, as {user, employee}. */
  async usersOfEmployees(employeeIds: number[]): Promise<Array<{ user: number; employee: number }>> {
    if (!employeeIds.length) return [];
    const users = await this.users.find({
      select: { id: true, employeeId: true },
      where: { employeeId: In(employeeIds), active: true },
    });
    return users.map((u) => ({ user: u.id, employee: u.employeeId as number }));
  }

  /** What an e-mail to users needs (active users only): address, language, and the employee's name or the username. */
  async mailRecipientsOf(
    userIds: number[],
  ): Promise<Map<number, { email: string; username: string; lang: string | null; name: string }>> {
    if (!userIds.length) return new Map();
    const users = await this.users.find({
      select: { id: true, email: true, username: true, lang: true, employeeId: true },
      where: { id: In(userIds), active: true },
    });
    const names = await this.employees.namesOf(users.flatMap((u) => (u.employeeId === null ? [] : [u.employeeId])));
    return new Map(
      users.map((u) => [
        u.id,
        {
          email: u.email,
          username: u.username,
          lang: u.lang,
          name: (u.employeeId !== null && names.get(u.employeeId)?.name) || u.username,
        },
      ]),
    );
  }

  /** The ids of the active Admin users. */
  async adminIds(): Promise<number[]> {
    return (await this.users.find({ select: { id: true }, where: { userLevel: 'Admin', active: true } })).map((u) => u.id);
  }

  /**
   * The active users who administer an employee of a department: the
   * Restricted Admins assigned to it or to one of its ancestors (`ancestors`, the department
   * included), or the Admins when no Restricted Admin does.
   */
  async administratorsOf(ancestors: number[]): Promise<number[]> {
    const assigned = ancestors.length
      ? await this.users.manager.getRepository(UserDepartment).find({ where: { departmentId: In(ancestors) } })
      : [];
    if (assigned.length) {
      const restricted = await this.users.find({
        select: { id: true },
        where: { id: In([...new Set(assigned.map((a) => a.userId))]), userLevel: 'Restricted Admin', active: true },
      });
      if (restricted.length) return restricted.map((u) => u.id);
    }
    return this.adminIds();
  }

  /** Whether an active user with this id exists. */
  exists(id: number): Promise<boolean> {
    return this.users.exists({ where: { id, active: true } });
  }

  findByUsername(username: string): Promise<User | null> {
    return this.users.findOne({ where: { username: normalizeLogin(username) } });
  }

  /** Usernames and e-mails are stored in lower case, so sign-in ignores case on every database. */
  async create(input: NewUser, em?: EntityManager): Promise<User> {
    const users = em ? em.getRepository(User) : this.users;
    const username = normalizeLogin(input.username);
    const email = normalizeLogin(input.email);
    assertUsername(username);
    if (!EMAIL_RE.test(email) || email.length > 255) throw ValidationException.field('email', 'must be an email');
    if (input.password !== null) this.checkPasswordLength(input.password, 'password');
    await this.assertAvailable(username, email);
    const user = users.create({
      username,
      email,
      passwordHash: input.password === null ? NO_PASSWORD : await this.hasher.hash(input.password),
      userLevel: input.level,
      employeeId: input.employeeId ?? null,
      active: input.active ?? true,
      externalId: input.externalId ?? null,
      scimAttributes: input.scimAttributes ?? null,
      mustChangePassword: input.mustChangePassword ?? false,
      userRoles: input.userRoles ?? [],
      lang: input.lang ?? null,
      defaultModule: input.defaultModule ?? null,
      welcomeEmailStatus: input.welcomeEmailStatus ?? null,
    });
    // The insert and its audit record in one transaction (the caller's, when it gives one).
    const save = async (target: EntityManager) => {
      const saved = await target.getRepository(User).save(user);
      const departments = [...new Set(input.departmentIds ?? [])].sort((a, b) => a - b);
      if (departments.length)
        await target.insert(
          UserDepartment,
          departments.map((departmentId) => ({ userId: saved.id, departmentId })),
        );
      await recordAudit(target, {
        action: 'create',
        resource: 'users',
        event: 'user.created',
        resourceId: saved.id,
        employee: saved.employeeId,
        after: userAuditView(saved, departments),
      });
      if (input.passwordTask) await recordEvent(target, 'user.must_change_password', { user: saved.id });
      await input.inTransaction?.(target, saved);
      return saved;
    };
    try {
      return await (em ? save(em) : transaction(users.manager.dataSource, save));
    } catch (err) {
      // A concurrent create took the name between the check and the insert.
      if (!isUniqueViolation(err)) throw err;
      await this.assertAvailable(username, email);
      throw err;
    }
  }

  /** A new temporary password for the operator to hand over; the user must change it; its tokens end. */
  async resetToTemporaryPassword(userId: number): Promise<string> {
    const password = temporaryPassword();
    const passwordHash = await this.hasher.hash(password);
    await transaction(this.users.manager.dataSource, async (em) => {
      const user = await em.findOneOrFail(User, {
        where: { id: userId },
        select: { id: true, employeeId: true, mustChangePassword: true },
      });
      await em.update(User, { id: userId }, { passwordHash, mustChangePassword: true });
      // That it happened, and the flag; never the password or its hash.
      await recordAudit(em, {
        action: 'reset-password',
        resource: 'users',
        resourceId: userId,
        employee: user.employeeId,
        before: { must_change_password: user.mustChangePassword },
        after: { must_change_password: true },
      });
    });
    await this.tokens.revokeUserTokens(userId);
    return password;
  }

  private async assertAvailable(username: string, email: string): Promise<void> {
    if (await this.users.exists({ where: { username } })) {
      throw new DomainException('USERNAME_TAKEN', 'Username is already taken');
    }
    if (await this.users.exists({ where: { email } })) {
      throw new DomainException('EMAIL_TAKEN', 'E-mail is already taken');
    }
  }

  /** Changes the caller's password; every other token of the user stops working, the caller's own keeps working. */
  async changePassword(caller: AuthUser, current: string, next: string): Promise<void> {
    // Every attempt counts: a stolen token must not guess the current password, nor queue scrypt work.
    await this.limits.consume('password-change', String(caller.id), 'Too many password change attempts');
    const user = await this.users.findOneOrFail({ where: { id: caller.id } });
    if (!(await this.hasher.verify(current, user.passwordHash, `user:${caller.id}`))) {
      throw ValidationException.field('current_password', 'is not the current password');
    }
    this.checkPasswordLength(next, 'new_password');
    if (current === next) throw ValidationException.field('new_password', 'must differ from the current password');
    const passwordHash = await this.hasher.hash(next);
    await transaction(this.users.manager.dataSource, async (em) => {
      await em.update(User, { id: user.id }, { passwordHash, mustChangePassword: false, passwordChangedAt: new Date() });
      await recordAudit(em, {
        action: 'change-password',
        resource: 'users',
        resourceId: user.id,
        employee: user.employeeId,
        before: { must_change_password: user.mustChangePassword },
        after: { must_change_password: false },
      });
      await recordEvent(em, 'user.password_changed', { user: user.id });
    });
    await this.tokens.revokeUserTokens(user.id, caller.grantId);
  }

  private checkPasswordLength(password: string, field: string): void {
    if (password.length < PasswordHasher.MIN_LENGTH) {
      throw ValidationException.field(field, `must be at least ${PasswordHasher.MIN_LENGTH} characters`);
    }
    if (password.length > PasswordHasher.MAX_LENGTH) {
      throw ValidationException.field(field, `must be at most ${PasswordHasher.MAX_LENGTH} characters`);
    }
  }
}
