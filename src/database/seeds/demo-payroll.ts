import { INestApplicationContext } from '@nestjs/common';
import { CompanyClock } from '../../common/time/company-clock';
import Decimal from 'decimal.js';
import { DataSource } from 'typeorm';
import { AttendanceService } from '../../attendance/attendance.service';
import { AuthUser } from '../../common/auth/auth-user';
import { Employee } from '../../employees/entities/employee.entity';
import { EmployeesService } from '../../employees/employees.service';
import { LeaveType } from '../../leave/entities/leave.entities';
import { Department } from '../../reference/entities/reference.entities';
import { PayrollColumn } from '../../payroll/entities/payroll-config.entities';
import { PayrollTestsService } from '../../payroll/config/payroll-tests.service';
import { PayrollConfigService } from '../../payroll/config/payroll-config.service';
import { PayrollTablesService } from '../../payroll/config/payroll-tables.service';
import { EmploymentHistoryService } from '../../employees/history/employment-history.service';
import { SalaryLine } from '../../employees/history/employment-history';
import { isVeteran, startingSalary } from './demo-history';
import { PayrollEmployeesService } from '../../payroll/config/payroll-employees.service';
import { PayrollRunsService } from '../../payroll/runs/payroll-runs.service';
import { PayrollTransitionsService } from '../../payroll/runs/payroll-transitions.service';
import { PayslipsService } from '../../payroll/payslips/payslips.service';
import { PayslipTemplatesService } from '../../payroll/payslips/payslip-templates.service';

/**
 * Payroll configuration for the demo company: salary components, two deduction groups, salaries in
 * EUR (and GBP for Sales), a payroll employee each, and a column set a newcomer can read in
 * GET /payroll_config/payroll-columns: basic, allowances, overtime from attendance, unpaid leave
 * from leave, gross, a progressive tax script and net. Does nothing when columns exist.
 */
