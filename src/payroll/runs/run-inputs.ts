import { createHash } from 'node:crypto';
import { DomainException } from '../../common/errors/domain.exception';
import { minorUnitOf } from '../../common/money/currencies';
import type { Payroll, PayrollCell } from '../entities/payroll-run.entities';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { amountText } from '../config/payroll-columns';
import { EngineEmployee, EngineResult, HookValues } from '../engine/payroll-engine';
import { compileFormula, EmployeeFormulaField } from '../formula/formula';
import type { ResolvedTable } from '../config/payroll-tables.service';
import { Prorated, StoredProration } from '../engine/proration';

/*
 * What a payroll run computed from (issue 32), kept with the run so that it can be explained and
 * compared later whatever changed since: per employee one row of inputs, and the columns as a
 * snapshot shared by every run processed with the same definitions.
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
}

/** A run's inputs: its columns (as the API shows them), each employee's inputs, and the payroll tables its scripts read. */
export interface RunInputs {
  columns: PayrollColumnDto[];
  employees: ReadonlyMap<number, EmployeeInputs>;
  /** Table name → the version the run reads (issue 44); absent: none. */
  tables?: ReadonlyMap<string, ResolvedTable>;
}

/** The payroll tables the columns' scripts name (bracket, band, lookup). */
export function tableNamesOf(columns: readonly PayrollColumnDto[]): string[] {
  const names = new Set<string>();
  for (const c of columns)
    if (c.script && !c.calculation_hook) for (const t of compileFormula(c.script).formula?.tables ?? []) names.add(t);
  return [...names];
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
  prorated: Pick<Prorated, 'proration' | 'changes'> | null = null,
): EmployeeInputs {
  return {
    ...(prorated?.proration ? { proration: prorated.proration } : {}),
    ...(prorated ? { salary_changes: prorated.changes } : {}),
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

/** The cells a run writes: every computed value, flagged edited where it was an edit kept. */
export function* cellsOf(
  result: EngineResult,
  edited: ReadonlyArray<Pick<PayrollCell, 'employeeId' | 'columnId'>>,
): Generator<[number, number, string | null, boolean]> {
  const editedKeys = new Set(edited.map((c) => `${c.employeeId}:${c.columnId}`));
  for (const row of result.rows)
    for (const [k, columnId] of result.columns.entries())
      yield [row.employee, columnId, row.values[k], editedKeys.has(`${row.employee}:${columnId}`)];
}
