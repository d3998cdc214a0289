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
 * lists), a monthly remote-work allowance (a decimal the Admins keep), a visa expiry (a personal
 * date, null to Managers), whether the employee works remotely (a boolean each employee sets
 * itself) and an onboarding buddy (another employee); every employee has values. A dated work
 * location: three employees in the office from today, one of them hybrid from next month (a
 * Scheduled change, read with as_of and in the history).
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
    visible_to: ['Admin', 'Restricted Admin', 'self'],
  });
  await fields.create({ key: 'visa_expiry', label: 'Visa expiry', type: 'date', pii: true });
  await fields.create({ key: 'remote_worker', label: 'Works remotely', type: 'boolean', editable_by: 'self' });
  await fields.create({ key: 'buddy', label: 'Onboarding buddy', type: 'employee' });

  // Written as rows in one transaction (61 PUTs, each with its history, audit and event, took seconds).
  const ds = app.get(DataSource);
  const byKey = new Map((await ds.getRepository(CustomField).find()).map((f) => [f.key, f]));
  const ids = (await ds.getRepository(Employee).find({ select: { id: true }, order: { id: 'ASC' } })).map((e) => e.id);
  const rows: unknown[][] = [];
  for (const [n, employeeId] of ids.entries()) {
    const values: Record<string, unknown> = { tshirt_size: SIZES[n % SIZES.length], remote_worker: n % 3 === 0 };
    if (n % 3 === 0) values.remote_allowance = (50 + (n % 4) * 12.5).toFixed(2);
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

  await fields.create({
    key: 'work_location',
    label: 'Work location',
    type: 'select',
    options: ['Office', 'Hybrid', 'Remote'].map((value) => ({ value, label: value })),
    dated: true,
    in_list: true,
  });
  const history = app.get(EmploymentHistoryService);
  const today = await app.get(CompanyClock).today();
  const active = await ds.getRepository(Employee).find({ where: { status: 'Active' }, order: { id: 'ASC' }, take: 3 });
  const located = (e: Employee, day: string, place: string, reason: string) =>
    history.record(actor, e.id, {
      effective_date: day,
      reason,
      // A property custom fields add to the change's fields (declareDatedProperty).
      fields: { custom_fields: { work_location: place } } as ChangeFieldsDto,
    });
  for (const e of active) await located(e, today > e.joinedDate ? today : e.joinedDate, 'Office', 'Office desk');
  if (active[0]) await located(active[0], addDays(lastOfMonth(today), 1), 'Hybrid', 'Hybrid from next month');
}