export async function seedDemoPayroll(app: INestApplicationContext, actor: AuthUser): Promise<Map<number, SalaryLine[]> | null> {
  const ds = app.get(DataSource);
  if (await ds.getRepository(PayrollColumn).exists()) return null;
  const config = app.get(PayrollConfigService);
  const payroll = app.get(PayrollEmployeesService);

  const component = async (name: string, component_type: string, details: string) =>
    (await config.components.create({ name, component_type, details })).id;
  const basic = await component('Basic salary', 'Earning', 'monthly base pay');
  const housing = await component('Housing allowance', 'Benefit', 'flat monthly amount');
  const transport = await component('Transport allowance', 'Benefit', 'flat monthly amount');
  const germany = (await config.groups.create({ name: 'Germany', description: 'EUR payroll, German tax brackets' })).id;
  const uk = (await config.groups.create({ name: 'United Kingdom', description: 'GBP payroll' })).id;

  const sales = await ds.getRepository(Department).findOneOrFail({ where: { name: 'Sales' } });
  const employees = await ds.getRepository(Employee).find({ order: { id: 'ASC' } });
  const today = await app.get(CompanyClock).today();
  // Today's pay of each employee; a veteran joined on its starting salary, which its reviews raise
  // to today's (seedDemoHistory).
  const pay = new Map<number, SalaryLine[]>();
  for (const [i, e] of employees.entries()) {
    const gbp = e.departmentId === sales.id;
    const lines = [
      { component: basic, amount: `${3000 + ((i * 97) % 4000)}.00` },
      { component: housing, amount: gbp ? '650.00' : '500.00' },
      { component: transport, amount: '85.50' },
    ];
    pay.set(e.id, lines);
    await payroll.setSalary(actor, e.id, { items: isVeteran(e, today) ? startingSalary(lines) : lines });
    await payroll.save(actor, {
      employee: e.id,
      pay_frequency: 4,
      currency: gbp ? 'GBP' : 'EUR',
      deduction_group: gbp ? uk : germany,
    });
  }

  const unpaid = await ds.getRepository(LeaveType).findOne({ where: { name: 'Unpaid' } });
  const column = (name: string, variable: string, rest: Record<string, unknown>) =>
    config.saveColumn({ name, variable, ...rest });
  const basicColumn = await column('Basic', 'basic', { salary_components: [basic] });
  await column('Allowances', 'allowances', { salary_components: [housing, transport] });
  // Past 9.5 hours a day: the demo's ordinary days are shorter, so overtime is the exception it is.
  await column('Overtime hours', 'overtime_hours', {
    calculation_hook: 'overtime_hours',
    calculation_hook_args: { daily_threshold: 9.5 },
  });
  await column('Overtime pay', 'overtime_pay', { script: 'round(basic / 173.33, 4) * overtime_hours * 1.5' });
  await column('Unpaid leave days', 'unpaid_days', {
    calculation_hook: 'approved_leave_days',
    calculation_hook_args: unpaid ? { leave_type: unpaid.id } : {},
  });
  await column('Unpaid leave', 'unpaid_leave', { script: 'unpaid_days * basic / 21.67' });
  const annual = await ds.getRepository(LeaveType).findOneOrFail({ where: { name: 'Annual' } });
  await column('Encashed leave days', 'encashed_days', {
    calculation_hook: 'leave_encashment_days',
    calculation_hook_args: { leave_type: annual.id },
  });
  await column('Leave encashment', 'leave_encashment', { script: 'encashed_days * basic / 21.67' });
  // What back-dated salary changes still owe (issue 44): basic recomputed for each paid month.
  await column('Arrears', 'arrears', { calculation_hook: 'arrears', calculation_hook_args: { column: basicColumn.id } });
  await column('Gross', 'gross', { script: 'basic + allowances + overtime_pay + leave_encashment + arrears - unpaid_leave' });
  // A progressive monthly tax from a dated table: last year's brackets and this year's (issue 44).
  const year = app.get(CompanyClock).now().getUTCFullYear();
  const bracket = (from: number, to: number | null, rate: string) => ({
    from: `${from}.00`,
    to: to === null ? null : `${to}.00`,
    rate,
    fixed: '0.00',
  });
  await app.get(PayrollTablesService).create({
    name: 'income_tax',
    kind: 'brackets',
    versions: [
      {
        effective_from: `${year - 1}-01-01`,
        rows: [bracket(0, 950, '0'), bracket(950, 2900, '0.14'), bracket(2900, 5800, '0.24'), bracket(5800, null, '0.42')],
      },
      {
        effective_from: `${year}-01-01`,
        rows: [bracket(0, 1000, '0'), bracket(1000, 3000, '0.14'), bracket(3000, 6000, '0.24'), bracket(6000, null, '0.42')],
      },
    ],
  });
  await column('Income tax', 'tax', { script: 'bracket("income_tax", gross)' });
  // Approved expense claims (issue 68): paid with the net pay, untaxed; the payroll that completes pays each once.
  await column('Expenses', 'expenses', { calculation_hook: 'expenses' });
  await column('Net pay', 'net', { script: 'gross - tax + expenses' });
  // Payroll tests pin what the columns give three representative employees (computed by hand).
  const tests = app.get(PayrollTestsService).tests;
  const pin = (name: string, salary: Record<number, string>, hooks: Record<string, string>, expected: Record<string, string>) =>
    tests.create({ name, employee: { salary, hooks, fields: {} }, expected });
  await pin(
    'Part-timer below the first bracket',
    { [basic]: '900.00', [housing]: '0', [transport]: '0' },
    {},
    {
      gross: '900.00',
      tax: '0.00',
      net: '900.00',
    },
  );
  // 6933.20 / 173.33 = 40 an hour; 10 h × 40 × 1.5 = 600; gross 8118.70; tax 1000 + 2118.70 × 0.42 = 1889.85.
  await pin(
    'Ten overtime hours, top bracket',
    { [basic]: '6933.20', [housing]: '500.00', [transport]: '85.50' },
    { overtime_hours: '10' },
    { overtime_pay: '600.00', gross: '8118.70', tax: '1889.85', net: '6228.85' },
  );
  // 2167.00 / 21.67 = 100 a day; gross 2167 + 585.50 − 200 = 2552.50; tax 1552.50 × 0.14 = 217.35.
  await pin(
    'Two unpaid days',
    { [basic]: '2167.00', [housing]: '500.00', [transport]: '85.50' },
    { approved_leave_days: '2' },
    { unpaid_leave: '200.00', gross: '2552.50', tax: '217.35', net: '2335.15' },
  );
  return pay;
}

