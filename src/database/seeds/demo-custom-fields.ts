import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CustomFieldsService } from '../../custom-fields/custom-fields.service';
import { Employee } from '../../employees/entities/employee.entity';
import { CustomField } from '../../custom-fields/entities/custom-field.entity';
import { encode } from '../../custom-fields/values/custom-field-codec';
import { insertRows } from './seed-tools';
import { AuthUser } from '../../common/auth/auth-user';
import { CompanyClock } from '../../common/time/company-clock';
import { addDays, lastOfMonth } from '../../common/time/days';
import { EmploymentHistoryService } from '../../employees/history/employment-history.service';
import { ChangeFieldsDto } from '../../employees/history/dto/employment-history.dto';

const SIZES = ['S', 'M', 'L', 'XL'];

/**
 * The demo's custom fields (issue 66, docs/api/custom-fields.md): a T-shirt size (a select shown in
 * lists), a monthly remote-work allowance (a dated decimal the Admins keep: set through the
 * employment history from each remote worker's joined date, and raised next month for the first of
 * them, a Scheduled change read with as_of and in the history), a visa expiry (a personal date, null
 * to Managers), whether the employee works remotely (a boolean each employee sets itself) and an
 * onboarding buddy (another employee); every employee has values.
 */
export async function seedDemoCustomFields(app: INestApplicationContext, actor: AuthUser): Promise<void> {
  const fields = app.get(CustomFieldsService);
  await fields.create({
    key: 'tshirt_size',
    label: 'T-shirt size',
    type: 'select',
    options: SIZES.map((value) => ({ value, label: value })),
    in_list: true,
    description: 'For the company hoodie',
  });
  await fields.create({
    key: 'remote_allowance',
    label: 'Remote-work allowance (per month)',
    type: 'decimal',
    dated: true,
    visible_to: ['Admin', 'Restricted Admin', 'self'],
  });
  await fields.create({ key: 'visa_expiry', label: 'Visa expiry', type: 'date', pii: true });
  await fields.create({ key: 'remote_worker', label: 'Works remotely', type: 'boolean', editable_by: 'self' });
  await fields.create({ key: 'buddy', label: 'Onboarding buddy', type: 'employee' });

  // Written as rows in one transaction (61 PUTs, each with its history, audit and event, took seconds).
  const ds = app.get(DataSource);
  const byKey = new Map((await ds.getRepository(CustomField).find()).map((f) => [f.key, f]));
  const employees = await ds.getRepository(Employee).find({ order: { id: 'ASC' } });
  const ids = employees.map((e) => e.id);
  const rows: unknown[][] = [];
  for (const [n, employeeId] of ids.entries()) {
    const values: Record<string, unknown> = { tshirt_size: SIZES[n % SIZES.length], remote_worker: n % 3 === 0 };
    if (n % 7 === 2) values.visa_expiry = `${2027 + (n % 3)}-${String((n % 12) + 1).padStart(2, '0')}-15`;
    if (n > 0 && n % 5 === 0) values.buddy = ids[n - 1];
    for (const [key, value] of Object.entries(values)) {
      const field = byKey.get(key)!;
      const encoded = encode(field, value);
      if ('problem' in encoded) throw new Error(`demo custom field ${key}: ${encoded.problem}`);
      for (const r of encoded.rows) rows.push([field.id, employeeId, r.item, r.text, r.key, r.number, r.unique]);
    }
  }
  const columns = ['field_id', 'employee_id', 'item', 'value_text', 'value_key', 'value_number', 'unique_key'];
  await insertRows(ds, 'custom_field_values', columns, rows);

  // The dated allowance: a change of the history per remote worker (its values come from there).
  const history = app.get(EmploymentHistoryService);
  const allowance = (e: Employee, day: string, amount: string, reason: string) =>
    history.record(actor, e.id, {
      effective_date: day,
      reason,
      // A property custom fields add to a change's fields (declareDatedProperty).
      fields: { custom_fields: { remote_allowance: amount } } as ChangeFieldsDto,
    });
  const remote = employees.filter((_, n) => n % 3 === 0);
  for (const [n, e] of remote.entries()) await allowance(e, e.joinedDate, (50 + (n % 4) * 12.5).toFixed(2), 'Remote work');
  const first = remote.find((e) => e.status === 'Active');
  const today = await app.get(CompanyClock).today();
  if (first) await allowance(first, addDays(lastOfMonth(today), 1), '75.00', 'Allowance raised next month');
}
