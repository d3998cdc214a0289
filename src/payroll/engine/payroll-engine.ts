import Decimal from 'decimal.js';
import { timeSlices } from '../../common/async/time-slices';
import {
  CompiledFormula,
  compileFormula,
  Dec,
  EmployeeFormulaField,
  FormulaRuntimeError,
  FormulaScope,
  FormulaStep,
  FormulaTable,
  Value,
} from '../formula/formula';

/** A payroll column as the engine needs it (docs/api/decisions.md §10). */
export interface EngineColumn {
  id: number;
  name: string;
  variable: string;
  salaryComponents: readonly number[];
  addColumns: readonly number[];
  subColumns: readonly number[];
  script: string | null;
  /** A calculation hook's code: its value (HookValues) replaces everything else. */
  hook: string | null;
  defaultValue: string | null;
}

/** A column with nothing set but what `over` gives: name and variable alike (specs, benchmarks, demo data). */
export function engineColumn(id: number, variable: string, over: Partial<EngineColumn> = {}): EngineColumn {
  return {
    id,
    name: variable,
    variable,
    salaryComponents: [],
    addColumns: [],
    subColumns: [],
    script: null,
    hook: null,
    defaultValue: null,
    ...over,
  };
}

export interface EngineEmployee {
  id: number;
  /** Decimal places of the employee's currency (ISO 4217 minor unit): 2 for EUR, 0 for JPY. */
  minorUnit: number;
  fields: Partial<Record<EmployeeFormulaField, number | null>>;
  /** Salary component id → amount ("5000.00"). */
  salary: ReadonlyMap<number, string>;
}

/** A hook column's value for an employee, computed beforehand in bulk (null: no value, take the default). */
export type HookValues = (columnId: number, employeeId: number) => string | null | undefined;

export interface CellError {
  employee: number;
  column: number;
  message: string;
}

/** A column that cannot be planned: a bad script (with its position), an unknown column, a cycle. */
export interface ColumnError {
  columnId: number;
  message: string;
  line?: number;
  column?: number;
}

/** Columns in dependency order, each script compiled once. */
export interface ColumnPlan {
  order: readonly EngineColumn[];
}

export interface EngineResult {
  /** Column ids in the order of `values`. */
  columns: number[];
  rows: Array<{ employee: number; values: Array<string | null> }>;
  errors: CellError[];
}

interface PlannedColumn {
  column: EngineColumn;
  formula: CompiledFormula | null;
  /** Positions in the plan of the added / subtracted columns. */
  add: number[];
  sub: number[];
}

/** Cells are DECIMAL(14, 2)-sized: anything at or above this is an error, not a stored amount. */
const MAX_CELL = new Dec('1e12');
const ZERO = new Dec(0);

/**
 * Orders the columns so that every column comes after those it reads (added, subtracted, or named
 * in its script), compiles each script once, and reports unknown variables, bad scripts and
 * dependency cycles per column. `plan` is null when anything is wrong.
 */
export function planColumns(columns: readonly EngineColumn[]): { plan: PlannedPlan | null; errors: ColumnError[] } {
  const errors: ColumnError[] = [];
  const byId = new Map(columns.map((c) => [c.id, c]));
  const byVariable = new Map(columns.map((c) => [c.variable, c]));
  const variables = new Set(byVariable.keys());
  const formulas = new Map<number, CompiledFormula>();
  const deps = new Map<number, Set<number>>();
  for (const c of columns) {
    const d = new Set<number>();
    for (const id of [...c.addColumns, ...c.subColumns]) {
      if (!byId.has(id)) errors.push({ columnId: c.id, message: `column ${id} does not exist` });
      else d.add(id);
    }
    if (c.script && !c.hook) {
      const { formula, errors: scriptErrors } = compileFormula(c.script, variables);
      for (const e of scriptErrors) errors.push({ columnId: c.id, ...e });
      if (formula) {
        formulas.set(c.id, formula);
        for (const v of formula.variables) d.add((byVariable.get(v) as EngineColumn).id);
      }
    }
    deps.set(c.id, d);
  }
  // Kahn's algorithm; what is left over sits on a cycle.
  const order: EngineColumn[] = [];
  const remaining = new Map([...deps].map(([id, d]) => [id, new Set(d)]));
  let ready = columns.filter((c) => remaining.get(c.id)?.size === 0).map((c) => c.id);
  while (ready.length) {
    const next: number[] = [];
    for (const id of ready) {
      order.push(byId.get(id) as EngineColumn);
      remaining.delete(id);
      for (const [other, d] of remaining) if (d.delete(id) && d.size === 0) next.push(other);
    }
    ready = next;
  }
  if (remaining.size) {
    const names = [...remaining.keys()].map((id) => (byId.get(id) as EngineColumn).variable);
    for (const id of remaining.keys()) errors.push({ columnId: id, message: `dependency cycle among ${names.join(', ')}` });
  }
  if (errors.length) return { plan: null, errors };
  const position = new Map(order.map((c, i) => [c.id, i]));
  return {
    plan: {
      order,
      planned: order.map((column) => ({
        column,
        formula: formulas.get(column.id) ?? null,
        add: column.addColumns.map((id) => position.get(id) as number),
        sub: column.subColumns.map((id) => position.get(id) as number),
      })),
      variableIndex: new Map(order.map((c, i) => [c.variable, i])),
    },
    errors: [],
  };
}

