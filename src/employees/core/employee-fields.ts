import { ReferenceKind } from '../../reference/reference.service';
import { Employee } from '../entities/employee.entity';

type Prop = Exclude<keyof Employee, 'id' | 'createdAt' | 'updatedAt'>;

/**
 * Every writable employee field: its API name (the seed's), the entity property, and what it
 * points to. Mapping in both directions, reference checks and the permission check all read it.
 */
export interface EmployeeField {
  api: string;
  prop: Prop;
  /** What an id points to: another employee, a work calendar, or a reference table. */
  ref?: 'employee' | 'calendar' | ReferenceKind;
  /** The seed types nationality as a string: the API carries the nationality's name, stored as its id. */
  byName?: boolean;
}

export const EMPLOYEE_FIELDS: readonly EmployeeField[] = [
  { api: 'employee_id', prop: 'employeeId' },
  { api: 'first_name', prop: 'firstName' },
  { api: 'middle_name', prop: 'middleName' },
  { api: 'last_name', prop: 'lastName' },
  { api: 'gender', prop: 'gender' },
  { api: 'marital_status', prop: 'maritalStatus' },
  { api: 'birthday', prop: 'birthday' },
  { api: 'joined_date', prop: 'joinedDate' },
  { api: 'confirmation_date', prop: 'confirmationDate' },
  { api: 'termination_date', prop: 'terminationDate' },
  { api: 'nationality', prop: 'nationalityId', ref: 'nationalities', byName: true },
  { api: 'ssn_num', prop: 'ssnNum' },
  { api: 'nic_num', prop: 'nicNum' },
  { api: 'other_id', prop: 'otherId' },
  { api: 'driving_license', prop: 'drivingLicense' },
  { api: 'address1', prop: 'address1' },
  { api: 'address2', prop: 'address2' },
  { api: 'city', prop: 'city' },
  { api: 'country', prop: 'country' },
  { api: 'province', prop: 'province' },
  { api: 'postal_code', prop: 'postalCode' },
  { api: 'home_phone', prop: 'homePhone' },
  { api: 'mobile_phone', prop: 'mobilePhone' },
  { api: 'work_phone', prop: 'workPhone' },
  { api: 'work_email', prop: 'workEmail' },
  { api: 'private_email', prop: 'privateEmail' },
  { api: 'employment_status', prop: 'employmentStatusId', ref: 'employment-statuses' },
  { api: 'job_title', prop: 'jobTitleId', ref: 'job-titles' },
  { api: 'pay_grade', prop: 'payGradeId', ref: 'pay-grades' },
  { api: 'department', prop: 'departmentId', ref: 'departments' },
  { api: 'supervisor', prop: 'supervisorId', ref: 'employee' },
  { api: 'approver1', prop: 'approver1Id', ref: 'employee' },
  { api: 'approver2', prop: 'approver2Id', ref: 'employee' },
  { api: 'approver3', prop: 'approver3Id', ref: 'employee' },
  { api: 'calendar', prop: 'calendarId', ref: 'calendar' },
  { api: 'status', prop: 'status' },
];
