import { Injectable } from '@nestjs/common';
import { DepartmentChangeHook, EmployeeRemovalHook, TerminationHook } from './employee-views';
import { EmployeeExtension } from './employee-extensions';

/**
 * What other modules do when an employee changes: registered once at start through
 * EmployeesService (onDepartmentChange, onRemove, onTermination), run by every write path of the
 * module (a PUT, a dated change taking effect, the daily job); and the properties other modules add
 * to employees (EmployeesService.extend).
 */
@Injectable()
export class EmployeeHooks {
  readonly department: DepartmentChangeHook[] = [];
  readonly removal: EmployeeRemovalHook[] = [];
  readonly termination: TerminationHook[] = [];
  readonly extensions: EmployeeExtension[] = [];
}
