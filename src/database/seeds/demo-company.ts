import { INestApplicationContext } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { AuthUser } from '../../common/auth/auth-user';
import { DataSource } from 'typeorm';
import { EmployeesService } from '../../employees/employees.service';
import { Department } from '../../reference/entities/reference.entities';
import { NamedKind, ReferenceService } from '../../reference/reference.service';
import { rebuildInsightRollups } from '../insight-rollups';
import { seedDemoAttendance } from './demo-attendance';
import { seedDemoLeaveAndTimesheets } from './demo-leave-timesheets';
import { LeaveAccrualsService } from '../../leave/ledger/leave-accruals.service';
import { seedDemoPayroll, seedDemoPayrollRuns } from './demo-payroll';
import { seedDemoHistory } from './demo-history';
import { seedDemoExpenses } from './demo-expenses';
import { seedDemoCalendars } from './demo-calendars';
import { seedDemoCustomFields } from './demo-custom-fields';

const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'Dev',
  'Elena',
  'Femi',
  'Grace',
  'Hugo',
  'Ines',
  'Jonas',
  'Kira',
  'Luca',
  'Maya',
  'Nils',
  'Olga',
];
const LAST = [
  'Adeyemi',
  'Bauer',
  'Costa',
  'Dubois',
  'Eriksen',
  'Fischer',
  'Garcia',
  'Haddad',
  'Ito',
  'Jansen',
  'Kowalski',
  'Lopez',
];
const COUNTRIES = ['DE', 'FR', 'ES', 'NL', 'PL', 'PT'];

const NAMED: Array<[NamedKind, string[]]> = [
  [
    'job-titles',
    [
      'Chief Executive',
      'Engineering Manager',
      'Software Engineer',
      'Product Manager',
      'Sales Manager',
      'Account Executive',
      'HR Manager',
      'Accountant',
      'Senior Software Engineer',
    ],
  ],
  ['employment-statuses', ['Full Time', 'Part Time', 'Contract', 'Intern']],
  ['nationalities', ['German', 'French', 'Spanish', 'Dutch', 'Polish', 'Portuguese']],
  ['languages', ['English', 'German', 'French', 'Spanish']],
  ['skills', ['TypeScript', 'SQL', 'Negotiation', 'Payroll']],
  ['certifications', ['AWS Solutions Architect', 'CIPD', 'ACCA']],
  ['education-levels', ['Bachelor', 'Master', 'Doctorate']],
];

/** employee_id of the head of Engineering (the demo Manager) and of one of its reports (the demo Employee). */
export const DEMO_MANAGER_EMPLOYEE = 'E0002';
export const DEMO_EMPLOYEE_EMPLOYEE = 'E0007';
export const DEMO_RESTRICTED_DEPARTMENT = 'People & Finance';

/**
 * The demo company's records: a department tree, reference data and 60 employees (61 with last month’s joiner) with
 * supervisors. Does nothing when the demo database already holds them (the seed is idempotent).
 */
export async function seedDemoCompany(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  if (await app.get(DataSource).getRepository(Department).exists()) return;
  const ref = app.get(ReferenceService);
  const employees = app.get(EmployeesService);

  const ids: Record<string, number> = {};
  for (const [kind, names] of NAMED) {
    for (const name of names) ids[name] = (await ref.crud(kind).create({ name })).id;
  }
  for (const [i, grade] of ['G1', 'G2', 'G3', 'G4'].entries()) {
    await ref.payGrades.create({
      name: grade,
      currency: 'EUR',
      min_salary: `${30000 + i * 15000}.00`,
      max_salary: `${45000 + i * 20000}.00`,
    });
  }
  const dep = (name: string, parent: number | null) => ref.addDepartment(name, parent);
  const company = await dep('Demo Company', null);
  const engineering = await dep('Engineering', company);
  const platform = await dep('Platform', engineering);
  const product = await dep('Product', engineering);
  const sales = await dep('Sales', company);
  const people = await dep('People & Finance', company);

  let n = 0;
  const hire = async (department: number, jobTitle: string, supervisor: number | null) => {
    n += 1;
    const first = FIRST[n % FIRST.length];
    const last = LAST[(n * 7) % LAST.length];
    const e = await employees.create(
      {
        employee_id: `E${String(n).padStart(4, '0')}`,
        first_name: first,
        last_name: last,
        gender: n % 2 ? 'Female' : 'Male',
        birthday: `${1970 + (n % 30)}-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}`,
        joined_date: `${2015 + (n % 10)}-${String(((n * 5) % 12) + 1).padStart(2, '0')}-01`,
        work_email: `${first}.${last}.${n}@demo.example`.toLowerCase(),
        nationality: NAMED[2][1][n % 6],
        country: COUNTRIES[n % COUNTRIES.length],
        city: ['Berlin', 'Paris', 'Madrid', 'Amsterdam', 'Warsaw', 'Lisbon'][n % 6],
        employment_status: ids[n % 9 === 0 ? 'Contract' : 'Full Time'],
        job_title: ids[jobTitle],
        department,
        supervisor: supervisor ?? undefined,
      },
      actor,
    );
    return e.id;
  };

  const ceo = await hire(company, 'Chief Executive', null);
  const engHead = await hire(engineering, 'Engineering Manager', ceo);
  const platformLead = await hire(platform, 'Engineering Manager', engHead);
  const productLead = await hire(product, 'Product Manager', engHead);
  const salesHead = await hire(sales, 'Sales Manager', ceo);
  const peopleHead = await hire(people, 'HR Manager', ceo);
  const team = async (count: number, department: number, jobTitle: string, supervisor: number) => {
    for (let i = 0; i < count; i++) await hire(department, jobTitle, supervisor);
  };
  await team(8, engineering, 'Software Engineer', engHead);
  await team(16, platform, 'Software Engineer', platformLead);
  await team(10, product, 'Software Engineer', productLead);
  await team(14, sales, 'Account Executive', salesHead);
  await team(6, people, 'Accountant', peopleHead);
  await seedDemoLeaveAndTimesheets(app.get(DataSource), app.get(CompanyClock).now());
  await seedDemoAttendance(app.get(DataSource), app.get(CompanyClock).now()); // after leave: nobody punches in on a day of approved leave
  await rebuildInsightRollups(app.get(DataSource)); // the attendance and time entries went in as bulk inserts
  const pay = await seedDemoPayroll(app, actor);
  if (pay) await seedDemoHistory(app, actor, pay);
  await seedDemoCalendars(app, actor);
  if (pay) await seedDemoExpenses(app, actor); // before the runs: the month before last pays its claims
  await seedDemoPayrollRuns(app, actor, app.get(CompanyClock).now());
  // After the history: each month's accrual by the department, status and grade of its day.
  await app.get(LeaveAccrualsService).accrue(undefined, true); // the accruals of every year up to the company's day
  await seedDemoCustomFields(app, actor); // every employee's, the joiner's too
}
