import { INestApplicationContext } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import { AuthUser } from '../../common/auth/auth-user';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { addDays } from '../../common/time/days';
import { withEmployeeLock } from '../../employees/core/employee-lock';
import { Employee } from '../../employees/entities/employee.entity';
import { DatedValues, SalaryLine } from '../../employees/history/employment-history';
import { EmploymentHistoryWriter } from '../../employees/history/employment-history.writer';
import { JobTitle } from '../../reference/entities/reference.entities';

/** The first line's amount (the base pay) times `factor`, to the cent. */
const scaled = (lines: SalaryLine[], factor: string): SalaryLine[] =>
  lines.map((l, i) => (i === 0 ? { ...l, amount: new Decimal(l.amount).times(factor).toFixed(2, Decimal.ROUND_HALF_UP) } : l));

/** The first of today's month `n` years back: the demo's yearly reviews. */
const yearsAgo = (today: string, n: number) => `${Number(today.slice(0, 4)) - n}${today.slice(4, 7)}-01`;

/** Joined at least two years ago: paid a starting salary then, raised by its reviews since. */
export const isVeteran = (e: Employee, today: string): boolean => e.joinedDate <= yearsAgo(today, 2);

/** A veteran's salary when it joined: 85 % of today's base pay (the other lines as today). */
export const startingSalary = (today: SalaryLine[]): SalaryLine[] => scaled(today, '0.85');

/**
 * Two years of the demo company's employment history (issue 43): yearly raises ending at today's
 * salary, promotions of engineers to Senior Software Engineer with a raise, transfers between
 * Platform and Product, one Account Executive leaving at the end of a notice period next month,
 * and the demo Employee's promotion scheduled for the first of next month.
 */
export async function seedDemoHistory(
  app: INestApplicationContext,
  actor: AuthUser,
  pay: Map<number, SalaryLine[]>,
): Promise<void> {
  const ds = app.get(DataSource);
  const writer = app.get(EmploymentHistoryWriter);
  const today = await app.get(CompanyClock).today();
  const employees = await ds.getRepository(Employee).find({ order: { id: 'ASC' } });
  const senior = (await ds.getRepository(JobTitle).findOneByOrFail({ name: 'Senior Software Engineer' })).id;
  const engineer = (await ds.getRepository(JobTitle).findOneByOrFail({ name: 'Software Engineer' })).id;
  const record = (e: Employee, day: string, reason: string, fields: Partial<DatedValues>, salary: SalaryLine[] | null) =>
    withEmployeeLock(ds, e.id, (em) => writer.recordIn(em, e.id, { effectiveDate: day, reason, fields, salary }, actor.id));
  const veterans = employees.filter((e) => isVeteran(e, today) && pay.has(e.id));
  const engineers = veterans.filter((e) => e.jobTitleId === engineer);
  const promoted = new Set(engineers.slice(0, 4));
  // Every veteran joined on its starting salary (seedDemoPayroll); its reviews are raises that end
  // at today's salary (today's amounts stay what payroll pays): half of them three reviews, the
  // others one a year ago; four engineers got today's salary with a promotion instead of the last review.
  for (const [i, e] of veterans.entries()) {
    const lines = pay.get(e.id)!;
    if (i % 2 === 0 || promoted.has(e)) {
      await record(e, yearsAgo(today, 2), 'Yearly review', {}, scaled(lines, '0.90'));
      await record(e, yearsAgo(today, 1), 'Yearly review', {}, scaled(lines, '0.95'));
      if (promoted.has(e)) await record(e, addDays(yearsAgo(today, 1), 45), 'Promotion', { job_title: senior }, lines);
      else await record(e, addDays(yearsAgo(today, 0), -61), 'Yearly review', {}, lines);
    } else await record(e, yearsAgo(today, 1), 'Yearly review', {}, lines);
  }
  const [platform, product] = [engineers[5]?.departmentId, engineers[6]?.departmentId];
  for (const [i, e] of engineers.slice(5, 8).entries()) {
    const to = i % 2 === 0 ? product : platform;
    if (to && to !== e.departmentId) await record(e, addDays(yearsAgo(today, 1), -90), 'Transfer', { department: to }, null);
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
