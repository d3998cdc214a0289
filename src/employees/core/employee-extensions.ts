import { EntityManager } from 'typeorm';
import { AuthUser } from '../../common/auth/auth-user';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { ImportColumn } from '../../common/import/import-kind';
import { Condition, KeyedOrder } from '../../common/paging/list-request';
import { EmployeeScope } from './employee-access.service';

/**
 * Dated values of other modules' properties (EmployeeExtension.dated): property → key → value
 * (`{custom_fields: {visa_status: 'Granted'}}`). A change sets some keys (null clears one); a
 * segment holds every key set so far, a key never set is absent.
 */
export type ExtraValues = Record<string, Record<string, unknown>>;

/** Stored extra values (a segment's column) read back: none for null. */
export function extraOf(text: string | null): ExtraValues {
  return text === null ? {} : (JSON.parse(text) as ExtraValues);
}

/** `extra` over `base`, key by key within each property. */
export function mergeExtra(base: ExtraValues, extra: ExtraValues): ExtraValues {
  const out: ExtraValues = { ...base };
  for (const [property, values] of Object.entries(extra)) out[property] = { ...out[property], ...values };
  return out;
}

/** Who reads an employee's extension property: a caller (with its scope), or the system (audit, events: everything). */
export type ExtensionReader = { caller: AuthUser; scope: EmployeeScope } | null;

/** A body's value of an extension property for an employee (undefined: a new one). */
export interface ExtensionItem {
  employeeId: number | undefined;
  value: unknown;
}

/** What one write of an extension property will do, checked before the employee's transaction. */
export interface ExtensionWrite {
  /** Names of what the body changes (`custom_fields.badge`), for the audit and the permission check. */
  changed: string[];
  /** Of those, what the caller may not change (403 FIELD_NOT_ALLOWED names them with the employee's own fields). */
  forbidden: string[];
  /** 400 details (a value of the wrong type, a duplicate of a unique one...). */
  problems: ErrorDetail[];
  /** Of the changed values, the dated ones (key → value): recorded in the history as a change of today, or in a new employee's first. */
  dated?: Record<string, unknown>;
  /** Identities of the values no other employee may hold (`<key>:<digest>`, a unique field's): an import refuses a second row with one. */
  unique?: string[];
  /** Writes in the employee's transaction; the audit's before and after of what changed (the property's API shape). */
  apply(em: EntityManager, employeeId: number): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** After a write failed on a unique index: the 400 that says which value was taken, if it was this write's (else nothing). */
  explainConflict(employeeId: number | undefined): Promise<ErrorDetail[]>;
}

/** A change's checked values of a property's dated keys (POST /employees/{id}/changes `fields.<property>`). */
export interface DatedCheck {
  /** key → value as the history keeps it (the API's value). */
  set: Record<string, unknown>;
  /** 400 details, named `fields.<property>.<key>`. */
  problems: ErrorDetail[];
  /** What the caller may not change (403 FIELD_NOT_ALLOWED). */
  forbidden: string[];
}

/**
 * The part of a property that is dated (a dated custom field): recorded in the employee's changes
 * with the dated fields, folded into its segments (as_of, history), and made current on the day it
 * takes effect. The employment history keeps the values (key → API value); the module that brings
 * the property checks them, shows them to a reader, and keeps the current ones.
 */
export interface DatedExtension {
  /** Checks a change's value of the property (an object of dated keys). */
  check(writer: ExtensionReader, employeeId: number, value: unknown): Promise<DatedCheck>;
  /**
   * Makes `values` (the segment in force today; a dated key it lacks has no value) the current
   * values, in the employee's transaction: the audit's before and after of what moved.
   */
  apply(
    em: EntityManager,
    employeeId: number,
    values: Record<string, unknown>,
  ): Promise<{ before: Record<string, unknown>; after: Record<string, unknown> }>;
  /** Dated values (a change's, a segment's) as `reader` sees them. */
  view(reader: ExtensionReader, employeeId: number, values: Record<string, unknown>): Promise<Record<string, unknown>>;
}

/** A column of the employees import for a key of a property (a custom field's), headed by the key. */
export interface ExtensionColumn extends ImportColumn {
  /** The key within the property. */
  key: string;
  /** A dated key: with the row's effective_date, a change of that day. */
  dated: boolean;
  /** The property's value of the cell's text (a multiselect's options joined by ";"). */
  read(text: string): unknown;
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
  /** false: the list's items and its exports leave the property out (one employee's record carries it). */
  readonly listed?: boolean;
  /**
   * The property of each employee as `reader` sees it, in one read for all of them (`em`: inside a
   * transaction); `list`: only what list items carry. An employee without one is left out.
   * `dated`: as of a day, each employee's dated values on it (its segment's), which stand for the
   * current values of the dated keys.
   */
  read(
    em: EntityManager | null,
    reader: ExtensionReader,
    employeeIds: readonly number[],
    list: boolean,
    dated?: ReadonlyMap<number, Record<string, unknown>>,
  ): Promise<Map<number, unknown>>;
  /** Its dated keys, when it has any. */
  readonly dated?: DatedExtension;
  /** The employees import's columns of the property that `writer` may write. */
  importColumns?(writer: ExtensionReader): Promise<ExtensionColumn[]>;
  /**
   * Checks bodies' values of the property, each for its employee (`employeeId` undefined: a new
   * one), written by `writer` (null: the system): one write each, in the items' order. One call
   * for many (an import's batch) reads what the checks need once.
   */
  prepare(writer: ExtensionReader, items: ReadonlyArray<ExtensionItem>): Promise<ExtensionWrite[]>;
  /** Applies writes of prepare() to their employees at once (an import's batch), as each one's apply would. */
  applyMany(
    em: EntityManager,
    writes: ReadonlyArray<{ write: ExtensionWrite; employeeId: number }>,
  ): Promise<Array<{ before: Record<string, unknown>; after: Record<string, unknown> }>>;
  /** The filters (name → raw value) and sort of GET /employees that start with `listPrefix.` (`asOf`: the list as of that day). */
  listTerms(
    caller: AuthUser,
    scope: EmployeeScope,
    filters: Record<string, unknown>,
    sortField: string | undefined,
    asOf: string | undefined,
  ): Promise<ExtensionListTerms>;
}
