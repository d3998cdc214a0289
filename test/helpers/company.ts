import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { CreateEmployeeDto } from '../../src/employees/dto/employee.dto';
import { EmployeesService } from '../../src/employees/employees.service';
import { ReferenceService } from '../../src/reference/reference.service';
import { UserDepartment } from '../../src/users/entities/user-department.entity';
import { createUser, TestUser } from './test-app';

let seq = 0;

/** A valid employee body; override any field. */
export function employeeBody(overrides: Partial<CreateEmployeeDto> = {}): CreateEmployeeDto {
  seq += 1;
  return {
    employee_id: `T${String(seq).padStart(5, '0')}`,
    first_name: `First${seq}`,
    last_name: `Last${seq}`,
    joined_date: '2020-01-15',
    work_email: `employee${seq}@company.test`,
    ...overrides,
  };
}

export interface Company {
  departments: { company: number; engineering: number; platform: number; sales: number };
  jobTitle: number;
  /** Employees: a manager in Engineering, its two reports (one in Platform), a report of a report, an outsider in Sales. */
  emp: { manager: number; report1: number; report2: number; grandReport: number; outsider: number };
  users: { admin: TestUser; restricted: TestUser; manager: TestUser; employee: TestUser; orphan: TestUser };
}

/** Builds the fixture company through the services. The Restricted Admin holds Engineering (with Platform below it). */
export async function buildCompany(app: NestFastifyApplication): Promise<Company> {
  const ref = app.get(ReferenceService);
  const employees = app.get(EmployeesService);
  const dep = (name: string, parent: number | null) => ref.addDepartment(name, parent);
  const company = await dep(`Company ${++seq}`, null);
  const engineering = await dep(`Engineering ${seq}`, company);
  const platform = await dep(`Platform ${seq}`, engineering);
  const sales = await dep(`Sales ${seq}`, company);
  const jobTitle = (await ref.crud('job-titles').create({ name: `Engineer ${seq}` })).id;

  const make = async (o: Partial<CreateEmployeeDto>) => (await employees.create(employeeBody(o))).id;
  const manager = await make({ department: engineering, job_title: jobTitle });
  const report1 = await make({ department: platform, supervisor: manager, job_title: jobTitle });
  const report2 = await make({ department: engineering, supervisor: manager });
  const grandReport = await make({ department: platform, supervisor: report1 });
  const outsider = await make({ department: sales });

  const restricted = await createUser(app, 'Restricted Admin');
  await app
    .get<Repository<UserDepartment>>(getRepositoryToken(UserDepartment))
    .insert({ userId: restricted.user.id, departmentId: engineering });
  return {
    departments: { company, engineering, platform, sales },
    jobTitle,
    emp: { manager, report1, report2, grandReport, outsider },
    users: {
      admin: await createUser(app, 'Admin'),
      restricted,
      manager: await createUser(app, 'Manager', { employeeId: manager }),
      employee: await createUser(app, 'Employee', { employeeId: report1 }),
      orphan: await createUser(app, 'Employee'),
    },
  };
}
