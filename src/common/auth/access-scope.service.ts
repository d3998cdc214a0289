import { Injectable } from '@nestjs/common';
import { NotFoundException } from '../errors/domain.exception';
import { AuthUser } from './auth-user';

/** What the scope rules need to know of an employee record. */
export interface EmployeeRef {
  id: number;
  departmentId: number | null;
  supervisorId: number | null;
}

/** The employees a caller may see (API.md §5). */
export type EmployeeScope =
  | { kind: 'all' }
  /** Restricted Admin: assigned departments with all their descendants. */
  | { kind: 'departments'; departmentIds: number[] }
  /** Manager: itself and its direct reports (lists show only the reports). */
  | { kind: 'team'; selfId: number }
  | { kind: 'self'; selfId: number }
  /** A non-admin user without a linked employee sees nobody. */
  | { kind: 'none' };

/** Expands department ids to their subtrees; provided by the Employees module's department tree. */
export interface DepartmentTree {
  subtree(rootIds: number[]): Promise<number[]>;
}

/** Fields an Employee (and a Manager, on its own record) may change (API.md §5). */
export const PERSONAL_FIELDS: readonly string[] = [
  'first_name',
  'middle_name',
  'last_name',
  'marital_status',
  'address1',
  'address2',
  'city',
  'country',
  'province',
  'postal_code',
  'home_phone',
  'mobile_phone',
  'work_phone',
  'private_email',
];

export interface ListCondition {
  /** SQL for a WHERE clause, or null for no restriction. */
  sql: string | null;
  params: Record<string, unknown>;
}

/**
 * The one answer to "can this caller see / change employee N", used by every module that serves
 * employee data. Out of scope is reported as NOT_FOUND, exactly like a missing record.
 */
@Injectable()
export class AccessScopeService {
  private tree: DepartmentTree = { subtree: async (ids) => ids };

  /** The Employees module registers the real department tree at start. */
  useDepartmentTree(tree: DepartmentTree): void {
    this.tree = tree;
  }

  async scopeOf(caller: AuthUser): Promise<EmployeeScope> {
    switch (caller.level) {
      case 'Admin':
        return { kind: 'all' };
      case 'Restricted Admin':
        return {
          kind: 'departments',
          departmentIds: caller.departmentIds.length ? await this.tree.subtree(caller.departmentIds) : [],
        };
      case 'Manager':
        return caller.employeeId === null ? { kind: 'none' } : { kind: 'team', selfId: caller.employeeId };
      case 'Employee':
        return caller.employeeId === null ? { kind: 'none' } : { kind: 'self', selfId: caller.employeeId };
    }
  }

  canSee(scope: EmployeeScope, employee: EmployeeRef): boolean {
    switch (scope.kind) {
      case 'all':
        return true;
      case 'departments':
        return employee.departmentId !== null && scope.departmentIds.includes(employee.departmentId);
      case 'team':
        return employee.id === scope.selfId || employee.supervisorId === scope.selfId;
      case 'self':
        return employee.id === scope.selfId;
      case 'none':
        return false;
    }
  }

  /** An Admin, or a Restricted Admin whose departments hold the employee: may act on its records as an administrator. */
  async administers(caller: AuthUser, employee: EmployeeRef): Promise<boolean> {
    const scope = await this.scopeOf(caller);
    return scope.kind === 'all' || (scope.kind === 'departments' && this.canSee(scope, employee));
  }

  /** Throws NOT_FOUND unless the employee exists and is in scope. */
  assertVisible(scope: EmployeeScope, employee: EmployeeRef | null): asserts employee is EmployeeRef {
    if (!employee || !this.canSee(scope, employee)) throw new NotFoundException('Employee');
  }

  /** Fields of `fields` the caller may not change on this (visible) employee. */
  forbiddenFields(scope: EmployeeScope, employee: EmployeeRef, fields: string[]): string[] {
    switch (scope.kind) {
      case 'all':
      case 'departments':
        return this.canSee(scope, employee) ? [] : fields;
      case 'team':
      case 'self':
        return employee.id === scope.selfId ? fields.filter((f) => !PERSONAL_FIELDS.includes(f)) : fields;
      case 'none':
        return fields;
    }
  }

  /** Whether the caller may set the employee's status message (its own, or a Manager's direct report's). */
  canSetStatusMessage(scope: EmployeeScope, employee: EmployeeRef): boolean {
    return this.canSee(scope, employee);
  }

  /**
   * The WHERE condition for employee lists, over the given column expressions. A Manager's list
   * holds its direct reports only; an Employee's list is empty (API.md §5).
   */
  listCondition(scope: EmployeeScope, columns: { id: string; department: string; supervisor: string }): ListCondition {
    switch (scope.kind) {
      case 'all':
        return { sql: null, params: {} };
      case 'departments':
        return scope.departmentIds.length
          ? { sql: `${columns.department} IN (:...scopeDepartments)`, params: { scopeDepartments: scope.departmentIds } }
          : { sql: '1 = 0', params: {} };
      case 'team':
        return { sql: `${columns.supervisor} = :scopeSelf`, params: { scopeSelf: scope.selfId } };
      case 'self':
      case 'none':
        return { sql: '1 = 0', params: {} };
    }
  }

  /**
   * The WHERE condition for lists of employee-owned records (attendance, leave, timesheets): the
   * employees the caller can see, its own records included (a Manager: itself and its direct reports;
   * an Employee: itself), unlike the employee list.
   */
  recordsCondition(scope: EmployeeScope, columns: { id: string; department: string; supervisor: string }): ListCondition {
    switch (scope.kind) {
      case 'team':
        return {
          sql: `(${columns.supervisor} = :scopeSelf OR ${columns.id} = :scopeSelf)`,
          params: { scopeSelf: scope.selfId },
        };
      case 'self':
        return { sql: `${columns.id} = :scopeSelf`, params: { scopeSelf: scope.selfId } };
      case 'all':
      case 'departments':
      case 'none':
        return this.listCondition(scope, columns);
    }
  }
}
