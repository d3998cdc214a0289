import { INestApplicationContext } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TokenService } from '../../auth/token.service';
import { Employee } from '../../employees/entities/employee.entity';
import { Department } from '../../reference/entities/reference.entities';
import { SettingsService } from '../../settings/settings.service';
import { COMPANY_NAME, ENABLE_REST_API } from '../../settings/settings.registry';
import { UserLevel } from '../../common/auth/user-level';
import { User } from '../../users/entities/user.entity';
import { UsersService } from '../../users/users.service';
import { seedDemoImports } from './demo-imports';
import { seedDemoDocuments } from './demo-documents';
import { asCaller, seedDemoNotifications } from './demo-notifications';
import { seedDemoApprovals } from './demo-approvals';
import { seedDemoBooks } from './demo-books';
import { seedDemoIdentity } from './demo-identity';
import { seedDemoChecklists } from './demo-checklists';
import { seedDemoPrivacy } from './demo-privacy';
import { DEMO_EMPLOYEE_EMPLOYEE, DEMO_MANAGER_EMPLOYEE, DEMO_RESTRICTED_DEPARTMENT, seedDemoCompany } from './demo-company';

export interface DemoCredentials {
  username: string;
  /** Set only when the user was created by this run: a password is shown once. */
  password: string | null;
  level: string;
}

export interface DemoSeedResult {
  users: DemoCredentials[];
  accessToken: string;
  /** A SCIM token for /scim/v2, on the run that made it; null after. */
  scimToken: string | null;
}

export const DEMO_ADMIN = { username: 'admin', email: 'admin@demo.example' };

/**
 * The demo company: settings, reference data, 60 employees (62 with last month’s joiner and next week's), and an Admin, a Manager, an Employee
 * and a Restricted Admin user; document types and the documents of twelve employees (some
 * expiring within the month); a dry run of an import of three new hires; retention policies for
 * every category and two alumni who left years ago (what the retention preview shows); a few notifications (a
 * leave request for the manager, its approval and a task for the employee); a SCIM group "HR Admins"
 * mapped to Restricted Admin and a SCIM token. Idempotent: a second
 * run keeps existing data and prints no password again.
 */
export async function seedDemo(app: INestApplicationContext): Promise<DemoSeedResult> {
  const users = app.get(UsersService);
  const settings = app.get(SettingsService);
  const tokens = app.get(TokenService);
  const ds = app.get(DataSource);

  await settings.set(ENABLE_REST_API, 'Yes');
  await settings.set(COMPANY_NAME, 'Demo Company');
  const employeeId = async (code: string) => (await ds.getRepository(Employee).findOneOrFail({ where: { employeeId: code } })).id;
  const specs: Array<{ username: string; level: UserLevel; employee?: string; department?: string }> = [
    { username: DEMO_ADMIN.username, level: 'Admin' },
    { username: 'manager', level: 'Manager', employee: DEMO_MANAGER_EMPLOYEE },
    { username: 'employee', level: 'Employee', employee: DEMO_EMPLOYEE_EMPLOYEE },
    { username: 'hradmin', level: 'Restricted Admin', department: DEMO_RESTRICTED_DEPARTMENT },
  ];
  const result: DemoCredentials[] = [];
  const ensure = async (spec: (typeof specs)[number]): Promise<User> => {
    let user = await users.findByUsername(spec.username);
    let password: string | null = null;
    if (!user) {
      password = randomBytes(12).toString('base64url');
      const department = spec.department
        ? await ds.getRepository(Department).findOneOrFail({ where: { name: spec.department } })
        : null;
      user = await users.create({
        username: spec.username,
        email: spec.username === DEMO_ADMIN.username ? DEMO_ADMIN.email : `${spec.username}@demo.example`,
        password,
        level: spec.level,
        employeeId: spec.employee ? await employeeId(spec.employee) : null,
        departmentIds: department ? [department.id] : [],
      });
    }
    result.push({ username: user.username, password, level: spec.level });
    return user;
  };
  // The Admin first: the company is seeded as it, so its history, runs and audit name a real user.
  const admin = await ensure(specs[0]);
  await seedDemoCompany(app, asCaller(admin));
  await seedDemoBooks(app);
  await seedDemoDocuments(app);
  for (const spec of specs.slice(1)) await ensure(spec);
  await seedDemoChecklists(app, asCaller(admin)); // after the users: the manager holds its joiner's items
  await seedDemoImports(app, admin);
  await seedDemoPrivacy(app, asCaller(admin)); // before the notifications, whose seed relays every event recorded
  const byName = async (username: string) => (await users.findByUsername(username)) as User;
  await seedDemoApprovals(app, { admin: admin, manager: await byName('manager') });
  await seedDemoNotifications(app, {
    admin: admin,
    manager: await byName('manager'),
    employee: await byName('employee'),
  });
  const scimToken = await seedDemoIdentity(app, await byName('hradmin'));
  const issued = await tokens.issue(admin, { accessTtlSec: 12 * 3600 });
  return { users: result, accessToken: issued.access_token, scimToken };
}
