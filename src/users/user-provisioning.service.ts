import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, In, Like, MoreThan } from 'typeorm';
import { TokenService } from '../auth/token.service';
import { normalizeLogin } from '../auth/token.service';
import { recordAudit } from '../common/audit/audit-log';
import { UserLevel } from '../common/auth/user-level';
import { transaction } from '../common/database/transaction';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { EmployeeLookup } from '../employees/core/employee-lookup';
import { User } from './entities/user.entity';
import { assertAdminsRemain } from './last-admin';
import { UserAccountsService } from './user-accounts.service';
import { assertUsername, EMAIL_RE, userAuditView, UsersService } from './users.service';

/** Where a provisioned user without an e-mail of its own gets one: RFC 2606's reserved TLD, never delivered. */
export const NO_MAIL_DOMAIN = 'users.invalid';
const MAX_ATTRIBUTES = 16_000;

export interface ProvisionedUser {
  id: number;
  username: string;
  email: string;
  active: boolean;
  level: UserLevel;
  employeeId: number | null;
  externalId: string | null;
  attributes: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProvisionedFields {
  username: string;
  /** The e-mails the provider sent, best first: the first valid one no other user holds becomes the user's. */
  emails: string[];
  active: boolean;
  externalId: string | null;
  attributes: Record<string, unknown>;
  /** Tried in order against employees' employee_id; the first employee without a user is linked. */
  employeeNumbers: string[];
}

function view(u: User): ProvisionedUser {
  return {
    id: u.id,
    username: u.username,
    email: u.email,
    active: u.active,
    level: u.userLevel,
    employeeId: u.employeeId,
    externalId: u.externalId,
    attributes: u.scimAttributes ? (JSON.parse(u.scimAttributes) as Record<string, unknown>) : {},
    createdAt: u.createdAt,
    updatedAt: u.updatedAt,
  };
}

/**
 * Users as a provisioning client (SCIM) writes them: the service owns the rows, the rules (unique
 * names, the last Admin, tokens ending with deactivation) and the audit log; the SCIM module owns
 * the protocol. A provisioned user has no password (NO_PASSWORD): it signs in through single sign-on,
 * or with a temporary password an operator hands over (users:reset-password).
 */
@Injectable()
export class UserProvisioningService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly accounts: UserAccountsService,
    private readonly tokens: TokenService,
    private readonly employees: EmployeeLookup,
  ) {}

  async byId(id: number): Promise<ProvisionedUser | null> {
    const u = await this.dataSource.getRepository(User).findOne({ where: { id } });
    return u && view(u);
  }

  /** Users by id, in that order (missing ones left out). */
  async byIds(ids: number[]): Promise<ProvisionedUser[]> {
    if (!ids.length) return [];
    const rows = await this.dataSource.getRepository(User).find({ where: { id: In(ids) } });
    const byId = new Map(rows.map((u) => [u.id, view(u)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Users whose username or externalId is exactly this (a provider's matching query uses the index). */
  async by(column: 'username' | 'externalId', value: string): Promise<ProvisionedUser[]> {
    const where = column === 'username' ? { username: normalizeLogin(value) } : { externalId: value };
    return (await this.dataSource.getRepository(User).find({ where, order: { id: 'ASC' }, take: 1000 })).map(view);
  }

  /**
   * The next `take` users after `afterId` that may have the e-mail `address`: as their own e-mail
   * (indexed), or anywhere in their SCIM attributes (a scan in the database, not in the event
   * loop). A superset: the filter decides. `address` is plain ASCII without quotes or backslashes
   * (the caller's check), so its JSON form is itself and LIKE ignores its case on both databases.
   */
  async withEmail(address: string, afterId: number, take: number): Promise<ProvisionedUser[]> {
    const after = MoreThan(afterId);
    const rows = await this.dataSource.getRepository(User).find({
      where: [
        { id: after, email: address.toLowerCase() },
        { id: after, scimAttributes: Like(`%${address}%`) },
      ],
      order: { id: 'ASC' },
      take,
    });
    return rows.map(view);
  }

  /** The next `take` users after `afterId`, by id: for filters no index answers. */
  async scan(afterId: number, take: number): Promise<ProvisionedUser[]> {
    return (await this.dataSource.getRepository(User).find({ where: { id: MoreThan(afterId) }, order: { id: 'ASC' }, take })).map(
      view,
    );
  }

  count(): Promise<number> {
    return this.dataSource.getRepository(User).count();
  }

  async create(fields: ProvisionedFields): Promise<ProvisionedUser> {
    const attributes = this.serialized(fields.attributes);
    const created = await transaction(this.dataSource, async (em) => {
      const email = await this.usableEmail(em, fields.emails, null);
      const employeeId = await this.linkableEmployee(em, fields.employeeNumbers, null);
      return this.users.create(
        {
          username: fields.username,
          email,
          password: null,
          level: 'Employee',
          employeeId,
          active: fields.active,
          externalId: fields.externalId,
          scimAttributes: attributes,
        },
        em,
      );
    });
    return view(created);
  }

  /** Replaces a user's provisioned fields; deactivation ends its tokens at once. */
  async replace(id: number, fields: ProvisionedFields): Promise<ProvisionedUser> {
    const attributes = this.serialized(fields.attributes);
    const username = normalizeLogin(fields.username);
    let deactivated = false;
    await transaction(this.dataSource, async (em) => {
      const user = await em.findOne(User, { where: { id } });
      if (!user) throw new NotFoundException('User');
      if (username !== user.username) {
        assertUsername(username, 'userName');
        if (await em.exists(User, { where: { username } }))
          throw new DomainException('USERNAME_TAKEN', 'Username is already taken');
      }
      if (user.active && !fields.active) await assertAdminsRemain(em, [id]);
      const email = await this.usableEmail(em, fields.emails, user);
      const employeeId = user.employeeId ?? (await this.linkableEmployee(em, fields.employeeNumbers, id));
      const before = { ...userAuditView(user, []), external_id: user.externalId, scim: user.scimAttributes };
      await em.update(
        User,
        { id },
        { username, email, active: fields.active, externalId: fields.externalId, scimAttributes: attributes, employeeId },
      );
      const after = {
        ...before,
        username,
        email,
        active: fields.active,
        employee: employeeId,
        external_id: fields.externalId,
        scim: attributes,
      };
      await recordAudit(em, {
        action: 'update',
        resource: 'users',
        event: 'user.updated',
        resourceId: id,
        employee: employeeId,
        before,
        after,
      });
      deactivated = user.active && !fields.active;
    });
    if (deactivated) await this.tokens.revokeUserTokens(id);
    else await this.tokens.forgetUser(id);
    return (await this.byId(id))!;
  }

  /** Deletes the user (409 LAST_ADMIN for the last active Admin); its tokens end with it. */
  async remove(id: number): Promise<void> {
    await this.accounts.remove(id);
  }

  /** Gives users a level (SCIM groups mapped to levels); refuses to demote the last active Admin. */
  async setLevels(levels: Map<number, UserLevel>): Promise<void> {
    if (!levels.size) return;
    const changed: number[] = [];
    await transaction(this.dataSource, async (em) => {
      const rows = await em.find(User, { where: { id: In([...levels.keys()]) } });
      const demoted = rows.filter((u) => u.userLevel === 'Admin' && levels.get(u.id) !== 'Admin').map((u) => u.id);
      if (demoted.length) await assertAdminsRemain(em, demoted);
      for (const u of rows) {
        const level = levels.get(u.id)!;
        if (level === u.userLevel) continue;
        await em.update(User, { id: u.id }, { userLevel: level });
        await recordAudit(em, {
          action: 'update',
          resource: 'users',
          event: 'user.updated',
          resourceId: u.id,
          employee: u.employeeId,
          before: { user_level: u.userLevel },
          after: { user_level: level },
        });
        changed.push(u.id);
      }
    });
    await this.tokens.forgetUsers(changed);
  }

  private serialized(attributes: Record<string, unknown>): string {
    const text = JSON.stringify(attributes);
    if (text.length > MAX_ATTRIBUTES)
      throw ValidationException.field('attributes', `must be at most ${MAX_ATTRIBUTES} characters as JSON`);
    return text;
  }

  /** The first valid e-mail no other user holds; else the user's own placeholder (kept), else a new one. */
  private async usableEmail(em: EntityManager, emails: string[], user: User | null): Promise<string> {
    for (const raw of emails) {
      const email = normalizeLogin(raw);
      if (!EMAIL_RE.test(email) || email.length > 255) continue;
      const holder = await em.findOne(User, { where: { email }, select: { id: true } });
      if (!holder || holder.id === user?.id) return email;
    }
    if (user?.email.endsWith(`@${NO_MAIL_DOMAIN}`)) return user.email;
    return `u-${randomBytes(8).toString('hex')}@${NO_MAIL_DOMAIN}`;
  }

  private async linkableEmployee(em: EntityManager, numbers: string[], userId: number | null): Promise<number | null> {
    const wanted = numbers.filter((n) => n && n.length <= 50);
    if (!wanted.length) return null;
    const ids = await this.employees.idsOf(em, wanted);
    for (const n of wanted) {
      const employeeId = ids.get(n);
      if (employeeId === undefined) continue;
      const holder = await em.findOne(User, { where: { employeeId }, select: { id: true } });
      if (!holder || holder.id === userId) return employeeId;
    }
    return null;
  }
}
