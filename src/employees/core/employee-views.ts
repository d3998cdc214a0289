import { bodyEtag } from '../../common/http/body-etag';
import { successEnvelope } from '../../common/envelope/envelope.hook';
import { DepartmentMove } from '../../common/database/day-rollup';
import { EntityManager } from 'typeorm';
import { CurrentEmployeeDto, EmployeeListItemDto } from '../dto/employee.dto';
import { EMPLOYEE_FIELDS } from './employee-fields';
import { Employee } from '../entities/employee.entity';

/** A row of LIST_SOURCE: integer and text columns, which both drivers return as numbers and strings. */
export function toListItem(row: unknown[]): EmployeeListItemDto {
  const [id, employeeId, firstName, lastName, workEmail, jobTitle, department, status] = row as [
    number,
    string,
    string,
    string,
    string | null,
    number | null,
    number | null,
    EmployeeListItemDto['status'],
  ];
  return {
    id,
    employee_id: employeeId,
    first_name: firstName,
    last_name: lastName,
    work_email: workEmail,
    job_title: jobTitle,
    department,
    status,
  };
}

/**
 * Work another module does when an employee is deleted, inside the deleting transaction (throw to
 * refuse the deletion); it may return work to run after the commit.
 */
export type EmployeeRemovalHook = (em: EntityManager, employeeId: number) => Promise<(() => Promise<void>) | void>;
/**
 * What another module does, in the same transaction, when a rewrite of an employee's history
 * changes the department of some days (the insights rollups move those days' records).
 */
export type DepartmentChangeHook = (em: EntityManager, employeeId: number, moves: DepartmentMove[]) => Promise<void>;

/**
 * What another module does, in the same transaction, when an employee's termination takes effect
 * (the Users module deactivates its user); it may return work to run after the commit.
 */
export type TerminationHook = (em: EntityManager, employeeId: number) => Promise<(() => Promise<void>) | void>;

/** An employee as the audit log records it: API field names, stored values (nationality by id). */
export function auditView(e: Employee): Record<string, unknown> {
  return Object.fromEntries(EMPLOYEE_FIELDS.map((f) => [f.byName ? `${f.api}_id` : f.api, e[f.prop] ?? null]));
}

/** GET /employees/me: the caller's own employee record, briefly. */
export function toCurrentEmployee(e: Employee): CurrentEmployeeDto {
  return {
    id: e.id,
    employee_id: e.employeeId,
    first_name: e.firstName,
    last_name: e.lastName,
    work_email: e.workEmail,
    department: e.departmentId,
    supervisor: e.supervisorId,
  };
}

/**
 * The ETag of an employee as GET /employees/{id} shows it: the digest of that response's body (the
 * envelope as sent, see etagFromBody), so any change of a field changes it.
 */
export function etagOf(view: object): string {
  return bodyEtag(JSON.stringify(successEnvelope(view)));
}
