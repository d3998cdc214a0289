import { Injectable } from '@nestjs/common';
import {
  declarePayrollInput,
  PayrollInputLoader,
  PayrollInputPart,
  PayrollInputRequest,
  PayrollInputs,
} from '../common/payroll-inputs/payroll-inputs';
import { LeaveCalendarService } from './leave-calendar.service';
import { LeaveLedgerService } from './ledger/leave-ledger.service';

/** Leave's payroll inputs (common/payroll-inputs), declared when this file loads. */
const APPROVED_LEAVE_DAYS = declarePayrollInput({
  code: 'approved_leave_days',
  name: 'Approved leave days',
  description: 'Working days of approved leave falling in the period (half days count 0.5).',
  args: [{ name: 'leave_type', type: 'integer', required: false, description: 'only this leave type' }],
  source: 'leave_requests',
  position: 50,
  absent: 'zero',
});
const LEAVE_ENCASHMENT_DAYS = declarePayrollInput({
  code: 'leave_encashment_days',
  name: 'Leave encashment days',
  description:
    'Days of the leave type paid out (POST /leave-encashments) on dates in the period; a formula turns them into money.',
  args: [{ name: 'leave_type', type: 'integer', required: true, description: 'the leave type encashed' }],
  source: 'leave_ledger',
  position: 60,
  absent: 'zero',
});

class ApprovedLeaveDays implements PayrollInputLoader {
  readonly code = APPROVED_LEAVE_DAYS;
  constructor(private readonly calendar: LeaveCalendarService) {}

  async load({ employeeIds, from, to, args }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    const type = typeof args.leave_type === 'number' ? args.leave_type : undefined;
    return (await this.calendar.approvedLeaveDays(employeeIds, from, to, type)).map((l) => ({
      employee: l.employee,
      amount: l.days,
      records: [l.id],
    }));
  }
}

class LeaveEncashmentDays implements PayrollInputLoader {
  readonly code = LEAVE_ENCASHMENT_DAYS;
  constructor(private readonly ledger: LeaveLedgerService) {}

  async load({ employeeIds, from, to, args }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    return (await this.ledger.encashedDays(employeeIds, Number(args.leave_type), from, to)).map((e) => ({
      employee: e.employee,
      amount: e.days,
      records: [e.id],
    }));
  }
}

/** Registers leave's two loaders with the payroll inputs. */
@Injectable()
export class LeavePayrollInputs {
  constructor(inputs: PayrollInputs, calendar: LeaveCalendarService, ledger: LeaveLedgerService) {
    inputs.register(new ApprovedLeaveDays(calendar));
    inputs.register(new LeaveEncashmentDays(ledger));
  }
}
