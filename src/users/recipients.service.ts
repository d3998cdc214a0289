import { Injectable } from '@nestjs/common';
import { RecipientRule } from '../common/outbox/reactions';
import { EmployeeFactsService } from '../employees/employee-facts.service';
import { ReferenceService } from '../reference/reference.service';
import { UsersService } from './users.service';

/**
 * The recipient rules (common/outbox/reactions.ts RecipientRule) resolved to active users (issue
 * 42): written once, for the notifications and tasks every module's reactions and reminders name.
 */
@Injectable()
export class Recipients {
  constructor(
    private readonly users: UsersService,
    private readonly employees: EmployeeFactsService,
    private readonly reference: ReferenceService,
  ) {}

  /** A resolver that reads each rule once however often it is named (a day's reminders name the same HR many times). */
  resolver(): (rules: readonly RecipientRule[]) => Promise<number[]> {
    const seen = new Map<string, Promise<number[]>>();
    const one = (rule: RecipientRule) => {
      const key = JSON.stringify(rule);
      let found = seen.get(key);
      if (!found) seen.set(key, (found = this.one(rule)));
      return found;
    };
    return async (rules) => [...new Set((await Promise.all(rules.map(one))).flat())];
  }

  private async one(rule: RecipientRule): Promise<number[]> {
    if ('users' in rule) return rule.users;
    if ('usersOf' in rule) return (await this.users.usersOfEmployees([rule.usersOf])).map((u) => u.user);
    if ('approversOf' in rule) return this.users.approverUsersOf(rule.approversOf);
    if ('admins' in rule) return this.users.adminIds();
    const department = 'hrOf' in rule ? await this.employees.departmentOf(rule.hrOf) : rule.hrOfDepartment;
    return this.users.administratorsOf(department === null ? [] : await this.reference.ancestors(department));
  }
}
