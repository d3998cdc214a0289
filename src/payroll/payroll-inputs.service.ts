import { Injectable } from '@nestjs/common';
import { AttendanceService } from '../attendance/attendance.service';
import { EmployeesService } from '../employees/employees.service';
import { LeaveLedgerService } from '../leave/ledger/leave-ledger.service';
import { LeaveRequestsService } from '../leave/leave-requests.service';
import { TimesheetsService } from '../timesheets/timesheets.service';
import { EngineEmployee, HookValues } from './engine/payroll-engine';
import { Dec, EMPLOYEE_FORMULA_FIELDS } from './formula/formula';

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
    private readonly leave: LeaveRequestsService,
    private readonly ledger: LeaveLedgerService,
    private readonly employees: EmployeesService,
  ) {}

  /** Every hook column's value per employee over [from, to] (days, both included), as exact decimal strings. */
  async hookValues(columns: readonly HookColumn[], employeeIds: number[], from: string, to: string): Promise<HookValues> {
    const values = new Map<number, Map<number, string>>();
    let byDay: Awaited<ReturnType<AttendanceService['secondsByDay']>> | undefined;
    let fields: Map<number, Record<string, number | null>> | undefined;
    for (const column of columns) {
      const perEmployee = new Map<number, string>();
      const hours = (seconds: number) => new Dec(seconds).div(3600);
      switch (column.hook) {
        case 'hours_worked':
        case 'regular_hours':
        case 'overtime_hours': {
          byDay ??= await this.attendance.secondsByDay(employeeIds, from, to);
          const threshold = new Dec(column.args.daily_threshold ?? DEFAULT_DAILY_THRESHOLD);
          const sums = new Map<number, Dec>();
          for (const { employee, seconds } of byDay) {
            const h = hours(seconds);
            const part =
              column.hook === 'hours_worked'
                ? h
                : column.hook === 'regular_hours'
                  ? Dec.min(h, threshold)
                  : Dec.max(h.minus(threshold), 0);
            sums.set(employee, (sums.get(employee) ?? new Dec(0)).plus(part));
          }
          for (const [employee, sum] of sums) perEmployee.set(employee, sum.toString());
          break;
        }
        case 'approved_timesheet_hours': {
          const project = typeof column.args.project === 'number' ? column.args.project : undefined;
          for (const [employee, minutes] of await this.timesheets.approvedMinutes(employeeIds, from, to, project)) {
            perEmployee.set(employee, new Dec(minutes).div(60).toString());
          }
          break;
        }
        case 'approved_leave_days': {
          const type = typeof column.args.leave_type === 'number' ? column.args.leave_type : undefined;
          for (const [employee, days] of await this.leave.approvedLeaveDays(employeeIds, from, to, type)) {
            perEmployee.set(employee, String(days));
          }
          break;
        }
        case 'leave_encashment_days': {
          const sums = await this.ledger.encashedDays(employeeIds, Number(column.args.leave_type), from, to);
          for (const [employee, days] of sums) perEmployee.set(employee, days);
          break;
        }
        case 'employee_field': {
          fields ??= await this.employees.formulaFields(employeeIds, to);
          const field = String(column.args.field);
          for (const [employee, f] of fields) {
            const value = Object.hasOwn(f, field) ? f[field] : null;
            if (value !== null) perEmployee.set(employee, String(value));
          }
          break;
        }
        default:
          break; // unknown hooks are refused when a column is saved; none gives no value (the default)
      }
      values.set(column.id, perEmployee);
    }
    return (columnId, employeeId) => {
      const perEmployee = values.get(columnId);
      // No record in the period: zero for the data hooks, no value (the default) for a missing field.
      if (!perEmployee) return null;
      return perEmployee.get(employeeId) ?? (columns.find((c) => c.id === columnId)?.hook === 'employee_field' ? null : '0');
    };
  }

  /** The formula fields of many employees (employee.<field>), as the engine takes them. */
  async engineFields(employeeIds: number[], asOf: string): Promise<Map<number, EngineEmployee['fields']>> {
    const fields = await this.employees.formulaFields(employeeIds, asOf);
    const out = new Map<number, EngineEmployee['fields']>();
    for (const [id, f] of fields) out.set(id, Object.fromEntries(EMPLOYEE_FORMULA_FIELDS.map((k) => [k, f[k] ?? null])));
    return out;
  }
}