export interface PlannedPlan extends ColumnPlan {
  planned: PlannedColumn[];
  variableIndex: Map<string, number>;
  /** The payroll tables the scripts read (bracket, band, lookup), as the run resolved them (issue 44). */
  tables?: ReadonlyMap<string, FormulaTable>;
}

/** The table names the plan's scripts read. */
export function tablesRead(plan: PlannedPlan): string[] {
  return [...new Set(plan.planned.flatMap((p) => p.formula?.tables ?? []))];
}

class CellFailure extends Error {}

/**
 * Computes every cell of a payroll in memory (no I/O): per employee, the columns in dependency
 * order; a column's value is the sum of its salary components plus added columns minus subtracted
 * ones, a script's result replaces that, a hook's value replaces everything, and an empty column
 * takes its default value (docs/api/decisions.md §10). Arithmetic is exact; each cell is rounded half-up to the
 * employee's currency minor unit when stored, and later columns read the stored value, so a
 * payslip adds up. Failures are collected per cell (employee, column, message).
 */
export function computePayroll(
  plan: PlannedPlan,
  employees: readonly EngineEmployee[],
  hooks?: HookValues,
  /** Values fixed by hand (edited cells of editable columns): used as they are, and read by later columns. */
  overrides?: CellOverrides,
): EngineResult {
  const result: EngineResult = { columns: plan.order.map((c) => c.id), rows: [], errors: [] };
  for (const employee of employees) computeRow(plan, employee, hooks, overrides, result);
  return result;
}

export type CellOverrides = (columnId: number, employeeId: number) => string | undefined;

/**
 * computePayroll for a process that serves requests too (the in-process job runner): after each
 * employee, past SLICE_MS (common/async/time-slices) of computing, it yields to the event loop. One employee's row is the
 * longest it runs at once: its columns × the per-cell bound of the formula language.
 */
export async function computePayrollYielding(
  plan: PlannedPlan,
  employees: readonly EngineEmployee[],
  hooks?: HookValues,
  overrides?: CellOverrides,
): Promise<EngineResult> {
  const result: EngineResult = { columns: plan.order.map((c) => c.id), rows: [], errors: [] };
  const slices = timeSlices();
  for (const employee of employees) {
    computeRow(plan, employee, hooks, overrides, result);
    if (slices.due()) await slices.pause();
  }
  return result;
}

function computeRow(
  plan: PlannedPlan,
  employee: EngineEmployee,
  hooks: HookValues | undefined,
  overrides: CellOverrides | undefined,
  result: EngineResult,
  /** explainCell: the column whose derivation is recorded, and where. */
  explain?: { index: number; trace: CellTrace },
): void {
  const n = plan.planned.length;
  const stored: Array<Dec | undefined> = new Array<Dec | undefined>(n);
  const values: Array<string | null> = new Array<string | null>(n).fill(null);
  let trace: CellTrace | null = null;
  const scope: FormulaScope = {
    variable(name) {
      const value = stored[plan.variableIndex.get(name) as number];
      if (value === undefined) throw new CellFailure(`${name} has no value: its cell failed`);
      // Listed once, however many times the script reads it.
      if (trace && !trace.inputs.some((i) => i.kind === 'column' && i.ref === name))
        trace.inputs.push({ kind: 'column', ref: name, value: value.toString() });
      return value;
    },
    table(name) {
      const t = plan.tables?.get(name);
      if (t && trace && !trace.inputs.some((i) => i.kind === 'table' && i.ref === name))
        trace.inputs.push({ kind: 'table', ref: name, value: t.version });
      return t;
    },
    employee(field) {
      const value = employee.fields[field];
      if (value === null || value === undefined) throw new CellFailure(`employee.${field} is not set for this employee`);
      if (trace && !trace.inputs.some((i) => i.kind === 'employee_field' && i.ref === field))
        trace.inputs.push({ kind: 'employee_field', ref: field, value: String(value) });
      return new Dec(value);
    },
  };
  const last = explain ? explain.index + 1 : n;
  for (let i = 0; i < last; i++) {
    const { column, formula, add, sub } = plan.planned[i];
    trace = explain?.index === i ? explain.trace : null;
    try {
      const fixed = overrides?.(column.id, employee.id);
      if (fixed !== undefined && trace) {
        trace.rule = 'edit';
        trace.inputs.push({ kind: 'edit', ref: column.variable, value: fixed });
      }
      const raw =
        fixed !== undefined ? new Dec(fixed) : cellValue(column, formula, add, sub, employee, stored, scope, hooks, trace, plan);
      const value = raw.toDecimalPlaces(employee.minorUnit, Decimal.ROUND_HALF_UP);
      if (trace) trace.rounding = { exact: raw.toString(), places: employee.minorUnit, value: value.toFixed(employee.minorUnit) };
      if (!value.isFinite() || value.abs().gte(MAX_CELL)) throw new CellFailure('the result is out of range');
      stored[i] = value;
      values[i] = value.toFixed(employee.minorUnit);
    } catch (err) {
      if (!(err instanceof CellFailure || err instanceof FormulaRuntimeError || err instanceof Error)) throw err;
      result.errors.push({ employee: employee.id, column: column.id, message: err.message });
      if (trace) trace.error = err.message;
    }
  }
  result.rows.push({ employee: employee.id, values });
}

