import { Injectable } from '@nestjs/common';
import { AttendanceService } from '../../attendance/attendance.service';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { LeaveLedgerService } from '../../leave/ledger/leave-ledger.service';
import { LeaveCalendarService } from '../../leave/leave-calendar.service';
import { TimesheetsService } from '../../timesheets/timesheets.service';
import { EngineEmployee } from '../engine/payroll-engine';
import { HOOK_SOURCES, StoredHook } from './run-inputs';
import { Dec, EMPLOYEE_FORMULA_FIELDS } from '../formula/formula';
import { timeSlices } from '../../common/async/time-slices';
import {
  calendarDays,
  DayCount,
  DEFAULT_PRORATION,
  prorate,
  Prorated,
  ProrationRule,
  workingDayCount,
} from '../engine/proration';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PayFrequency } from '../entities/payroll-config.entities';
import type { Payroll } from '../entities/payroll-run.entities';

/** A column with a calculation hook, as the inputs loader needs it. */
export interface HookColumn {
  id: number;
  hook: string;
  args: Record<string, string | number>;
}

const DEFAULT_DAILY_THRESHOLD = 8;

/**
 * Loads what a payroll run computes from, in bulk: the calculation hooks' values (from attendance,
 * timesheets, leave and the leave ledger, through those modules' services) and the employees' formula fields. A few
 * grouped queries per hook column, whatever the number of employees.
 */
@Injectable()
export class PayrollInputsService {
  constructor(
    private readonly attendance: AttendanceService,
    private readonly timesheets: TimesheetsService,
    private readonly leave: LeaveCalendarService,
    private readonly ledger: LeaveLedgerService,
    private readonly employees: EmployeeFactsService,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
  ) {}

  /**
   * Every hook column's value per employee over [from, to] (days, both included), as exact decimal
   * strings, with the ids of the records each came from: column id → employee id → StoredHook. An
   * employee without records in the period gets zero from the data hooks and no value (the
   * default) from a field it lacks. `fields`: the employees' formula fields at `to`, when the
   * caller read them already (engineFields).
   */
  async hookInputs(
    columns: readonly HookColumn[],
    employeeIds: number[],
    from: string,
    to: string,
    fields?: ReadonlyMap<number, Partial<Record<string, number | null>>>,
  ): Promise<Map<number, Map<number, StoredHook>>> {
    const out = new Map<number, Map<number, StoredHook>>();
    let attendance: Awaited<ReturnType<AttendanceService['closedRecords']>> | undefined;
    for (const column of columns) {
      // Unknown hooks are refused when a column is saved; none gives no value (the default). Arrears
      // read earlier runs: PayrollArrearsService computes them.
      if (!Object.hasOwn(HOOK_SOURCES, column.hook) || column.hook === 'arrears') continue;
      const sums = new Map<number, { sum: Dec; records: number[] }>();
      const add = (employee: number, records: readonly number[], amount: Dec | string | number) => {
        const entry = sums.get(employee) ?? { sum: new Dec(0), records: [] };
        entry.sum = entry.sum.plus(amount);
        entry.records.push(...records);
        sums.set(employee, entry);
      };
      switch (column.hook) {
        case 'hours_worked':
        case 'regular_hours':
        case 'overtime_hours': {
          attendance ??= await this.attendance.closedRecords(employeeIds, from, to);
          // The daily threshold applies to a day's hours: summed per employee and day first.
          const days = new Map<string, { employee: number; seconds: number; ids: number[] }>();
          for (const r of attendance) {
            const day = days.get(`${r.employee}:${r.day}`) ?? { employee: r.employee, seconds: 0, ids: [] };
            day.seconds += r.seconds;
            day.ids.push(r.id);
            days.set(`${r.employee}:${r.day}`, day);
          }
          const threshold = new Dec(column.args.daily_threshold ?? DEFAULT_DAILY_THRESHOLD);
          for (const { employee, seconds, ids } of days.values()) {
            const h = new Dec(seconds).div(3600);
            const part =
              column.hook === 'hours_worked'
                ? h
                : column.hook === 'regular_hours'
                  ? Dec.min(h, threshold)
                  : Dec.max(h.minus(threshold), 0);
            // A day that adds nothing (no overtime, say) is not a source of the value.
            add(employee, part.isZero() ? [] : ids, part);
          }
          break;
        }
        case 'approved_timesheet_hours': {
          const project = typeof column.args.project === 'number' ? column.args.project : undefined;
          for (const e of await this.timesheets.approvedEntries(employeeIds, from, to, project))
            add(e.employee, [e.id], new Dec(e.minutes).div(60));
          break;
        }
        case 'approved_leave_days': {
          const type = typeof column.args.leave_type === 'number' ? column.args.leave_type : undefined;
          for (const l of await this.leave.approvedLeaveDays(employeeIds, from, to, type)) add(l.employee, [l.id], l.days);
          break;
        }
        case 'leave_encashment_days': {
          for (const e of await this.ledger.encashedDays(employeeIds, Number(column.args.leave_type), from, to))
            add(e.employee, [e.id], e.days);
          break;
        }
        case 'employee_field': {
          fields ??= await this.employees.formulaFields(employeeIds, to);
          const field = String(column.args.field);
          const perEmployee = new Map<number, StoredHook>();
          for (const id of employeeIds) {
            const f = fields.get(id);
            const value = f && Object.hasOwn(f, field) ? f[field] : null;
            perEmployee.set(id, { value: value === null || value === undefined ? null : String(value) });
          }
          out.set(column.id, perEmployee);
          continue;
        }
      }
      const perEmployee = new Map<number, StoredHook>();
      for (const id of employeeIds) {
        const entry = sums.get(id);
        perEmployee.set(
          id,
          entry?.records.length
            ? { value: entry.sum.toString(), records: entry.records }
            : { value: entry ? entry.sum.toString() : '0' },
        );
      }
      out.set(column.id, perEmployee);
    }
    return out;
  }

