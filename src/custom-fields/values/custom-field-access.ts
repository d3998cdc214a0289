import { AuthUser } from '../../common/auth/auth-user';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { EmployeeScope } from '../../employees/core/employee-access.service';
import { CustomValue } from './custom-field-codec';
import { CustomField } from '../entities/custom-field.entity';

/** Who reads a value: a caller with its scope, or the system (null: the audit, the events). */
export type ValueReader = { caller: AuthUser; scope: EmployeeScope } | null;

/**
 * How a reader sees a field's value on an employee (docs/api/custom-fields.md): `absent` (the key
 * is not there: the field is not for its level, nor `self` on its own record), `hidden` (null: a
 * personal field, to a caller who may see the employee but not its personal details, that is a
 * Manager or an Employee on somebody else's record), or `value`. `employeeId` -1: somebody else.
 */
export function sight(field: CustomField, reader: ValueReader, employeeId: number): 'absent' | 'hidden' | 'value' {
  if (reader === null || reader.caller.level === 'Admin') return 'value';
  const { caller } = reader;
  const self = caller.employeeId !== null && caller.employeeId === employeeId;
  if (!field.visibleTo.includes(caller.level) && !(self && field.visibleTo.includes('self'))) return 'absent';
  if (field.pii && !self && caller.level !== 'Restricted Admin') return 'hidden';
  return 'value';
}

/**
 * Whether the writer (null: the system) may change the field's value of an employee it sees: an
 * administrator of it, or the employee itself for `editable_by: self`.
 */
export function mayEdit(field: CustomField, writer: ValueReader, employeeId: number | undefined): boolean {
  if (writer === null || writer.scope.kind === 'all' || writer.scope.kind === 'departments') return true;
  return field.editableBy === 'self' && writer.caller.employeeId !== null && writer.caller.employeeId === employeeId;
}

/**
 * An `employee` value must name another employee the writer may refer to (details named
 * `<prefix>.<key>`); `referable` says whether it may (EmployeeAccessService.referable in its scope).
 */
export async function referenceProblems(
  referable: (id: number) => Promise<boolean>,
  self: number | undefined,
  changes: ReadonlyArray<{ field: CustomField; value: CustomValue }>,
  prefix: string,
): Promise<ErrorDetail[]> {
  const problems: ErrorDetail[] = [];
  for (const { field, value } of changes) {
    if (field.type !== 'employee' || value === null) continue;
    if (value === self) problems.push({ field: `${prefix}.${field.key}`, message: 'must be another employee' });
    else if (!(await referable(value as number)))
      problems.push({ field: `${prefix}.${field.key}`, message: 'employee does not exist' });
  }
  return problems;
}