/**
 * Waits (polling) until the payroll leaves a running state; the demo shows settled runs. The bound is
 * a time, not a count of polls: on a loaded CI machine (three jest workers, each seeding a demo with
 * Chromium rendering its payslips) a run has taken more than 30 s.
 */
async function settle(app: INestApplicationContext, actor: AuthUser, id: number, withinMs = 120_000): Promise<string> {
  const runs = app.get(PayrollRunsService);
  const deadline = Date.now() + withinMs;
  let status = '';
  while (Date.now() < deadline) {
    ({ status } = await runs.get(actor, id));
    if (status !== 'Processing' && status !== 'Completing') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`demo payroll ${id} did not settle within ${withinMs / 1000} s (still ${status})`);
}

/**
 * The whole lifecycle at once: a Completed payroll with payslips for the month before last, and a
 * Processed one for last month, both for the whole company, from the employment history (seeded
 * before them: the salaries each month paid).
 */
export async function seedDemoPayrollRuns(app: INestApplicationContext, actor: AuthUser, now: Date): Promise<void> {
  const ds = app.get(DataSource);
  const runs = app.get(PayrollRunsService);
  const payslips = app.get(PayslipsService);
  const company = await ds.getRepository(Department).findOneOrFail({ where: { name: 'Demo Company' } });
  const all = await ds.getRepository(PayrollColumn).find({ order: { colorder: 'ASC' } });
  const columns = all.map((c) => c.id);
  const netColumn = all.find((c) => c.variable === 'net')?.id ?? null;
  const template = await app.get(PayslipTemplatesService).saveTemplate({
    name: 'Standard payslip',
    content:
      '<style>\n' +
      '  body { font-family: "DejaVu Sans", Arial, sans-serif; font-size: 10.5pt; color: #222; margin: 1.6cm; }\n' +
      '  h1 { font-size: 18pt; margin: 0; color: #1d4e89; } h2 { font-size: 12pt; font-weight: normal; margin: 4px 0 18px; }\n' +
      '  p { margin: 2px 0; } table { border-collapse: collapse; width: 100%; margin-top: 18px; }\n' +
      '  td { padding: 5px 8px; border-bottom: 1px solid #dde3ea; } td:last-child { text-align: right; }\n' +
      '  tr:last-child td { font-weight: bold; border-top: 2px solid #1d4e89; border-bottom: none; }\n' +
      '</style>\n' +
      '<h1>{{company.name}}</h1>\n<h2>Payslip {{payroll.date_start}} – {{payroll.date_end}}</h2>\n' +
      '<p>{{employee.name}} ({{employee.employee_id}}), {{employee.job_title}}, {{employee.department}}</p>\n' +
      '<p>Paid {{employee.pay_frequency}} in {{employee.currency}}</p>\n<table>\n{{#each columns}}  <tr><td>{{name}}</td><td>{{value}}</td></tr>\n{{/each}}</table>',
  });
  const month = (back: number) => {
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back + 1, 0));
    return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
  };
  for (const back of [2, 1]) {
    const { start, end } = month(back);
    const payroll = await runs.save(actor, {
      name: `Monthly payroll ${start.slice(0, 7)}`,
      pay_period: 4,
      department: company.id,
      date_start: start,
      date_end: end,
      columns,
      payslip_template: template.id,
      net_column: netColumn,
    });
    await app.get(PayrollTransitionsService).process(actor, payroll.id);
    if ((await settle(app, actor, payroll.id)) === 'Processed' && back === 2) {
      await payslips.startGenerate(actor, payroll.id);
      await settle(app, actor, payroll.id);
      await seedChangesBetweenRuns(app, actor, month(1).start);
    }
  }
}