  /** The payroll's proration rule: its own, else its pay frequency's (issue 44). */
  async prorationOf(payroll: Pick<Payroll, 'proration' | 'payPeriod'>): Promise<ProrationRule> {
    if (payroll.proration) return payroll.proration;
    const frequency = await this.frequencies.findOne({ where: { id: payroll.payPeriod } });
    return frequency?.proration ?? DEFAULT_PRORATION;
  }

  /**
   * Each employee's salary over [from, to] from its employment history, prorated by `rule` (issue
   * 44): component id → amount, and how it was prorated (null: one salary for the whole period).
   * An employee without history in the period is absent (its current salary applies).
   */
  async proratedSalaries(
    employeeIds: number[],
    from: string,
    to: string,
    rule: ProrationRule,
    /** Their employment over a span that covers [from, to], when the caller read it already (arrears over many runs). */
    known?: Awaited<ReturnType<EmployeeFactsService['employmentBetween']>>,
  ): Promise<Map<number, Prorated>> {
    const employment = known
      ? new Map(employeeIds.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])))
      : await this.employees.employmentBetween(employeeIds, from, to);
    let count: DayCount = calendarDays;
    if (rule === 'working_days') {
      const { workWeek, holidays } = await this.leave.calendar(from, to);
      count = workingDayCount(workWeek, holidays);
    }
    const out = new Map<number, Prorated>();
    const slices = timeSlices();
    for (const [id, e] of employment) {
      if (slices.due()) await slices.pause();
      const prorated = prorate(e.segments, { from, to }, { from: e.joined, to: e.terminated }, rule, count);
      if (prorated) out.set(id, prorated);
    }
    return out;
  }

  /** The formula fields of many employees (employee.<field>), as the engine takes them. */
  async engineFields(employeeIds: number[], asOf: string): Promise<Map<number, EngineEmployee['fields']>> {
    const fields = await this.employees.formulaFields(employeeIds, asOf);
    const out = new Map<number, EngineEmployee['fields']>();
    for (const [id, f] of fields) out.set(id, Object.fromEntries(EMPLOYEE_FORMULA_FIELDS.map((k) => [k, f[k] ?? null])));
    return out;
  }
}
