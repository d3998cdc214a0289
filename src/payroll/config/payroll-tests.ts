import type { PayrollTestEmployee } from '../entities/payroll-config.entities';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { computePayroll, EngineColumn, planColumns } from '../engine/payroll-engine';
import { Dec, EMPLOYEE_FORMULA_FIELDS, EmployeeFormulaField, FormulaTable } from '../formula/formula';

export interface PayrollTestCase {
  id: number;
  name: string;
  employee: PayrollTestEmployee;
  /** Column variable → the amount expected. */
  expected: Record<string, string>;
}

export interface PayrollTestFailure {
  column: string;
  expected: string;
  /** The computed cell; null when it failed (or no column has that variable). */
  actual: string | null;
}

export interface PayrollTestResult {
  id: number;
  name: string;
  passed: boolean;
  failures: PayrollTestFailure[];
}

/** Hook columns: `employee_field` reads the test's field named by the column's `field` argument. */
export type TestColumn = EngineColumn & { hookArgs?: Record<string, string | number> };

/** Currency places of a test's amounts (the tests carry no currency). */
const TEST_MINOR_UNIT = 2;

const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;

/**
 * Runs payroll tests against a column set: each test is one employee of one computePayroll call
 * (the engine of the runs, in memory), and each expected column is compared exactly with its
 * cell. A set that does not plan fails every test on every expected column (actual null).
 */
export function runPayrollTests(
  columns: readonly TestColumn[],
  tests: readonly PayrollTestCase[],
  /** The payroll tables in force (issue 44): tests see their versions as they see the columns. */
  tables?: ReadonlyMap<string, FormulaTable>,
): PayrollTestResult[] {
  const { plan } = planColumns(columns);
  if (plan) plan.tables = tables;
  const byId = new Map(columns.map((c) => [c.id, c]));
  const result = plan
    ? computePayroll(
        plan,
        tests.map((t, i) => ({
          id: i,
          minorUnit: TEST_MINOR_UNIT,
          fields: t.employee.fields,
          salary: new Map(Object.entries(t.employee.salary).map(([k, v]) => [Number(k), v])),
        })),
        (columnId, i) => {
          const column = byId.get(columnId);
          const test = tests[i];
          if (!column?.hook) return null;
          if (column.hook === 'employee_field') {
            // The column's field argument indexes the test's own fields only (as the run's inputs do).
            const field = String(column.hookArgs?.field);
            const value = Object.hasOwn(test.employee.fields, field) ? test.employee.fields[field as EmployeeFormulaField] : null;
            return value === null || value === undefined ? null : String(value);
          }
          return test.employee.hooks[column.hook] ?? '0'; // no records in the period: 0, as a run says
        },
      )
    : null;
  const index = new Map(result?.columns.map((id, k) => [byId.get(id)?.variable, k]) ?? []);
  return tests.map((t, i) => {
    const failures: PayrollTestFailure[] = [];
    for (const [variable, expected] of Object.entries(t.expected)) {
      const k = index.get(variable);
      const actual = k === undefined ? null : (result?.rows[i].values[k] ?? null);
      if (actual === null || !new Dec(actual).eq(new Dec(expected))) failures.push({ column: variable, expected, actual });
    }
    return { id: t.id, name: t.name, passed: failures.length === 0, failures };
  });
}

/** The problems of a test's employee and expectations (docs/api/decisions.md §18 shapes), as error details. */
export function payrollTestProblems(employee: unknown, expected: unknown): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const record = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const amounts = (field: string, v: unknown, key: (k: string) => boolean, keyRule: string) => {
    if (v === undefined) return;
    if (!record(v)) return problems.push({ field, message: 'must be an object' });
    if (Object.keys(v).length > 200) problems.push({ field, message: 'has more than 200 entries' });
    for (const [k, x] of Object.entries(v)) {
      if (!key(k)) problems.push({ field: `${field}.${k}`, message: keyRule });
      else if (typeof x !== 'string' || !DECIMAL.test(x))
        problems.push({ field: `${field}.${k}`, message: 'must be a decimal amount as a string, such as "1234.50"' });
    }
  };
  if (employee !== undefined) {
    if (!record(employee)) problems.push({ field: 'employee', message: 'must be an object with salary, hooks and fields' });
    else {
      for (const k of Object.keys(employee))
        if (!['salary', 'hooks', 'fields'].includes(k)) problems.push({ field: `employee.${k}`, message: 'is not a test input' });
      amounts('employee.salary', employee.salary, (k) => /^[1-9]\d{0,9}$/.test(k), 'must be a salary component id');
      amounts('employee.hooks', employee.hooks, (k) => /^[a-z_]{1,40}$/.test(k), 'must be a calculation hook code');
      const fields = employee.fields;
      if (fields !== undefined && !record(fields)) problems.push({ field: 'employee.fields', message: 'must be an object' });
      else if (fields)
        for (const [k, x] of Object.entries(fields)) {
          if (!(EMPLOYEE_FORMULA_FIELDS as readonly string[]).includes(k))
            problems.push({ field: `employee.fields.${k}`, message: `must be one of ${EMPLOYEE_FORMULA_FIELDS.join(', ')}` });
          else if (x !== null && (typeof x !== 'number' || !Number.isFinite(x) || Math.abs(x) > 1e9))
            problems.push({ field: `employee.fields.${k}`, message: 'must be a number or null' });
        }
    }
  }
  amounts('expected', expected, (k) => /^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(k), 'must be a column variable');
  if (record(expected) && !Object.keys(expected).length) problems.push({ field: 'expected', message: 'names no column' });
  return problems;
}
