import { Global, Injectable, Module } from '@nestjs/common';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { DirectoryUser, USER_DIRECTORY, UserDirectory } from '../auth/user-directory';
import { UserDepartment } from './entities/user-department.entity';
import { User } from './entities/user.entity';

/** The users as authentication sees them (auth/user-directory.ts). */
@Injectable()
export class UserDirectoryService implements UserDirectory {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(UserDepartment) private readonly departments: Repository<UserDepartment>,
  ) {}

  findByLogin(login: string): Promise<DirectoryUser | null> {
    return this.users.findOne({ where: login.includes('@') ? [{ email: login }, { username: login }] : { username: login } });
  }

  findById(id: number): Promise<DirectoryUser | null> {
    return this.users.findOne({ where: { id } });
  }

  async findForSignOn(subject: string, objectId: string | null, verifiedEmail: string | null): Promise<DirectoryUser | null> {
    const linked = await this.users.findOne({ where: { oidcSubject: subject } });
    if (linked) return linked;
    if (objectId) {
      // Only an unambiguous externalId names someone (SCIM does not keep them unique).
      const byObject = await this.users.find({ where: { externalId: objectId, oidcSubject: IsNull() }, take: 2 });
      if (byObject.length === 1) return byObject[0];
    }
    // A user linked to another subject is not taken over by a matching e-mail.
    return verifiedEmail ? this.users.findOne({ where: { email: verifiedEmail, oidcSubject: IsNull() } }) : null;
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
  providers: [{ provide: USER_DIRECTORY, useClass: UserDirectoryService }],
  exports: [USER_DIRECTORY],
})
export class UserDirectoryModule {}
