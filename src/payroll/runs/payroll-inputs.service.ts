import { Injectable } from '@nestjs/common';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { WorkingDaysService } from '../../calendars/working-days.service';
import { WorkingDay, workingTime } from '../../calendars/working-days';
import { EngineEmployee } from '../engine/payroll-engine';
import { StoredHook } from '../engine/stored-inputs';
import {
  findPayrollInput,
  PayrollInputPart,
  PayrollInputRequest,
  PayrollInputs,
} from '../../common/payroll-inputs/payroll-inputs';
import { EMPLOYEE_FIELD_INPUT } from '../config/payroll.payroll-inputs';
import { Dec, EMPLOYEE_FORMULA_FIELDS } from '../formula/formula';
import { timeSlices } from '../../common/async/time-slices';
import { calendarDays, DayCount, DEFAULT_PRORATION, prorate, Prorated, ProrationRule } from '../engine/proration';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PayFrequency } from '../entities/payroll-config.entities';
import type { Payroll } from '../entities/payroll-run.entities';

/** The employees' formula fields at the end of the period, read once for a payroll's inputs. */
const fieldsKey = (to: string) => `employee-formula-fields:${to}`;

/** A column with a calculation hook, as the inputs loader needs it. */
export interface HookColumn {
  id: number;
  hook: string;
  args: Record<string, string | number>;
}

/**
 * Loads what a payroll run computes from, in bulk: the calculation hooks' values (the payroll inputs
 * other modules declare and load, common/payroll-inputs, and the employees' formula fields) and
 * prorated salaries. A few grouped queries per hook column, whatever the number of employees.
 */
@Injectable()
export class PayrollInputsService {
  constructor(
    private readonly registry: PayrollInputs,
    private readonly workingDays: WorkingDaysService,
    private readonly employees: EmployeeFactsService,
    @InjectRepository(PayFrequency) private readonly frequencies: Repository<PayFrequency>,
  ) {
    registry.register({ code: EMPLOYEE_FIELD_INPUT, load: (request) => this.fieldParts(request) });
  }

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
    const shared = new Map<string, Promise<unknown>>();
    if (fields) shared.set(fieldsKey(to), Promise.resolve(fields));
    const once = <T>(key: string, load: () => Promise<T>): Promise<T> => {
      if (!shared.has(key)) shared.set(key, load());
      return shared.get(key) as Promise<T>;
    };
    for (const column of columns) {
      // Unknown inputs are refused when a column is saved; none gives no value (the default).
      // Inputs computed by the run (arrears) come from PayrollArrearsService.
      const declared = findPayrollInput(column.hook);
      if (!declared || declared.byRun) continue;
      const parts = await this.registry.loader(declared.code)!.load({ employeeIds, from, to, args: column.args, once });
      const sums = new Map<number, { sum: Dec; records: number[] }>();
      for (const part of parts) {
        const entry = sums.get(part.employee) ?? { sum: new Dec(0), records: [] };
        entry.sum = entry.sum.plus(part.amount);
        if (part.records) entry.records.push(...part.records);
        sums.set(part.employee, entry);
      }
      const perEmployee = new Map<number, StoredHook>();
      for (const id of employeeIds) {
        const entry = sums.get(id);
        perEmployee.set(
          id,
          entry?.records.length
            ? { value: entry.sum.toString(), records: entry.records }
            : { value: entry ? entry.sum.toString() : declared.absent === 'zero' ? '0' : null },
        );
      }
      out.set(column.id, perEmployee);
    }
    return out;
  }

  /** employee_field: the field's value of each employee that has one (the others get no value). */
  private async fieldParts({ employeeIds, to, args, once }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    const fields = await once(fieldsKey(to), () => this.employees.formulaFields(employeeIds, to));
    const field = String(args.field);
    const parts: PayrollInputPart[] = [];
    for (const id of employeeIds) {
      const f = fields.get(id);
      const value = f && Object.hasOwn(f, field) ? f[field] : null;
      if (value !== null && value !== undefined) parts.push({ employee: id, amount: value });
    }
    return parts;
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
    /** Their working days over [from, to] (workingDaysOf), when the caller read them already (a run keeps them). */
    knownDays?: ReadonlyMap<number, readonly WorkingDay[]>,
  ): Promise<Map<number, Prorated>> {
    const employment = known
      ? new Map(employeeIds.flatMap((id) => (known.has(id) ? [[id, known.get(id)!] as const] : [])))
      : await this.employees.employmentBetween(employeeIds, from, to);
    // Working days by each employee's calendar on each day (issue 65): one array per calendar, shared.
    const days = rule !== 'working_days' ? null : (knownDays ?? (await this.workingDaysOf([...employment.keys()], from, to)));
    const out = new Map<number, Prorated>();
    const slices = timeSlices();
    for (const [id, e] of employment) {
      if (slices.due()) await slices.pause();
      const mine = days?.get(id);
      const count: DayCount = mine ? (a, b) => workingTime(mine, a, b) : calendarDays;
      const prorated = prorate(e.segments, { from, to }, { from: e.joined, to: e.terminated }, rule, count);
      if (prorated) out.set(id, prorated);
    }
    return out;
  }

  /** Each employee's working days over [from, to], each day by its calendar then (issue 65). */
  workingDaysOf(employeeIds: number[], from: string, to: string): Promise<Map<number, readonly WorkingDay[]>> {
    return this.workingDays.ofEmployees(employeeIds, from, to);
  }

  /** The formula fields of many employees (employee.<field>), as the engine takes them. */
  async engineFields(employeeIds: number[], asOf: string): Promise<Map<number, EngineEmployee['fields']>> {
    const fields = await this.employees.formulaFields(employeeIds, asOf);
    const out = new Map<number, EngineEmployee['fields']>();
    for (const [id, f] of fields) out.set(id, Object.fromEntries(EMPLOYEE_FORMULA_FIELDS.map((k) => [k, f[k] ?? null])));
    return out;
  }
}