/** Where a cell's value comes from (explainCell). */
export type CellRule = 'edit' | 'hook' | 'script' | 'sum' | 'default';

/** A value a cell read: a salary amount, another column, a hook's value, an employee field, a manual edit. */
export interface CellInput {
  kind: 'salary_component' | 'column' | 'hook' | 'employee_field' | 'edit' | 'table';
  /** The component id, the column variable, the hook code, the field name or the table name (its value: the version's day). */
  ref: number | string;
  value: string;
  /** For a sum: added or subtracted. */
  sign?: '+' | '-';
}

/** How one cell got its value, recorded by the engine as it computes it. */
export interface CellTrace {
  rule: CellRule;
  inputs: CellInput[];
  /** The script's parts with their values (FormulaStep), innermost first. */
  steps: FormulaStep[];
  /** The exact value, the places it was rounded to (half-up) and the stored value. */
  rounding: { exact: string; places: number; value: string } | null;
  error: string | null;
}

export interface CellExplanation extends CellTrace {
  column: number;
  variable: string;
  /** As computePayroll stores it; null when the cell failed. */
  value: string | null;
}

/**
 * One cell with its derivation: the employee's row is computed as computePayroll computes it, up
 * to that column, recording for it the rule, the inputs it read, the script's steps and the
 * rounding. The value is computePayroll's own (the same code path), so an explanation cannot
 * disagree with the stored cell for the same inputs. Null for a column outside the plan.
 */
export function explainCell(
  plan: PlannedPlan,
  employee: EngineEmployee,
  columnId: number,
  hooks?: HookValues,
  overrides?: CellOverrides,
): CellExplanation | null {
  const index = plan.planned.findIndex((p) => p.column.id === columnId);
  if (index < 0) return null;
  const trace: CellTrace = { rule: 'default', inputs: [], steps: [], rounding: null, error: null };
  const result: EngineResult = { columns: plan.order.map((c) => c.id), rows: [], errors: [] };
  computeRow(plan, employee, hooks, overrides, result, { index, trace });
  const column = plan.planned[index].column;
  return { column: column.id, variable: column.variable, value: result.rows[0].values[index], ...trace };
}

function cellValue(
  column: EngineColumn,
  formula: CompiledFormula | null,
  add: number[],
  sub: number[],
  employee: EngineEmployee,
  stored: Array<Dec | undefined>,
  scope: FormulaScope,
  hooks: HookValues | undefined,
  trace: CellTrace | null,
  plan: PlannedPlan,
): Dec {
  if (column.hook) {
    const hooked = hooks?.(column.id, employee.id);
    if (trace) {
      trace.rule = hooked === null || hooked === undefined ? 'default' : 'hook';
      if (trace.rule === 'hook') trace.inputs.push({ kind: 'hook', ref: column.hook, value: String(hooked) });
    }
    return hooked === null || hooked === undefined ? defaultOf(column) : new Dec(hooked);
  }
  let value: Dec | null = null;
  if (column.salaryComponents.length || add.length || sub.length) {
    value = ZERO;
    if (trace) trace.rule = 'sum';
    for (const component of column.salaryComponents) {
      const amount = employee.salary.get(component);
      if (amount === undefined) throw new CellFailure(`no salary amount for component ${component}`);
      trace?.inputs.push({ kind: 'salary_component', ref: component, value: amount, sign: '+' });
      value = value.plus(amount);
    }
    for (const i of add) {
      const read = readStored(stored, i);
      trace?.inputs.push({ kind: 'column', ref: plan.planned[i].column.variable, value: read.toString(), sign: '+' });
      value = value.plus(read);
    }
    for (const i of sub) {
      const read = readStored(stored, i);
      trace?.inputs.push({ kind: 'column', ref: plan.planned[i].column.variable, value: read.toString(), sign: '-' });
      value = value.minus(read);
    }
  }
  if (formula) {
    let result: Value;
    if (trace) {
      // The script's result replaces any sum: its inputs are what the script reads.
      trace.rule = 'script';
      trace.inputs = [];
      const explained = formula.explain(scope);
      trace.steps = explained.steps;
      result = explained.value;
    } else result = formula.evaluate(scope);
    if (typeof result === 'boolean') throw new CellFailure(`the script gave ${result}, not an amount`);
    value = result;
  }
  return value ?? defaultOf(column);
}

function readStored(stored: Array<Dec | undefined>, i: number): Dec {
  const value = stored[i];
  if (value === undefined) throw new CellFailure('a column it adds or subtracts has no value: its cell failed');
  return value;
}

function defaultOf(column: EngineColumn): Dec {
  return column.defaultValue === null ? ZERO : new Dec(column.defaultValue);
}
