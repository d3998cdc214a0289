import { declarePayrollInput } from '../../common/payroll-inputs/payroll-inputs';
import { EMPLOYEE_FORMULA_FIELDS } from '../formula/formula';

/*
 * Payroll's own inputs (common/payroll-inputs): the employee's formula fields, loaded by
 * PayrollInputsService, and arrears, computed by the run from its earlier runs
 * (PayrollArrearsService). Declared when this file loads.
 */

export const ARREARS_INPUT = declarePayrollInput({
  code: 'arrears',
  name: 'Arrears',
  description:
    'For each earlier Completed payroll of the employee (up to 24 months back) that an employment change recorded after it reaches ' +
    'back into: the column recomputed from that run’s stored inputs with the history as known now, minus what it paid and what ' +
    'later runs paid for it as arrears.',
  args: [{ name: 'column', type: 'integer', required: true, description: 'the payroll column recomputed (its id)' }],
  source: 'payrolls',
  position: 70,
  absent: 'zero',
  byRun: true,
});

export const EMPLOYEE_FIELD_INPUT = declarePayrollInput({
  code: 'employee_field',
  name: 'Employee field value',
  description: 'A numeric employee field, such as years_of_service or age at the end of the period.',
  args: [
    { name: 'field', type: 'string', required: true, description: 'one of the employee.<field> names of the formula language' },
  ],
  source: 'employee',
  position: 80,
  absent: 'none',
  argumentProblems: (args) =>
    typeof args.field === 'string' && !(EMPLOYEE_FORMULA_FIELDS as readonly string[]).includes(args.field)
      ? [{ field: 'calculation_hook_args.field', message: `must be one of ${EMPLOYEE_FORMULA_FIELDS.join(', ')}` }]
      : [],
});
