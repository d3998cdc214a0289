import { Injectable } from '@nestjs/common';
import { Dec } from '../common/money/dec';
import {
  declarePayrollInput,
  PayrollInputLoader,
  PayrollInputPart,
  PayrollInputRequest,
  PayrollInputs,
} from '../common/payroll-inputs/payroll-inputs';
import { AttendanceRepository } from './attendance.repository';

/*
 * Attendance's payroll inputs (common/payroll-inputs): hours of closed records starting in the
 * period, whole or split at a daily threshold. Declared when this file loads.
 */

const thresholdArgument = (description: string) =>
  ({ name: 'daily_threshold', type: 'number', required: false, description }) as const;

const HOURS_WORKED = declarePayrollInput({
  code: 'hours_worked',
  name: 'Hours worked',
  description: 'Hours of closed attendance records starting in the payroll period.',
  args: [],
  source: 'attendance',
  position: 10,
  absent: 'zero',
});
const REGULAR_HOURS = declarePayrollInput({
  code: 'regular_hours',
  name: 'Regular hours',
  description: 'Hours worked, each day capped at the daily threshold.',
  args: [thresholdArgument('hours per day counted as regular (default 8)')],
  source: 'attendance',
  position: 20,
  absent: 'zero',
});
const OVERTIME_HOURS = declarePayrollInput({
  code: 'overtime_hours',
  name: 'Overtime hours',
  description: 'Hours worked beyond the daily threshold, summed over the days of the period.',
  args: [thresholdArgument('hours per day before overtime starts (default 8)')],
  source: 'attendance',
  position: 30,
  absent: 'zero',
});

const DEFAULT_DAILY_THRESHOLD = 8;

/** One of the three: a day's hours (summed per employee and day first), whole, below or above the threshold. */
class AttendanceHours implements PayrollInputLoader {
  constructor(
    readonly code: string,
    private readonly repository: AttendanceRepository,
  ) {}

  async load({ employeeIds, from, to, args, once }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    const records = await once(`attendance:${from}:${to}`, () => this.repository.closedRecords(employeeIds, from, to));
    const days = new Map<string, { employee: number; seconds: number; ids: number[] }>();
    for (const r of records) {
      const day = days.get(`${r.employee}:${r.day}`) ?? { employee: r.employee, seconds: 0, ids: [] };
      day.seconds += r.seconds;
      day.ids.push(r.id);
      days.set(`${r.employee}:${r.day}`, day);
    }
    const threshold = new Dec(args.daily_threshold ?? DEFAULT_DAILY_THRESHOLD);
    const parts: PayrollInputPart[] = [];
    for (const { employee, seconds, ids } of days.values()) {
      const h = new Dec(seconds).div(3600);
      const amount =
        this.code === HOURS_WORKED ? h : this.code === REGULAR_HOURS ? Dec.min(h, threshold) : Dec.max(h.minus(threshold), 0);
      // A day that adds nothing (no overtime, say) is not a source of the value.
      parts.push({ employee, amount, records: amount.isZero() ? [] : ids });
    }
    return parts;
  }
}

/** Registers the three loaders with the payroll inputs. */
@Injectable()
export class AttendancePayrollInputs {
  constructor(inputs: PayrollInputs, repository: AttendanceRepository) {
    for (const code of [HOURS_WORKED, REGULAR_HOURS, OVERTIME_HOURS]) inputs.register(new AttendanceHours(code, repository));
  }
}
