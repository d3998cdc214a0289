import type { EmployeeFormulaField } from '../formula/formula';
import type { StoredProration } from './proration';

/*
 * What a payroll run computed from, as it is stored with the run (issue 32) and read by runs,
 * explain and the payroll's entities: the types they share live here, below all of them.
 */

/**
 * A hook column's value for one employee as the engine received it, and the records it came from
 * (their kind is the input's declared `source`, common/payroll-inputs). Kept small: a run stores one per employee and hook.
 */
export interface StoredHook {
  /** Null: no value (the column's default applies). */
  value: string | null;
  /** Ids of the source's records (attendance records, time entries, leave requests, ledger entries, payrolls); absent: none. */
  records?: number[];
  /** The arrears hook's parts, one per earlier run it recomputed (issue 44). */
  arrears?: StoredArrears[];
}

/**
 * One earlier run's arrears (issue 44): its column recomputed from its stored inputs with the
 * history as known now, minus what it paid and what Completed runs since paid for it as arrears.
 */
export interface StoredArrears {
  payroll: number;
  recomputed: string;
  paid: string;
  already_paid: string;
  amount: string;
  /** The changes recorded or cancelled after that run was processed that reach back into its period. */
  changes: number[];
}

/** One employee's inputs of one run. */
export interface EmployeeInputs {
  /** The payroll-employee settings of the run. */
  settings: { pay_frequency: number | null; currency: string | null; deduction_group: number | null };
  minorUnit: number;
  /** Salary component id → amount (prorated over the period when `proration` is set). */
  salary: Record<string, string>;
  /** How the salary was prorated (issue 44): absent when one salary was in force for the whole period. */
  proration?: StoredProration;
  /** The employment changes whose salaries it read (issue 44); absent for a run before history, or without it. */
  salary_changes?: number[];
  /** The formula fields the employee has (those without a value are left out). */
  fields: Partial<Record<EmployeeFormulaField, number | null>>;
  /** Hook column id → its value and sources. */
  hooks: Record<string, StoredHook>;
  /**
   * The employee's working days in the period by its calendars, and those calendars (issue 65): a
   * diff names a change of them (cause `calendar`). Absent for a run made before calendars.
   */
  working_days?: StoredWorkingDays;
}

export interface StoredWorkingDays {
  days: number;
  /** The calendars in force on some day of the period, ascending. */
  calendars: number[];
}

/** A cell as a diff compares it: its value and whether it was an edit kept. */
export interface DiffCell {
  value: string | null;
  edited: boolean;
}

/** A payroll column as runs keep it in their snapshot: the API's view of it (PayrollColumnDto). */
export interface ColumnSnapshot {
  id: number;
  name: string;
  variable: string;
  colorder: number;
  enabled: boolean;
  editable: boolean;
  default_value: string | null;
  salary_components: number[];
  add_columns: number[];
  sub_columns: number[];
  calculation_hook: string | null;
  calculation_hook_args: Record<string, string | number>;
  script: string | null;
  deduction_group: number | null;
}
