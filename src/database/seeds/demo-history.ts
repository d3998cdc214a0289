import { INestApplicationContext } from '@nestjs/common';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { addDays } from '../../common/time/days';
import { withEmployeeLock } from '../../employees/employee-lock';
import { Employee } from '../../employees/entities/employee.entity';
import { DatedValues, SalaryLine } from '../../employees/history/employment-history';
import { EmploymentHistoryWriter } from '../../employees/history/employment-history.writer';
import { JobTitle } from '../../reference/entities/reference.entities';

/** The salary lines of each employee, as payroll holds them today. */
async function salaries(ds: DataSource): Promise<Map<number, SalaryLine[]>> {
  const rows = await ds.query<Array<{ employee_id: number | string; component_id: number | string; amount: string | number }>>(
    'SELECT employee_id, component_id, amount FROM employee_salaries ORDER BY employee_id, component_id',
  );
  const out = new Map<number, SalaryLine[]>();
  for (const r of rows) {
    const line = { component: Number(r.component_id), amount: new Decimal(String(r.amount)).toFixed(2) };
    out.set(Number(r.employee_id), [...(out.get(Number(r.employee_id)) ?? []), line]);
  }
  return out;
}

/** The first line's amount (the base pay) times `factor`, to the cent. */
const scaled = (lines: SalaryLine[], factor: string): SalaryLine[] =>
  lines.map((l, i) => (i === 0 ? { ...l, amount: new Decimal(l.amount).times(factor).toFixed(2, Decimal.ROUND_HALF_UP) } : l));

/**
 * Two years of the demo company's employment history (issue 43): yearly raises ending at today's
 * salary, promotions of engineers to Senior Software Engineer with a raise, transfers between
 * Platform and Product, one Account Executive leaving at the end of a notice period next month,
 * and the demo Employee's promotion scheduled for the first of next month.
 */
export async function seedDemoHistory(app: INestApplicationContext): Promise<void> {
  const ds = app.get(DataSource);
  const writer = app.get(EmploymentHistoryWriter);
  const today = await writer.today();
  const employees = await ds.getRepository(Employee).find({ order: { id: 'ASC' } });
  const senior = (await ds.getRepository(JobTitle).findOneByOrFail({ name: 'Senior Software Engineer' })).id;
  const engineer = (await ds.getRepository(JobTitle).findOneByOrFail({ name: 'Software Engineer' })).id;
  const pay = await salaries(ds);
  const record = (e: Employee, day: string, reason: string, fields: Partial<DatedValues>, salary: SalaryLine[] | null) =>
    withEmployeeLock(ds, e.id, (em) => writer.recordIn(em, e.id, { effectiveDate: day, reason, fields, salary }, null));
  const yearsAgo = (n: number) => `${Number(today.slice(0, 4)) - n}${today.slice(4, 7)}-01`;

  const veterans = employees.filter((e) => e.joinedDate <= yearsAgo(2) && pay.has(e.id));
  const engineers = veterans.filter((e) => e.jobTitleId === engineer);
  const promoted = new Set(engineers.slice(0, 4));
  // Yearly raises, the older salaries first and today's last (today's amounts stay what payroll
  // pays); four engineers got today's salary with a promotion instead of the last review.
  for (const e of veterans.filter((x, i) => i % 2 === 0 || promoted.has(x))) {
    const lines = pay.get(e.id)!;
    await record(e, yearsAgo(2), 'Yearly review', {}, scaled(lines, '0.90'));
    await record(e, yearsAgo(1), 'Yearly review', {}, scaled(lines, '0.95'));
    if (promoted.has(e)) await record(e, addDays(yearsAgo(1), 45), 'Promotion', { job_title: senior }, lines);
    else await record(e, addDays(yearsAgo(0), -61), 'Yearly review', {}, lines);
  }
  const [platform, product] = [engineers[5]?.departmentId, engineers[6]?.departmentId];
  for (const [i, e] of engineers.slice(5, 8).entries()) {
    const to = i % 2 === 0 ? product : platform;
    if (to && to !== e.departmentId) await record(e, addDays(yearsAgo(1), -90), 'Transfer', { department: to }, null);
  }
  // Leaving at the end of a notice period: terminated by the daily job on that day.
  const leaver = employees.find((e) => e.employeeId === 'E0050' && !e.terminationDate);
  if (leaver) await ds.getRepository(Employee).update({ id: leaver.id }, { terminationDate: addDays(today, 30) });
  // Scheduled for next month: the demo Employee (E0007) is promoted with a raise.
  const next = employees.find((e) => e.employeeId === 'E0007');
  const firstOfNextMonth = addDays(`${today.slice(0, 7)}-01`, 32).slice(0, 7) + '-01';
  if (next && pay.has(next.id))
    await record(next, firstOfNextMonth, 'Promotion', { job_title: senior }, scaled(pay.get(next.id)!, '1.10'));
}
