/** An argument a calculation hook takes (docs/api/decisions.md §10: `calculation_hook_args`). */
export interface HookArgument {
  name: string;
  type: 'number' | 'integer' | 'string';
  required: boolean;
  description: string;
}

export interface CalculationHook {
  code: string;
  name: string;
  description: string;
  args: HookArgument[];
}

/**
 * The calculation hooks (the IceHrm set), each computed from this service's own data over the
 * payroll's date range. A hook column's value replaces sums and scripts.
 */
export const CALCULATION_HOOKS: readonly CalculationHook[] = [
  {
    code: 'hours_worked',
    name: 'Hours worked',
    description: 'Hours of closed attendance records starting in the payroll period.',
    args: [],
  },
  {
    code: 'regular_hours',
    name: 'Regular hours',
    description: 'Hours worked, each day capped at the daily threshold.',
    args: [
      { name: 'daily_threshold', type: 'number', required: false, description: 'hours per day counted as regular (default 8)' },
    ],
  },
  {
    code: 'overtime_hours',
    name: 'Overtime hours',
    description: 'Hours worked beyond the daily threshold, summed over the days of the period.',
    args: [
      {
        name: 'daily_threshold',
        type: 'number',
        required: false,
        description: 'hours per day before overtime starts (default 8)',
      },
    ],
  },
  {
    code: 'approved_timesheet_hours',
    name: 'Approved timesheet hours',
    description: 'Hours of approved time entries dated in the period.',
    args: [{ name: 'project', type: 'integer', required: false, description: 'only this project' }],
  },
  {
    code: 'approved_leave_days',
    name: 'Approved leave days',
    description: 'Working days of approved leave falling in the period (half days count 0.5).',
    args: [{ name: 'leave_type', type: 'integer', required: false, description: 'only this leave type' }],
  },
  {
    code: 'leave_encashment_days',
    name: 'Leave encashment days',
    description:
      'Days of the leave type paid out (POST /leave-encashments) on dates in the period; a formula turns them into money.',
    args: [{ name: 'leave_type', type: 'integer', required: true, description: 'the leave type encashed' }],
  },
  {
    code: 'arrears',
    name: 'Arrears',
    description:
      'For each earlier Completed payroll of the employee (up to 24 months back) that an employment change recorded after it reaches ' +
      'back into: the column recomputed from that run’s stored inputs with the history as known now, minus what it paid and what ' +
      'later runs paid for it as arrears.',
    args: [{ name: 'column', type: 'integer', required: true, description: 'the payroll column recomputed (its id)' }],
  },
  {
    code: 'employee_field',
    name: 'Employee field value',
    description: 'A numeric employee field, such as years_of_service or age at the end of the period.',
    args: [
      { name: 'field', type: 'string', required: true, description: 'one of the employee.<field> names of the formula language' },
    ],
  },
];

export function findHook(code: string): CalculationHook | undefined {
  return CALCULATION_HOOKS.find((h) => h.code === code);
}