/**
 * What makes last month's payroll differ from the one before (GET .../diff explains it): the
 * second employee's raise of its basic salary by 250 from the 22nd (prorated), and a Saturday of overtime (08:00 to 20:00,
 * 2.5 hours past the threshold) for the third, early last month. The first employee's 2 annual
 * days paid out last month are the demo leave ledger's (demo-leave-timesheets).
 */
async function seedChangesBetweenRuns(app: INestApplicationContext, actor: AuthUser, lastMonthStart: string): Promise<void> {
  const ds = app.get(DataSource);
  const [, raised, overtime, backDated] = await ds.getRepository(Employee).find({ order: { id: 'ASC' }, take: 4 });
  const history = app.get(EmploymentHistoryService);
  const raise = async (employee: Employee, from: string, reason: string, by: number) => {
    const items = await app.get(PayrollEmployeesService).salary(actor, employee.id);
    await history.record(actor, employee.id, {
      effective_date: from,
      reason,
      salary: items.map((i, k) => ({
        component: i.component,
        amount: k === 0 ? new Decimal(i.amount).plus(by).toFixed(2) : i.amount,
      })),
    });
  };
  const day = (n: number) => `${lastMonthStart.slice(0, 8)}${String(n).padStart(2, '0')}`;
  // Recorded after the month before last was paid (issue 44): a raise from the 22nd of last month
  // (last month pays the old amount for 21 days and the new one for the rest), and one back-dated
  // to the first of the month before last (last month pays it, and 100 of arrears for that month).
  await raise(raised, day(22), 'Raise', 250);
  const monthBefore = new Date(Date.UTC(Number(lastMonthStart.slice(0, 4)), Number(lastMonthStart.slice(5, 7)) - 2, 1));
  await raise(backDated, monthBefore.toISOString().slice(0, 10), 'Back-dated raise', 100);
  // A leaver on the 18th of last month and a joiner on the 10th: each paid for its days.
  const leaver = await ds.getRepository(Employee).findOneOrFail({ where: { employeeId: 'E0040' } });
  await app.get(EmployeesService).update(actor, leaver.id, { termination_date: day(18), status: 'Terminated' });
  const engineering = await ds.getRepository(Department).findOneOrFail({ where: { name: 'Engineering' } });
  const joiner = await app.get(EmployeesService).create(
    {
      employee_id: 'E0061',
      first_name: 'Noor',
      last_name: 'Haddad',
      joined_date: day(10),
      work_email: 'noor.haddad.61@demo.example',
      department: engineering.id,
      job_title: raised.jobTitleId ?? undefined,
    },
    actor,
  );
  const lines = await app.get(PayrollEmployeesService).salary(actor, raised.id);
  await app.get(PayrollEmployeesService).setSalary(actor, joiner.id, {
    items: lines.map((l) => ({ component: l.component, amount: l.amount })),
  });
  await app.get(PayrollEmployeesService).save(actor, { employee: joiner.id, pay_frequency: 4, currency: 'EUR' });
  const saturday = new Date(`${lastMonthStart}T00:00:00Z`);
  while (saturday.getUTCDay() !== 6) saturday.setUTCDate(saturday.getUTCDate() + 1);
  const stockTake = saturday.toISOString().slice(0, 10);
  await app.get(AttendanceService).create(actor, {
    employee: overtime.id,
    in_time: `${stockTake}T08:00:00Z`,
    out_time: `${stockTake}T20:00:00Z`,
    note: 'stock-take',
  });
}
