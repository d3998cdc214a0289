import { Injectable } from '@nestjs/common';
import { Dec } from '../common/money/dec';
import {
  declarePayrollInput,
  PayrollInputLoader,
  PayrollInputPart,
  PayrollInputRequest,
  PayrollInputs,
} from '../common/payroll-inputs/payroll-inputs';
import { TimesheetsRepository } from './timesheets.repository';

/** Timesheets' payroll input (common/payroll-inputs), declared when this file loads. */
const APPROVED_TIMESHEET_HOURS = declarePayrollInput({
  code: 'approved_timesheet_hours',
  name: 'Approved timesheet hours',
  description: 'Hours of approved time entries dated in the period.',
  args: [{ name: 'project', type: 'integer', required: false, description: 'only this project' }],
  source: 'time_entries',
  position: 40,
  absent: 'zero',
});

@Injectable()
export class TimesheetsPayrollInputs implements PayrollInputLoader {
  readonly code = APPROVED_TIMESHEET_HOURS;

  constructor(
    inputs: PayrollInputs,
    private readonly repository: TimesheetsRepository,
  ) {
    inputs.register(this);
  }

  async load({ employeeIds, from, to, args }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    const project = typeof args.project === 'number' ? args.project : undefined;
    return (await this.repository.approvedEntries(employeeIds, from, to, project)).map((e) => ({
      employee: e.employee,
      amount: new Dec(e.minutes).div(60),
      records: [e.id],
    }));
  }
}
