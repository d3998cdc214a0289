/**
 * The payroll engine in memory, run by hand: `npm run bench:payroll-engine [employees] [rounds]`.
 * 10 000 employees × 30 columns by default: salary-component sums, added/subtracted columns,
 * scripts (a progressive tax with if/min/max, ratios, employee fields) and a hook column. Prints
 * cells per second (best and median of the rounds, planning and compiling included) and the peak
 * RSS. Target (issue 10): at least 300 000 cells/s on the 2-core machine.
 */
import { computePayroll, EngineColumn, EngineEmployee, planColumns } from '../src/payroll/engine/payroll-engine';

const EMPLOYEES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 5);

function columns(): EngineColumn[] {
  const cols: EngineColumn[] = [];
  const add = (variable: string, over: Partial<EngineColumn>) =>
    cols.push({
      id: cols.length + 1,
      name: variable,
      variable,
      salaryComponents: [],
      addColumns: [],
      subColumns: [],
      script: null,
      hook: null,
      defaultValue: null,
      ...over,
    });
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

function employees(n: number): EngineEmployee[] {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    minorUnit: i % 10 === 0 ? 0 : 2,
    fields: { years_of_service: i % 30, department: (i % 17) + 1, age: 20 + (i % 45) },
    salary: new Map([
      [1, `${2500 + (i % 5000)}.${String(i % 100).padStart(2, '0')}`],
      [2, `${300 + (i % 700)}.50`],
      [3, '85.00'],
    ]),
  }));
}

function main(): void {
  const cols = columns();
  const people = employees(EMPLOYEES);
  const hooks = (column: number, employee: number) =>
    column === 4 ? String(employee % 12) : column === 5 ? String(employee % 3) : null;
  let peakRss = process.memoryUsage().rss;
  const rates: number[] = [];
  let errors = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    const { plan, errors: planErrors } = planColumns(cols);
    if (!plan) throw new Error(`plan failed: ${JSON.stringify(planErrors)}`);
    const result = computePayroll(plan, people, hooks);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    errors = result.errors.length;
    rates.push((people.length * cols.length) / seconds);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  const sorted = [...rates].sort((a, b) => a - b);
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `payroll engine: ${people.length} employees × ${cols.length} columns = ${fmt(people.length * cols.length)} cells, ${ROUNDS} rounds`,
  );
  console.log(`cells/s: best ${fmt(sorted[sorted.length - 1])}, median ${fmt(sorted[Math.floor(sorted.length / 2)])}`);
  console.log(`cell errors: ${errors}`);
  console.log(`peak RSS: ${Math.round(peakRss / 1048576)} MiB`);
  console.log(`target 300,000 cells/s: ${sorted[Math.floor(sorted.length / 2)] >= 300_000 ? 'met' : 'NOT met'}`);
}

main();
