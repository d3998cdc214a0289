import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager, In, Not, Repository } from 'typeorm';
import { TokenService } from '../auth/token.service';
import { isUniqueViolation } from '../common/errors/db-errors';
import { DomainException, NotFoundException, ValidationException } from '../common/errors/domain.exception';
import { ListSpec, parseListQuery, findTablePage } from '../common/paging/list-request';
import { SearchableListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { EmployeesService } from '../employees/employees.service';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { ReferenceService } from '../reference/reference.service';
import { CreateUserForEmployeeDto, CreateUserResponseDto, UpdateUserDto, UserDto } from './dto/user-account.dto';
import { UserDepartment } from './entities/user-department.entity';
import { USER_LEVELS, UserLevel } from '../common/auth/user-level';
import { User } from './entities/user.entity';
import { assertAdminsRemain } from './last-admin';
import { userAuditView, UsersService } from './users.service';
import { UserDirectoryService } from './user-directory.service';
import { WelcomeMailService } from './welcome-mail.service';
import { SET_REPLACEMENT, transaction } from '../common/database/transaction';
import { recordAudit } from '../common/audit/audit-log';

export const USER_LIST_SPEC: ListSpec = {
  idColumn: 'u.id',
  updatedAt: 'u.updated_at',
  sortFields: { id: 'u.id', username: 'u.username', email: 'u.email', user_level: 'u.user_level' },
  filterFields: {
    user_level: { column: 'u.user_level', type: 'string', values: USER_LEVELS },
    active: { column: 'u.active', type: 'boolean' },
    employee: { column: 'u.employee_id', type: 'int' },
  },
  searchColumns: ['u.username', 'u.email'],
};

/** Levels that act for an employee of their own need one (the seed: all but Admin and Restricted Admin). */
const NEEDS_EMPLOYEE: readonly UserLevel[] = ['Manager', 'Employee'];

/** Login users: create-user for an employee with its welcome e-mail, and the Admin users API. */
@Injectable()
export class UserAccountsService implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(UserDepartment) private readonly userDepartmentRepo: Repository<UserDepartment>,
    @InjectRepository(User) private readonly userRepo: Repository<User>,
    private readonly users: UsersService,
    private readonly welcome: WelcomeMailService,
    private readonly tokens: TokenService,
    private readonly employees: EmployeesService,
    private readonly reference: ReferenceService,
    private readonly directory: UserDirectoryService,
    private readonly facts: EmployeeFactsService,
  ) {}

  onModuleInit(): void {
    this.employees.onRemove((em, employeeId) => this.detachEmployee(em, employeeId));
    this.employees.onTermination((em, employeeId) => this.deactivateLeaver(em, employeeId));
    this.directory.readLeavingDatesWith((employeeId) => this.facts.terminationDateOf(employeeId));
  }

  /**
   * An employee's termination took effect (issue 43): its users are deactivated in the same
   * transaction, their tokens end after the commit. The last active Admin stays active (the
   * company would be locked out); the audit log shows the termination and no deactivation.
   */
  private async deactivateLeaver(em: EntityManager, employeeId: number): Promise<(() => Promise<void>) | void> {
    const linked = await em.find(User, { where: { employeeId, active: true }, select: { id: true } });
    if (!linked.length) return;
    let userIds = linked.map((u) => u.id);
    try {
      await assertAdminsRemain(em, userIds);
    } catch {
      const admins = await em.find(User, { where: { id: In(userIds), userLevel: 'Admin' }, select: { id: true } });
      userIds = userIds.filter((id) => !admins.some((a) => a.id === id));
      if (!userIds.length) return;
    }
    await em.update(User, { id: In(userIds) }, { active: false });
    for (const id of userIds)
      await recordAudit(em, {
        action: 'update',
        resource: 'users',
        resourceId: id,
        employee: employeeId,
        before: { active: true },
        after: { active: false },
      });
    return async () => {
      for (const id of userIds) await this.tokens.revokeUserTokens(id);
    };
  }

  /**
   * An employee is being deleted: its users are deactivated and unlinked in the same transaction
   * (409 LAST_ADMIN when that leaves no active Admin), and their tokens end after the commit.
   */
  private async detachEmployee(em: EntityManager, employeeId: number): Promise<(() => Promise<void>) | void> {
    const linked = await em.find(User, { where: { employeeId }, select: { id: true, active: true } });
    if (!linked.length) return;
    const userIds = linked.map((u) => u.id);
    await assertAdminsRemain(em, userIds);
    await em.update(User, { id: In(userIds) }, { active: false, employeeId: null });
    for (const u of linked)
      await recordAudit(em, {
        action: 'update',
        resource: 'users',
        resourceId: u.id,
        employee: employeeId,
        before: { active: u.active, employee: employeeId },
        after: { active: false, employee: null },
      });
    return async () => {
      for (const id of userIds) await this.tokens.revokeUserTokens(id);
    };
  }

  /**
   * Creates the employee's login user with an unusable password and `must_change_password`; the
   * welcome job makes the temporary password and e-mails it. The caller has checked the employee exists.
   */
  async createForEmployee(employeeId: number, dto: CreateUserForEmployeeDto): Promise<CreateUserResponseDto> {
    if (await this.userRepo.exists({ where: { employeeId } })) {
      throw new DomainException('USER_EXISTS', `Employee ${employeeId} already has a user`);
    }
    const level = dto.user_level ?? 'Employee';
    const user = await this.users
      .create({
        username: dto.username,
        email: dto.email,
        // Nobody ever learns this one: the welcome job replaces it with the e-mailed temporary password.
        password: randomBytes(32).toString('base64url'),
        level,
        employeeId,
        mustChangePassword: true,
        passwordTask: true,
        userRoles: dto.user_roles ?? [],
        lang: dto.lang ?? null,
        defaultModule: dto.default_module ?? null,
        welcomeEmailStatus: this.welcome.enabled ? 'pending' : 'none',
        // The welcome e-mail is queued with the user: both or neither.
        inTransaction: (em, made) => this.welcome.queue(em, made.id),
      })
      .catch(async (err: unknown) => {
        // Another request linked a user to this employee between the check and the insert.
        if (isUniqueViolation(err) && (await this.userRepo.exists({ where: { employeeId } }))) {
          throw new DomainException('USER_EXISTS', `Employee ${employeeId} already has a user`);
        }
        throw err;
      });
    const emailStatus = await this.welcome.send(user.id);
    return {
      user: { id: user.id, username: user.username, email: user.email, user_level: level, employee: String(employeeId) },
      email_status: emailStatus,
    };
  }

  async list(query: SearchableListQueryDto): Promise<Page<UserDto>> {
    const page = await findTablePage(this.userRepo, 'u', parseListQuery(query, USER_LIST_SPEC));
    const departments = await this.departmentsOf(page.items.map((u) => u.id));
    return page.map((u) => this.toDto(u, departments.get(u.id) ?? []));
  }

  async get(id: number): Promise<UserDto> {
    const user = await this.find(id);
    return this.toDto(user, (await this.departmentsOf([id])).get(id) ?? []);
  }

  async update(id: number, dto: UpdateUserDto): Promise<UserDto> {
    const user = await this.find(id);
    const level = dto.user_level ?? user.userLevel;
    const active = dto.active ?? user.active;
    if (NEEDS_EMPLOYEE.includes(level) && user.employeeId === null) {
      throw ValidationException.field('user_level', `${level} needs a linked employee; this user has none`);
    }
    // An empty list is what GET returns for other levels: sent back, it is no change (issue 41).
    if (dto.departments?.length && level !== 'Restricted Admin') {
      throw ValidationException.field('departments', 'applies to a Restricted Admin only');
    }
    if (dto.departments?.length) {
      const found = await this.reference.countExisting('departments', dto.departments);
      if (found !== new Set(dto.departments).size)
        throw ValidationException.field('departments', 'names a department that does not exist');
    }
    if (dto.email && dto.email.toLowerCase() !== user.email) {
      if (await this.userRepo.exists({ where: { email: dto.email.toLowerCase(), id: Not(id) } })) {
        throw new DomainException('EMAIL_TAKEN', 'E-mail is already taken');
      }
    }
    const before = await this.viewBefore(user);
    await transaction(
      this.dataSource,
      async (em) => {
        if (level !== 'Admin' || !active) await assertAdminsRemain(em, [id]);
        await em.update(
          User,
          { id },
          {
            ...(dto.email ? { email: dto.email.toLowerCase() } : {}),
            userLevel: level,
            active,
            ...(dto.user_roles ? { userRoles: dto.user_roles } : {}),
            ...(dto.lang !== undefined ? { lang: dto.lang } : {}),
            ...(dto.default_module !== undefined ? { defaultModule: dto.default_module } : {}),
          },
        );
        // Leaving Restricted Admin drops its scope; a new department list replaces the old one.
        if (dto.departments || level !== 'Restricted Admin')
          await this.replaceDepartments(em, id, level === 'Restricted Admin' ? (dto.departments ?? []) : []);
        await recordAudit(em, {
          action: 'update',
          resource: 'users',
          resourceId: id,
          employee: user.employeeId,
          before,
          after: await this.auditView(em, id),
        });
        // The user's row is locked by its UPDATE first; its departments are a set replaced without gap locks.
      },
      SET_REPLACEMENT,
    );
    if (!active) await this.tokens.revokeUserTokens(id);
    else await this.tokens.forgetUser(id); // level, scope or flags changed: cached tokens must be re-read
    return this.get(id);
  }

  /** Deletes the user; its tokens, scope and idempotency keys go with it (foreign keys cascade). */
  async remove(id: number): Promise<{ id: number }> {
    const user = await this.find(id);
    const before = await this.viewBefore(user);
    await transaction(this.dataSource, async (em) => {
      await assertAdminsRemain(em, [id]);
      await em.delete(User, { id });
      await recordAudit(em, {
        action: 'delete',
        resource: 'users',
        event: 'user.deleted',
        resourceId: id,
        employee: user.employeeId,
        before,
      });
    });
    await this.tokens.forgetUser(id);
    return { id };
  }

  /** The user as the audit log records it, before a write (its departments read now). */
  private async viewBefore(user: User): Promise<Record<string, unknown>> {
    return userAuditView(user, (await this.departmentsOf([user.id])).get(user.id) ?? []);
  }

  /** The user as the audit log records it, read in the transaction `em`. */
  private async auditView(em: EntityManager, id: number): Promise<Record<string, unknown>> {
    const user = await em.findOneOrFail(User, { where: { id } });
    const departments = await em.find(UserDepartment, { where: { userId: id }, order: { departmentId: 'ASC' } });
    return userAuditView(
      user,
      departments.map((d) => d.departmentId),
    );
  }

  private async replaceDepartments(em: EntityManager, userId: number, departments: number[]): Promise<void> {
    await em.delete(UserDepartment, { userId });
    if (departments.length)
      await em.insert(
        UserDepartment,
        [...new Set(departments)].map((departmentId) => ({ userId, departmentId })),
      );
  }

  private async find(id: number): Promise<User> {
    const user = await this.userRepo.findOne({ where: { id } });
    if (!user) throw new NotFoundException('User');
    return user;
  }

  /** Departments of many users in one query. */
  private async departmentsOf(userIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (!userIds.length) return map;
    const rows = await this.userDepartmentRepo.find({ where: { userId: In(userIds) }, order: { departmentId: 'ASC' } });
    for (const r of rows) map.set(r.userId, [...(map.get(r.userId) ?? []), r.departmentId]);
    return map;
  }

  private toDto(u: User, departments: number[]): UserDto {
    return {
      id: u.id,
      username: u.username,
      email: u.email,
      user_level: u.userLevel,
      employee: u.employeeId === null ? null : String(u.employeeId),
      active: u.active,
      departments,
      user_roles: u.userRoles ?? [],
      lang: u.lang,
      default_module: u.defaultModule,
      welcome_email_status: u.welcomeEmailStatus,
    };
  }
}
