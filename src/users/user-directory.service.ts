import { Global, Injectable, Module } from '@nestjs/common';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsNull, Not, Repository } from 'typeorm';
import { DirectoryUser, USER_DIRECTORY, UserDirectory } from '../auth/user-directory';
import { CompanyClock } from '../common/time/company-clock';
import { addDays } from '../common/time/days';
import { UserDepartment } from './entities/user-department.entity';
import { User } from './entities/user.entity';

/** An employee's termination date, if it has one (the Users module reads it from the employees at start). */
export type LeavingDateReader = (employeeId: number) => Promise<string | null>;

/**
 * The users as authentication sees them (auth/user-directory.ts). A user whose employee's
 * termination date has come is not active from the first moment of that day (the company's),
 * whether or not the employment job has deactivated it yet; the last active Admin stays active, as
 * the job leaves it (docs/api/checklists.md, "A leaver's access").
 */
@Injectable()
export class UserDirectoryService implements UserDirectory {
  private leavingDate: LeavingDateReader = () => Promise.resolve(null);

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(UserDepartment) private readonly departments: Repository<UserDepartment>,
    private readonly clock: CompanyClock,
  ) {}

  /** How a linked employee's termination date is read. */
  readLeavingDatesWith(reader: LeavingDateReader): void {
    this.leavingDate = reader;
  }

  async findByLogin(login: string): Promise<DirectoryUser | null> {
    return this.effective(
      await this.users.findOne({ where: login.includes('@') ? [{ email: login }, { username: login }] : { username: login } }),
    );
  }

  async findById(id: number): Promise<DirectoryUser | null> {
    return this.effective(await this.users.findOne({ where: { id } }));
  }

  async findForSignOn(subject: string, objectId: string | null, verifiedEmail: string | null): Promise<DirectoryUser | null> {
    const linked = await this.users.findOne({ where: { oidcSubject: subject } });
    if (linked) return this.effective(linked);
    if (objectId) {
      // Only an unambiguous externalId names someone (SCIM does not keep them unique).
      const byObject = await this.users.find({ where: { externalId: objectId, oidcSubject: IsNull() }, take: 2 });
      if (byObject.length === 1) return this.effective(byObject[0]);
    }
    // A user linked to another subject is not taken over by a matching e-mail.
    return verifiedEmail
      ? this.effective(await this.users.findOne({ where: { email: verifiedEmail, oidcSubject: IsNull() } }))
      : null;
  }

  /** The user as sign-in sees it: inactive once its employee's termination date has come. */
  private async effective(user: User | null): Promise<DirectoryUser | null> {
    if (!user || !user.active || user.employeeId === null) return user;
    const leaves = await this.leavingDate(user.employeeId);
    if (!leaves) return user;
    const today = await this.clock.today();
    const leavesSoon = leaves <= addDays(today, 1);
    if (leaves > today) return { ...user, leavesSoon };
    const otherAdmins =
      user.userLevel === 'Admin' && (await this.users.exists({ where: { userLevel: 'Admin', active: true, id: Not(user.id) } }));
    return { ...user, leavesSoon, active: user.userLevel === 'Admin' && !otherAdmins };
  }

  async linkSubject(userId: number, subject: string): Promise<void> {
    await this.users.update({ id: userId }, { oidcSubject: subject });
  }

  async departmentsOf(userId: number): Promise<number[]> {
    return (await this.departments.find({ where: { userId } })).map((d) => d.departmentId);
  }

  async replacePasswordHash(userId: number, expected: string, next: string): Promise<void> {
    await this.users.update({ id: userId, passwordHash: expected }, { passwordHash: next });
  }
}

/**
 * Global, so that the Auth module's token service can use the directory without importing the
 * Users module (which imports the Auth module).
 */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([User, UserDepartment])],
  providers: [UserDirectoryService, { provide: USER_DIRECTORY, useExisting: UserDirectoryService }],
  exports: [USER_DIRECTORY, UserDirectoryService],
})
export class UserDirectoryModule {}
