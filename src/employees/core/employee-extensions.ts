import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { Condition, KeyedOrder } from '../../common/paging/list-request';
import { EmployeeScope } from './employee-access.service';

/** Who reads an employee's extension property: a caller (with its scope), or the system (audit, events: everything). */
export type ExtensionReader = { caller: AuthUser; scope: EmployeeScope } | null;

/** What one write of an extension property will do, checked before the employee's transaction. */
export interface ExtensionWrite {
  /** Names of what the body changes (`custom_fields.badge`), for the audit and the permission check. */
  changed: string[];
  /** Of those, what the caller may not change (403 FIELD_NOT_ALLOWED names them with the employee's own fields). */
  forbidden: string[];
  /** 400 details (a value of the wrong type, a duplicate of a unique one...). */
  problems: ErrorDetail[];
  /** Writes in the employee's transaction; the audit's before and after of what changed (the property's API shape). */
  apply(em: EntityManager, employeeId: number): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** After a write failed on a unique index: the 400 that says which value was taken, if it was this write's (else nothing). */
  explainConflict(employeeId: number | undefined): Promise<ErrorDetail[]>;
}

/** What GET /employees adds for an extension's list terms (`filters[custom.badge]`, `sortField=custom.badge`). */
export interface ExtensionListTerms {
  /** LEFT JOINs onto the employees `e` (a sort's value). */
  joins: string[];
  conditions: Condition[];
  /** The sort's column expression, when `sortField` is the extension's (over its `joins`). */
  sort?: string;
  /** The same sort read from the key's index (the list of today; the as-of list takes `sort`). */
  keyed?: KeyedOrder;
  problems: ErrorDetail[];
}

/**
 * A property another module adds to employees (`custom_fields`), carried by GET/POST/PUT
 * /employees and the list's items, written in the employee's transaction and recorded in its audit
 * entry. The employees module reads and writes it only through this interface: the module that
 * brings it registers itself (EmployeesService.extend) and the employees module never names it.
 */
export interface EmployeeExtension {
  /** The body's property (`custom_fields`); list terms start with `listPrefix` + '.'. */
  readonly property: string;
  readonly listPrefix: string;
  /**
   * The property of each employee as `reader` sees it, in one read for all of them (`em`: inside a
   * transaction); `list`: only what list items carry. An employee without one is left out.
   */
  read(
    em: EntityManager | null,
    reader: ExtensionReader,
    employeeIds: readonly number[],
    list: boolean,
  ): Promise<Map<number, unknown>>;
  /** Checks a body's value of the property for an employee (`employeeId` undefined: a new one) written by `writer` (null: the system). */
  prepare(writer: ExtensionReader, employeeId: number | undefined, value: unknown): Promise<ExtensionWrite>;
  /** The filters (name → raw value) and sort of GET /employees that start with `listPrefix.`. */
  listTerms(
    caller: AuthUser,
    scope: EmployeeScope,
    filters: Record<string, unknown>,
    sortField: string | undefined,
  ): Promise<ExtensionListTerms>;
}
