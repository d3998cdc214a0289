import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { sqlInstant } from '../../common/time/instants';
import { insertRows } from './seed-tools';
import { AuthUser } from '../../common/auth/auth-user';
import { EmployeeBankAccount } from '../../employees/bank-accounts/bank-account.entity';
import { EmployeesService } from '../../employees/employees.service';
import { RetentionService } from '../../privacy/retention.service';
import { Department } from '../../reference/entities/reference.entities';

/** The company's retention policies: what HR keeps of a leaver, and for how long (docs/api/privacy.md). */
const POLICIES = [
  { category: 'contact', keep_years: 2, action: 'anonymise' },
  { category: 'identity', keep_years: 2, action: 'anonymise' },
  { category: 'bank_accounts', keep_years: 1, action: 'delete' },
  { category: 'documents', keep_years: 6, action: 'delete' },
  { category: 'attendance', keep_years: 3, action: 'anonymise' },
  { category: 'timesheets', keep_years: 3, action: 'anonymise' },
  { category: 'leave', keep_years: 6, action: 'anonymise' },
  { category: 'notifications', keep_years: 1, action: 'delete' },
  { category: 'audit', keep_years: 10, action: 'anonymise' },
  { category: 'custom_fields', keep_years: 2, action: 'delete' },
] as const;

/**
 * The demo's privacy (issue 69): a retention policy for every category, and two alumni who left in
 * 2017 and 2020 with what HR still keeps of them (contact and identity fields, a bank account,
 * attendance notes from their last weeks), so that GET /retention/preview shows what the daily job
 * will do to them. Idempotent.
 */
export async function seedDemoPrivacy(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  const retention = app.get(RetentionService);
  if ((await retention.policies.list({ page: 1, limit: 1, sortOrder: 'ascend' })).total) return;
  const ds = app.get(DataSource);
  const sales = await ds.getRepository(Department).findOneOrFail({ where: { name: 'Sales' } });
  const alumni = [
    {
      code: 'A0001',
      first: 'Greta',
      last: 'Lindqvist',
      joined: '2012-04-02',
      left: '2017-09-29',
      iban: 'SE4550000000058398257466',
    },
    {
      code: 'A0002',
      first: 'Tomasz',
      last: 'Wierzbicki',
      joined: '2015-01-05',
      left: '2020-06-30',
      iban: 'PL61109010140000071219812874',
    },
  ];
  for (const a of alumni) {
    const employee = await app.get(EmployeesService).create(
      {
        employee_id: a.code,
        first_name: a.first,
        last_name: a.last,
        joined_date: a.joined,
        termination_date: a.left,
        status: 'Terminated',
        department: sales.id,
        private_email: `${a.first.toLowerCase()}.${a.last.toLowerCase()}@mail.example`,
        mobile_phone: '+46 70 123 45 67',
        birthday: '1984-03-14',
        ssn_num: `${a.code}-ID`,
        // The employee's properties that other modules bring (custom fields) ride along with the record's own.
        ...{ custom_fields: { tshirt_size: 'M' } },
      },
      actor,
    );
    await ds
      .getRepository(EmployeeBankAccount)
      .insert({ employeeId: employee.id, iban: a.iban, holderName: `${a.first} ${a.last}`, primary: true });
    const last = Date.parse(`${a.left}T00:00:00Z`);
    const at = (weeks: number, hour: number) => sqlInstant(new Date(last - weeks * 7 * 86_400_000 + hour * 3600_000));
    await insertRows(
      ds,
      'attendance',
      ['employee_id', 'in_time', 'out_time', 'duration_seconds', 'note'],
      [1, 2, 3].map((weeks) => [employee.id, at(weeks, 8), at(weeks, 16), 8 * 3600, 'handover of accounts']),
    );
  }
  for (const policy of POLICIES) await retention.policies.create({ ...policy });
}
