import { compileFormula } from '../formula/formula';
import Decimal from 'decimal.js';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { findPayrollInput, PayrollInputDeclaration, payrollInputs } from '../../common/payroll-inputs/payroll-inputs';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { EngineColumn } from '../engine/payroll-engine';
import { PayrollColumn } from '../entities/payroll-config.entities';

/* A payroll column's views (API, engine) and the checks of its calculation hook's arguments. */

/** Sign and integer part, and the decimals without trailing zeros. */
const PLAIN_AMOUNT = /^(-?(?:0|[1-9]\d*))(?:\.(\d*?)0*)?$/;

/** "0.000" (MariaDB) or 0 (SQLite) → "0.00": two decimals at least, more only when they matter. */
export function amountText(value: string): string {
  // The plain decimals databases give, as text (a run stores 10 000s of them); anything else through decimal.js.
  const m = PLAIN_AMOUNT.exec(value);
  if (m && m[1] !== '-0') return m[2] && m[2].length > 2 ? `${m[1]}.${m[2]}` : `${m[1]}.${(m[2] ?? '').padEnd(2, '0')}`;
  const d = new Decimal(value);
  return d.decimalPlaces() > 2 ? d.toString() : d.toFixed(2);
}

/** "Gross Pay (EUR)" → "gross_pay_eur": the default column variable. */
export function snakeCase(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[^\w\s]/g, ' ')
    .trim()
    .replace(/\s+/g, '_')
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '');
  return /^[a-z_]/.test(s) ? s.slice(0, 64) : `c_${s}`.slice(0, 64);
}

export function toColumnDto(c: PayrollColumn): PayrollColumnDto {
  return {
    id: c.id,
    name: c.name,
    variable: c.variable,
    colorder: c.colorder,
    enabled: c.enabled,
    editable: c.editable,
    default_value: c.defaultValue === null ? null : amountText(c.defaultValue),
    salary_components: c.salaryComponents,
    add_columns: c.addColumns,
    sub_columns: c.subColumns,
    calculation_hook: c.calculationHook,
    calculation_hook_args: c.calculationHookArgs,
    script: c.script,
    deduction_group: c.deductionGroupId,
  };
}

/** The engine's view of a column as the API shows it (a run's stored snapshot keeps that view). */
export function engineColumnOf(c: PayrollColumnDto): EngineColumn {
  return {
    id: c.id,
    name: c.name,
    variable: c.variable,
    salaryComponents: c.salary_components,
    addColumns: c.add_columns,
    subColumns: c.sub_columns,
    script: c.script,
    hook: c.calculation_hook,
    defaultValue: c.default_value,
  };
}

export function toEngineColumn(c: PayrollColumn): EngineColumn {
  return engineColumnOf(toColumnDto(c));
}

/** The problems of a column's calculation_hook (one no module declared) and of its arguments for it. */
export function hookProblems(code: string, args: Record<string, unknown>): ErrorDetail[] {
  const hook = findPayrollInput(code);
  if (!hook)
    return [
      {
        field: 'calculation_hook',
        message: `must be one of ${payrollInputs()
          .map((h) => h.code)
          .join(', ')}`,
      },
    ];
  return hookArgumentProblems(hook, args);
}

/** The problems of a column's calculation_hook_args for its hook: unknown, missing or mistyped arguments. */
function hookArgumentProblems(hook: PayrollInputDeclaration, args: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const name of Object.keys(args)) {
    if (!hook.args.some((a) => a.name === name))
      problems.push({ field: `calculation_hook_args.${name}`, message: `is not an argument of ${hook.code}` });
  }
  for (const arg of hook.args) {
    const value = Object.hasOwn(args, arg.name) ? args[arg.name] : undefined;
    if (value === undefined) {
      if (arg.required) problems.push({ field: `calculation_hook_args.${arg.name}`, message: 'is required' });
      continue;
    }
    const ok =
      arg.type === 'string'
        ? typeof value === 'string' && value.length <= 100
        : typeof value === 'number' && Number.isFinite(value) && (arg.type === 'number' || Number.isInteger(value));
    if (!ok)
      problems.push({
        field: `calculation_hook_args.${arg.name}`,
        message: `must be ${arg.type === 'integer' ? 'an integer' : `a ${arg.type}`}`,
      });
  }
  if (hook.argumentProblems) problems.push(...hook.argumentProblems(args));
  return problems;
}

/** The payroll tables the columns' scripts name (bracket, band, lookup). */
export function tableNamesOf(columns: readonly PayrollColumnDto[]): string[] {
  const names = new Set<string>();
  for (const c of columns)
    if (c.script && !c.calculation_hook) for (const t of compileFormula(c.script).formula?.tables ?? []) names.add(t);
  return [...names];
}
