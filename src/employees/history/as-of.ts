import { EMPLOYEE_FIELDS, EmployeeField } from '../core/employee-fields';
import { Employee } from '../entities/employee.entity';
import { DATED_FIELDS, DatedValues } from './employment-history';
import { EmploymentSegment } from '../entities/employment-history.entities';
import { datedProps } from './employment-history.writer';

/** The employee as it was (or will be) on `asOf`: the dated fields of `segment`, the status of that day. */
export function employeeAsOf(employee: Employee, segment: EmploymentSegment, asOf: string): Employee {
  return {
    ...employee,
    ...datedProps(segment),
    status: employee.terminationDate && employee.terminationDate <= asOf ? 'Terminated' : 'Active',
  };
}

/** The dated fields among an employee patch (API names → ids), or null when it changes none. */
export function datedPatch(patch: Partial<Record<EmployeeField['prop'], unknown>>): Partial<DatedValues> | null {
  const out: Partial<DatedValues> = {};
  for (const f of EMPLOYEE_FIELDS)
    if ((DATED_FIELDS as readonly string[]).includes(f.api) && f.prop in patch)
      out[f.api as keyof DatedValues] = patch[f.prop] as number | null;
  return Object.keys(out).length ? out : null;
}

export const maxDay = (a: string, b: string) => (a > b ? a : b);
