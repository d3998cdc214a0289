import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AnonymisedSubject, PersonalData } from '../common/privacy/personal-data';
import { rowsCategory } from '../common/privacy/retention';
import { storedRowList, SubjectExport } from '../common/privacy/subject-export';
import { Employee } from './entities/employee.entity';
import {
  EmployeeCertification,
  EmployeeEducation,
  EmployeeLanguage,
  EmployeeSkill,
  EmployeeStatusMessage,
} from './entities/employee-items.entity';

/** The fields whose values identify the person wherever they stand (an e-mail address, a passport number). */
const IDENTIFYING: ReadonlyArray<keyof Employee> = [
  'ssnNum',
  'nicNum',
  'otherId',
  'drivingLicense',
  'address1',
  'address2',
  'homePhone',
  'mobilePhone',
  'workPhone',
  'workEmail',
  'privateEmail',
];

/** Retention category `contact`: the record's addresses, phone numbers and e-mail addresses. */
const CONTACT: ReadonlyArray<keyof Employee> = [
  'address1',
  'address2',
  'city',
  'country',
  'province',
  'postalCode',
  'homePhone',
  'mobilePhone',
  'workPhone',
  'workEmail',
  'privateEmail',
];

/** Retention category `identity`: identity numbers, birth date, nationality, gender, marital status. */
const IDENTITY: ReadonlyArray<keyof Employee> = [
  'ssnNum',
  'nicNum',
  'otherId',
  'drivingLicense',
  'birthday',
  'nationalityId',
  'gender',
  'maritalStatus',
];

/** The employee's personal fields: cleared (names become the subject's name). Employment facts stay: insights and payroll count them. */
const CLEARED: ReadonlyArray<keyof Employee> = ['middleName', ...IDENTITY, ...CONTACT];

/** The API's names of personal fields, as audit entries and events carry them. */
export const EMPLOYEE_PERSONAL_KEYS = [
  'first_name',
  'middle_name',
  'last_name',
  'gender',
  'marital_status',
  'birthday',
  'nationality',
  'ssn_num',
  'nic_num',
  'other_id',
  'driving_license',
  'address1',
  'address2',
  'city',
  'country',
  'province',
  'postal_code',
  'home_phone',
  'mobile_phone',
  'work_phone',
  'work_email',
  'private_email',
  'message',
];

/**
 * What the employees module keeps of a person (issue 69): the record's names, contact, identity,
 * address and birth date, and its status messages. Anonymised: the names become "Former employee
 * <id>", the rest cleared, the status messages deleted.
 */
@Injectable()
export class EmployeesPersonalData {
  constructor(registry: PersonalData) {
    registry.register(
      {
        name: 'employees',
        order: 10,
        values: (em, id) => this.values(em, id),
        anonymise: (em, subject) => this.anonymise(em, subject),
        export: (em, id, out) => this.export(em, id, out),
      },
      EMPLOYEE_PERSONAL_KEYS,
    );
    // Retention (both actions clear the fields: the record itself stays, payroll and insights count it).
    for (const [category, description, fields] of [
      ['contact', 'addresses, phone numbers and e-mail addresses on the employee record', CONTACT],
      ['identity', 'identity numbers, birth date, nationality, gender and marital status on the employee record', IDENTITY],
    ] as const) {
      const rule = { entity: Employee, key: 'id', clear: fields };
      registry.retain(rowsCategory(category, description, { anonymise: [rule], delete: [rule] }));
    }
  }

  private async values(em: EntityManager, employeeId: number): Promise<Array<string | null>> {
    const e = await em.getRepository(Employee).findOneBy({ id: employeeId });
    if (!e) return [];
    const messages = await em.getRepository(EmployeeStatusMessage).findBy({ employeeId });
    // What identifies the person in other text: its full names (a first or last name alone would
    // also match other people's), contact, identity numbers and address lines, and its own status
    // messages. The record's other fields are cleared below, not searched for.
    return [
      `${e.firstName} ${e.lastName}`,
      e.middleName ? `${e.firstName} ${e.middleName} ${e.lastName}` : null,
      ...IDENTIFYING.map((k) => e[k] as string | null),
      ...messages.map((m) => m.message),
    ];
  }

  /** employee.json: the record as stored, with its skills, education, certifications, languages and status messages. */
  private async export(em: EntityManager, id: number, out: SubjectExport): Promise<void> {
    const [employee] = await storedRowList(em, { name: 'employee', entity: Employee, where: { id } });
    out.section('employee', employee ?? null);
    const items = {
      skills: EmployeeSkill,
      educations: EmployeeEducation,
      certifications: EmployeeCertification,
      languages: EmployeeLanguage,
      status_messages: EmployeeStatusMessage,
    };
    for (const [name, entity] of Object.entries(items))
      out.section(name, await storedRowList(em, { name, entity, where: { employeeId: id } }));
  }

  private async anonymise(em: EntityManager, subject: AnonymisedSubject): Promise<void> {
    const id = subject.employeeId;
    await em.getRepository(EmployeeStatusMessage).delete({ employeeId: id });
    const cleared = Object.fromEntries(CLEARED.map((k) => [k, null]));
    await em.getRepository(Employee).update({ id }, { ...cleared, firstName: 'Former employee', lastName: String(id) });
    // The name search follows the row (SQLite's index by its triggers, MariaDB's FULLTEXT index).
  }
}
