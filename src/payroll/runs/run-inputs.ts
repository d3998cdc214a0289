import { createHash } from 'node:crypto';
import { DomainException } from '../../common/errors/domain.exception';
import { minorUnitOf } from '../../common/money/currencies';
import type { Payroll } from '../entities/payroll-run.entities';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { amountText } from '../config/payroll-columns';
import { EngineEmployee, HookValues } from '../engine/payroll-engine';
import { EmployeeFormulaField } from '../formula/formula';

/*
 * What a payroll run computed from (issue 32), kept with the run so that it can be explained and
 * compared later whatever changed since: per employee one row of inputs, and the columns as a
 * snapshot shared by every run processed with the same definitions.
 */

/** Where a calculation hook's value came from: the records summed (their ids) or the employee record. */
export const HOOK_SOURCE_NAMES = ['attendance', 'time_entries', 'leave_requests', 'leave_ledger', 'employee'] as const;
export type HookSource = (typeof HOOK_SOURCE_NAMES)[number];

export const HOOK_SOURCES: Record<string, HookSource> = {
  hours_worked: 'attendance',
  regular_hours: 'attendance',
  overtime_hours: 'attendance',
  approved_timesheet_hours: 'time_entries',
  approved_leave_days: 'leave_requests',
  leave_encashment_days: 'leave_ledger',
  employee_field: 'employee',
};

/**
 * A hook column's value for one employee as the engine received it, and the records it came from
 * (their kind is the hook's HOOK_SOURCES entry). Kept small: a run stores one per employee and hook.
 */
export interface StoredHook {
  /** Null: no value (the column's default applies). */
  value: string | null;
  /** Ids of the source's records (attendance records, time entries, leave requests, ledger entries); absent: none. */
  records?: number[];
}

/** One employee's inputs of one run. */
export interface EmployeeInputs {
  /** The payroll-employee settings of the run. */
  settings: { pay_frequency: number | null; currency: string | null; deduction_group: number | null };
  minorUnit: number;
  /** Salary component id → amount. */
  salary: Record<string, string>;
  /** The formula fields the employee has (those without a value are left out). */
  fields: Partial<Record<EmployeeFormulaField, number | null>>;
  /** Hook column id → its value and sources. */
  hooks: Record<string, StoredHook>;
}

/** A run's inputs: its columns (as the API shows them) and each employee's inputs. */
export interface RunInputs {
  columns: PayrollColumnDto[];
  employees: ReadonlyMap<number, EmployeeInputs>;
}

export function engineEmployeeOf(id: number, inputs: EmployeeInputs): EngineEmployee {
  return {
    id,
    minorUnit: inputs.minorUnit,
    fields: inputs.fields,
    salary: new Map(Object.entries(inputs.salary).map(([component, amount]) => [Number(component), amount])),
  };
}

/** The hooks' values as the engine reads them, from stored inputs. */
export function hookValuesOf(employees: ReadonlyMap<number, EmployeeInputs>): HookValues {
  return (columnId, employeeId) => {
    const hooks = employees.get(employeeId)?.hooks;
    const key = String(columnId);
    return hooks && Object.hasOwn(hooks, key) ? hooks[key].value : null;
  };
}

/** An employee's inputs from what the loaders read (currency: the payroll employee's). */
export function employeeInputs(
  settings: EmployeeInputs['settings'],
  salary: ReadonlyMap<number, string> | undefined,
  fields: EmployeeInputs['fields'] | undefined,
  hooks: Record<string, StoredHook>,
): EmployeeInputs {
  return {
    settings,
    minorUnit: minorUnitOf(settings.currency ?? ''),
    // "5000.00" on every database (MariaDB reads "5000.000", SQLite "5000").
    salary: Object.fromEntries(
      [...(salary ?? new Map<number, string>())].sort((a, b) => a[0] - b[0]).map(([c, amount]) => [c, amountText(amount)]),
    ),
    fields: Object.fromEntries(Object.entries(fields ?? {}).filter(([, v]) => v !== null && v !== undefined)),
    hooks,
  };
}

/** A run's stored inputs' keys; 409 INVALID_STATE for a run computed before runs kept them (or never processed). */
export function requireInputs(p: Payroll): { columnSetId: number; inputsRevision: number } {
  if (p.columnSetId === null || p.inputsRevision === null)
    throw new DomainException(
      'INVALID_STATE',
      `Payroll ${p.id} was not computed since runs keep their inputs: process it (again) to explain or compare it`,
    );
  return { columnSetId: p.columnSetId, inputsRevision: p.inputsRevision };
}

/** The snapshot's key: the same column definitions in the same order give the same hash. */
export function columnSetHash(columns: readonly PayrollColumnDto[]): string {
  return createHash('sha256').update(JSON.stringify(columns)).digest('hex');
}
