import { byIdReader } from '../../common/database/by-id-reader';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { UserLevel } from '../../common/auth/user-level';
import { DomainException, NotFoundException } from '../../common/errors/domain.exception';
import { ReferenceService } from '../../reference/reference.service';
import { Employee } from '../entities/employee.entity';

/** What the scope rules need to know of an employee record. */
export interface EmployeeRef {
  id: number;
  departmentId: number | null;
  supervisorId: number | null;
}

/** An employee with the people who decide its leave and time entries. */
export type DecisionSubject = EmployeeRef & Pick<Employee, 'approver1Id' | 'approver2Id' | 'approver3Id'>;

/** The employees a caller may see (docs/api/decisions.md §5). */
export type EmployeeScope =
  | { kind: 'all' }
  /** Restricted Admin: assigned departments with all their descendants. */
  | { kind: 'departments'; departmentIds: number[] }
  /** Manager: itself and its direct reports (the employee list shows only the reports). */
  | { kind: 'team'; selfId: number }
  | { kind: 'self'; selfId: number }
  /** A non-admin user without a linked employee sees nobody. */
  | { kind: 'none' };

/** Expands department ids to their subtrees (the Reference module's department tree). */
export interface DepartmentTree {
  subtree(rootIds: number[]): Promise<number[]>;
}

/** Fields an Employee (and a Manager, on its own record) may change (docs/api/decisions.md §5). */
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

export function employeeRef(e: EmployeeRef): EmployeeRef {
  return { id: e.id, departmentId: e.departmentId, supervisorId: e.supervisorId };
}

/** Whether the caller's employee is the employee's supervisor or one of its approvers (leave, timesheets). */
export function isApproverOf(caller: AuthUser, e: Omit<DecisionSubject, 'id' | 'departmentId'>): boolean {
  return caller.employeeId !== null && [e.supervisorId, e.approver1Id, e.approver2Id, e.approver3Id].includes(caller.employeeId);
}

/**
 * The one answer to "may this caller see or change employee N", used by every module that serves
 * employee data. Out of scope is reported as NOT_FOUND, exactly like a missing record. A Restricted
 * Admin's department subtree is computed once per request (the guard gives each request its own
 * AuthUser object, which keys the cache).
 */
@Injectable()
export class EmployeeAccessService {
  private readonly scopes = new WeakMap<AuthUser, Promise<EmployeeScope>>();
  /** The employee by id, SQL built once (the hot read of every /employees/{id}/... route). */
  private readonly employeeById: (id: number) => Promise<Employee | null>;

  constructor(
    @InjectRepository(Employee) private readonly employees: Repository<Employee>,
    @Inject(ReferenceService) private readonly tree: DepartmentTree,
  ) {
    this.employeeById = byIdReader(employees);
  }

  /** The employee row, or null; no scope check (the caller's own record, say). */
  employee(id: number): Promise<Employee | null> {
    return this.employeeById(id);
  }

  scopeOf(caller: AuthUser): Promise<EmployeeScope> {
    let scope = this.scopes.get(caller);
    if (!scope) {
      scope = this.computeScope(caller);
      this.scopes.set(caller, scope);
      scope.catch(() => this.scopes.delete(caller));
    }
    return scope;
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

  /** `administers` for an employee id: false when it does not exist or lies outside the caller's administration. */
  async administersId(caller: AuthUser, employeeId: number): Promise<boolean> {
    const scope = await this.scopeOf(caller);
    if (scope.kind !== 'all' && scope.kind !== 'departments') return false;
    const e = await this.employees.findOne({
      where: { id: employeeId },
      select: { id: true, departmentId: true, supervisorId: true },
    });
    return !!e && this.canSee(scope, e);
  }

  /** The employee if the caller may see it, else NOT_FOUND (missing and out of scope look alike). */
  async visible(caller: AuthUser, id: number): Promise<{ employee: Employee; scope: EmployeeScope }> {
    const scope = await this.scopeOf(caller);
    const employee = await this.employeeById(id);
    if (!employee || !this.canSee(scope, employee)) throw new NotFoundException('Employee');
    return { employee, scope };
  }

  /** Whether an existing employee is within the caller's scope (references to employees outside it look missing). */
  async referable(caller: AuthUser | EmployeeScope, id: number): Promise<boolean> {
    const scope = 'kind' in caller ? caller : await this.scopeOf(caller);
    const other = await this.employees.findOne({ where: { id }, select: { id: true, departmentId: true, supervisorId: true } });
    return !!other && this.canSee(scope, other);
  }

  /**
   * Whose record a request creates: the caller's own employee, or the one it names when its level
   * is among `levels` and it can see that employee (404 otherwise, 403 for a level not allowed).
   */
  async subjectOf(caller: AuthUser, employee: number | undefined, levels: readonly UserLevel[]): Promise<number> {
    if (employee === undefined || employee === caller.employeeId) {
      if (caller.employeeId === null)
        throw new DomainException('NOT_FOUND', 'No employee record is linked to your user: pass employee');
      return caller.employeeId;
    }
    await this.visible(caller, employee);
    if (!levels.includes(caller.level)) throw new DomainException('FORBIDDEN', 'You may act for yourself only');
    return employee;
  }

  /**
   * The employee owning a record that needs a decision (leave, timesheets): visible to whoever can
   * see the employee and to its supervisor and approvers; null for everybody else (answer 404).
   */
  async forDecision(caller: AuthUser, employeeId: number): Promise<DecisionSubject | null> {
    const employee = await this.employees.findOne({ where: { id: employeeId } });
    if (!employee) return null;
    const visible = this.canSee(await this.scopeOf(caller), employee);
    return visible || isApproverOf(caller, employee) ? employee : null;
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

  /**
   * 403 FIELD_NOT_ALLOWED naming the fields of `fields` the caller may not change on this
   * (visible) employee, and `department` when a Restricted Admin would move it to a department
   * outside its scope (`department`: the new one, when the change sets it), and `extra` (fields
   * the caller checked itself, such as a salary).
   */
  assertMayChange(
    scope: EmployeeScope,
    employee: EmployeeRef,
    fields: string[],
    move?: { department: number | null },
    extra: string[] = [],
  ): void {
    const forbidden = [...this.forbiddenFields(scope, employee, fields), ...extra];
    if (scope.kind === 'departments' && move && (move.department === null || !scope.departmentIds.includes(move.department)))
      forbidden.push('department');
    const names = [...new Set(forbidden)];
    if (names.length)
      throw new DomainException(
        'FIELD_NOT_ALLOWED',
        `You may not change ${names.join(', ')}`,
        names.map((field) => ({ field, message: 'may not be changed by you' })),
      );
  }

  /** Whether the caller may set the employee's status message (its own, or a Manager's direct report's). */
  canSetStatusMessage(scope: EmployeeScope, employee: EmployeeRef): boolean {
    return this.canSee(scope, employee);
  }

  private async computeScope(caller: AuthUser): Promise<EmployeeScope> {
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
}
