import { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { insertRows } from '../src/database/seeds/seed-tools';
import { transaction } from '../src/common/database/transaction';
import { DATED_COLUMNS, moveIntoHistory } from '../src/database/migrations/1763800000033-EmploymentHistory';
import { EngineColumn, engineColumn } from '../src/payroll/engine/payroll-engine';
import { PayrollConfigService } from '../src/payroll/config/payroll-config.service';

/**
 * The 30 columns of the payroll benchmarks: salary components 1-3 (basic, housing, transport),
 * added/subtracted columns, scripts (a progressive tax with if/min/max, ratios, employee fields)
 * and two hooks. Column ids are 1..30 in this order.
 */
export function benchColumns(): EngineColumn[] {
  const cols: EngineColumn[] = [];
  const add = (variable: string, over: Partial<EngineColumn>) => cols.push(engineColumn(cols.length + 1, variable, over));
  add('basic', { salaryComponents: [1] });
  add('housing', { salaryComponents: [2] });
  add('transport', { salaryComponents: [3] });
  add('overtime_hours', { hook: 'overtime_hours', defaultValue: '0' });
  add('unpaid_days', { hook: 'approved_leave_days', defaultValue: '0' });
  add('allowances', { addColumns: [2, 3] });
  add('hourly_rate', { script: 'round(basic / 173.33, 4)' });
  add('overtime_pay', { script: 'overtime_hours * hourly_rate * 1.5' });
  add('unpaid_leave', { script: 'unpaid_days * basic / 21.67' });
  add('seniority', { script: 'min(employee.years_of_service, 20) * 15' });
  add('gross', { addColumns: [1, 6, 8, 10], subColumns: [9] });
  add('pension_base', { script: 'min(gross, 7550)' });
  add('pension', { script: 'pension_base * 0.093' });
  add('health', { script: 'min(gross, 5175) * 0.073' });
  add('unemployment', { script: 'min(gross, 7550) * 0.012' });
  add('social', { addColumns: [13, 14, 15] });
  add('taxable', { script: 'max(gross - social - 1000, 0)' });
  add('income_tax', {
    script:
      'if(taxable <= 1000, 0, if(taxable <= 3000, (taxable - 1000) * 0.14, if(taxable <= 6000, 280 + (taxable - 3000) * 0.24, 1000 + (taxable - 6000) * 0.42)))',
  });
  add('solidarity', { script: 'if(income_tax > 1500, income_tax * 0.055, 0)' });
  add('church', { script: 'if(employee.department % 3 == 0, income_tax * 0.09, 0)' });
  add('taxes', { addColumns: [18, 19, 20] });
  add('deductions', { addColumns: [16, 21] });
  add('net', { addColumns: [11], subColumns: [22] });
  add('employer_pension', { script: 'pension' });
  add('employer_health', { script: 'health * 1.05' });
  add('employer_cost', { addColumns: [11, 24, 25] });
  add('net_ratio', { script: 'round(net / gross * 100, 2)' });
  add('bonus_flag', { script: 'net > 4000 ? 1 : 0' });
  add('meal_vouchers', { defaultValue: '40.00' });
  add('payout', { addColumns: [23, 29] });
  return cols;
}

/** Creates the three salary components and the 30 columns of benchColumns() unless the database has components already. */
export async function ensureBenchColumns(app: INestApplicationContext): Promise<void> {
  const ds = app.get(DataSource);
  const payroll = app.get(PayrollConfigService);
  if ((await ds.query<unknown[]>('SELECT 1 FROM salary_components LIMIT 1')).length) return;
  for (const name of ['Basic', 'Housing', 'Transport']) await payroll.components.create({ name, component_type: 'Earning' });
  for (const c of benchColumns()) {
    await payroll.saveColumn({
      name: c.name,
      variable: c.variable,
      salary_components: [...c.salaryComponents],
      add_columns: [...c.addColumns],
      sub_columns: [...c.subColumns],
      script: c.script,
      calculation_hook: c.hook,
      calculation_hook_args: {},
      default_value: c.defaultValue,
    });
  }
}

/**
 * The body of a POST /payroll_config/payrolls for a January 2026 payroll of `department`'s employees
 * on the benchmark columns (pay frequency 4, monthly: loadPayrollDataset's).
 */
export function benchPayrollBody(name: string, department: number) {
  return {
    name,
    pay_period: 4,
    department,
    date_start: '2026-01-01',
    date_end: '2026-01-31',
    columns: benchColumns().map((c) => c.id),
  };
}

/**
 * Loads `count` employees of `department` (bulk inserts, employee ids `prefix`000000…; every 7th Terminated) with three salary components and monthly
 * payroll employees (every tenth in JPY), and on first use the components and the 30 columns of
 * benchColumns(). Returns the employees' ids. For the payroll benchmark and the worker tests.
 */
export async function loadPayrollDataset(
  app: INestApplicationContext,
  department: number,
  count: number,
  prefix = 'B',
  /** The share of employees with a raise from `raisedOn` (issue 44: 0.2 for the proration benchmark). */
  changed = 0,
  raisedOn = '2026-01-22',
): Promise<number[]> {
  const ds = app.get(DataSource);
  const first = await bulkEmployees(ds, count, [department], prefix);
  await ensureBenchColumns(app);
  const ids = Array.from({ length: count }, (_, i) => first + i);
  await insertRows(
    ds,
    'employee_salaries',
    ['employee_id', 'component_id', 'amount'],
    ids.flatMap((id, i) => [
      [id, 1, `${2500 + (i % 5000)}.${String(i % 100).padStart(2, '0')}`],
      [id, 2, `${300 + (i % 700)}.50`],
      [id, 3, '85.00'],
    ]),
  );
  await insertRows(
    ds,
    'payroll_employees',
    ['employee_id', 'pay_frequency_id', 'currency', 'deduction_group_id'],
    ids.map((id, i) => [id, 4, i % 10 === 0 ? 'JPY' : 'EUR', null]),
  );
  // Their histories again, now with these salaries (bulkEmployees moved them in before there were any).
  await ds.query('DELETE FROM employment_segments WHERE employee_id >= ?', [first]);
  await ds.query('DELETE FROM employment_changes WHERE employee_id >= ?', [first]);
  await moveIntoHistory((sql, params) => ds.query(sql, params), first - 1, 'Joined');
  if (changed > 0)
    await raiseFrom(
      ds,
      ids.filter((_, i) => i % Math.round(1 / changed) === 0),
      raisedOn,
    );
  return ids;
}

/**
 * A mid-period raise (basic + 10 %) from `day` for `ids`, written as the history writer would: a
 * change, the open segment closed the day before and a new one from `day` (issue 44's benchmark).
 */
export async function raiseFrom(ds: DataSource, ids: number[], day: string): Promise<void> {
  const before = new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const dated = DATED_COLUMNS.join(', ');
  await transaction(ds, async (em) => {
    for (const id of ids) {
      const [open] = await em.query<Array<{ salary: string }>>(
        'SELECT salary FROM employment_segments WHERE employee_id = ? AND effective_to IS NULL',
        [id],
      );
      const salary = (JSON.parse(open.salary) as Array<{ component: number; amount: string }>).map((l) =>
        l.component === 1 ? { ...l, amount: (Number(l.amount) * 1.1).toFixed(2) } : l,
      );
      await em.query(
        'INSERT INTO employment_changes (employee_id, effective_date, reason, fields, salary, status, recorded_at, recorded_by, cancelled_at, corrects) ' +
          "VALUES (?, ?, 'Raise', '{}', ?, 'Effective', ?, NULL, NULL, NULL)",
        [id, day, JSON.stringify(salary), new Date().toISOString().slice(0, 23).replace('T', ' ')],
      );
      const [{ change_id: change }] = await em.query<Array<{ change_id: number }>>(
        'SELECT MAX(id) AS change_id FROM employment_changes WHERE employee_id = ?',
        [id],
      );
      await em.query(
        `INSERT INTO employment_segments (employee_id, effective_from, effective_to, ${dated}, salary, change_id) ` +
          `SELECT employee_id, ?, NULL, ${dated}, ?, ? FROM employment_segments WHERE employee_id = ? AND effective_to IS NULL`,
        [day, JSON.stringify(salary), change, id],
      );
      await em.query(
        'UPDATE employment_segments SET effective_to = ? WHERE employee_id = ? AND effective_to IS NULL AND effective_from < ?',
        [before, id, day],
      );
    }
  });
}
