import { EngineColumn, engineColumn } from '../src/payroll/engine/payroll-engine';

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
