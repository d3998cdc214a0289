import { createHash } from 'node:crypto';
import { DomainException } from '../../common/errors/domain.exception';
import { minorUnitOf } from '../../common/money/currencies';
import type { Payroll, PayrollCell } from '../entities/payroll-run.entities';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { amountText } from '../config/payroll-columns';
import { EngineEmployee, EngineResult, HookValues } from '../engine/payroll-engine';
import type { ResolvedTable } from '../config/payroll-tables.service';
import { Prorated } from '../engine/proration';
import type { WorkingDay } from '../../calendars/working-days';
import { EmployeeInputs, StoredHook, StoredWorkingDays } from '../engine/stored-inputs';

/*
 * What a payroll run computed from (issue 32), kept with the run so that it can be explained and
 * compared later whatever changed since: per employee one row of inputs, and the columns as a
 * snapshot shared by every run processed with the same definitions.
 */

/** A run's inputs: its columns (as the API shows them), each employee's inputs, and the payroll tables its scripts read. */
export interface RunInputs {
  columns: PayrollColumnDto[];
  employees: ReadonlyMap<number, EmployeeInputs>;
  /** Table name → the version the run reads (issue 44); absent: none. */
  tables?: ReadonlyMap<string, ResolvedTable>;
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

/** What a run keeps of an employee's working days in its period: their sum and the calendars in force (a diff's `calendar` cause). */
export function storedWorkingDays(days: readonly WorkingDay[]): StoredWorkingDays {
  return {
    days: days.reduce((sum, d) => sum + d.fraction, 0),
    calendars: [...new Set(days.map((d) => d.calendar))].sort((a, b) => a - b),
  };
}

/** An employee's inputs from what the loaders read (currency: the payroll employee's). */
export function employeeInputs(
  settings: EmployeeInputs['settings'],
  salary: ReadonlyMap<number, string> | undefined,
  fields: EmployeeInputs['fields'] | undefined,
  hooks: Record<string, StoredHook>,
  prorated: Pick<Prorated, 'proration' | 'changes'> | null = null,
  working: StoredWorkingDays | null = null,
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
    ...(working ? { working_days: working } : {}),
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
