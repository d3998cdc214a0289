import { alreadyPaid, changesReaching, stillOwed } from './arrears';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan, MoreThanOrEqual, Not } from 'typeorm';
import { timeSlices } from '../../common/async/time-slices';
import { addDays } from '../../common/time/days';
import { EmployeeFactsService } from '../../employees/employee-facts.service';
import { amountText, engineColumnOf } from '../config/payroll-columns';
import { PayrollColumnDto } from '../dto/payroll-config.dto';
import { explainCell, planColumns, PlannedPlan } from '../engine/payroll-engine';
import { Payroll } from '../entities/payroll-run.entities';
import { DiffCell } from '../engine/stored-inputs';
import { Dec } from '../formula/formula';
import { PayrollInputsService } from './payroll-inputs.service';
import { PayrollTablesService } from '../config/payroll-tables.service';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';
import { engineEmployeeOf, hookValuesOf } from './run-inputs';
import { EmployeeInputs, StoredArrears, StoredHook } from '../engine/stored-inputs';

/** How far back arrears reach: runs whose period ended within this many months before the run's start. */
export const ARREARS_MONTHS = 24;

/** An earlier Completed run as arrears read it. */
interface PastRun {
  payroll: Payroll;
  columns: PayrollColumnDto[];
  plan: PlannedPlan | null;
  /** Stored inputs of the employees concerned. */
  inputs: Map<number, EmployeeInputs>;
}

/**
 * The `arrears` calculation hook (issue 44, docs/api/decisions.md §20): for each earlier Completed payroll of an
 * employee that an employment change recorded (or cancelled) after it was processed reaches back
 * into, the hook's column recomputed from that run's stored inputs with the salary as the history
 * now tells it, minus what the run paid, minus what Completed runs since paid for it as arrears.
 * So recording the same back-dated change twice, or paying arrears and then correcting the change,
 * never pays twice: each later run pays what is still owed. The parts are kept with the run's
 * inputs (StoredHook.arrears), which is also what a later run reads as already paid.
 */
@Injectable()
export class PayrollArrearsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly storedInputs: PayrollRunInputsRepository,
    private readonly inputs: PayrollInputsService,
    private readonly facts: EmployeeFactsService,
    private readonly tables: PayrollTablesService,
  ) {}

  /** Each arrears hook column's value per employee of `run`: column id → employee id → StoredHook. */
  async hookInputs(
    run: Payroll,
    columns: ReadonlyArray<{ id: number; args: Record<string, string | number> }>,
    employeeIds: number[],
  ): Promise<Map<number, Map<number, StoredHook>>> {
    const out = new Map<number, Map<number, StoredHook>>();
    if (!columns.length) return out;
    const zero = () => new Map<number, StoredHook>(employeeIds.map((id) => [id, { value: '0' }]));
    for (const c of columns) out.set(c.id, zero());
    const windowStart = addDays(run.dateStart, -Math.round(ARREARS_MONTHS * 30.44));
    const completed = await this.ds.getRepository(Payroll).find({
      where: {
        status: 'Completed',
        id: Not(run.id),
        dateEnd: LessThan(run.dateStart),
        dateStart: MoreThanOrEqual(windowStart),
      },
      order: { dateEnd: 'ASC', id: 'ASC' },
    });
    const kept = completed.filter((p) => p.inputsRevision !== null && p.columnSetId !== null && p.processedAt !== null);
    if (!kept.length) return out;
    // Who has a change recorded after the earliest of these runs that reaches into one of them.
    const since = new Date(Math.min(...kept.map((p) => p.processedAt!.getTime())));
    const lastEnd = kept.reduce((max, p) => (p.dateEnd > max ? p.dateEnd : max), kept[0].dateEnd);
    const late = await this.facts.changesSince(employeeIds, since, lastEnd);
    if (!late.size) return out;
    const concerned = [...late.keys()];
    // Their employment over every run's period at once (prorate picks each period's segments).
    const firstStart = kept.reduce((min, p) => (p.dateStart < min ? p.dateStart : min), kept[0].dateStart);
    const employment = await this.facts.employmentBetween(concerned, firstStart, lastEnd);
    const inputsOf = await this.storedInputs.inputsOfRuns(
      kept.map((p) => ({ id: p.id, revision: p.inputsRevision! })),
      concerned,
    );
    const past: PastRun[] = [];
    for (const payroll of kept) {
      const columnsOf = (await this.storedInputs.columnSet(payroll.columnSetId!)) ?? [];
      const plan = planColumns(columnsOf.map(engineColumnOf)).plan;
      // The table versions that run read (they never change).
      if (plan) plan.tables = new Map([...(await this.tables.used(payroll.tableVersions ?? []))].map(([n, t]) => [n, t.formula]));
      past.push({ payroll, columns: columnsOf, plan, inputs: inputsOf.get(payroll.id)! });
    }
    // Per earlier run: the employees a late change reaches back into, their salaries over its
    // period as the history tells them now and its cells, in bulk; then each part.
    const parts = new Map<string, StoredArrears[]>(); // `${column}:${employee}` → parts, oldest run first
    const slices = timeSlices();
    for (const p of past) {
      const reaching = new Map<number, number[]>();
      for (const employee of concerned) {
        const ids = changesReaching(p.payroll, p.inputs.get(employee)?.salary_changes ?? [], late.get(employee)!);
        if (ids.length && p.inputs.has(employee)) reaching.set(employee, ids);
      }
      const targets = columns.filter((c) => p.columns.some((x) => x.id === Number(c.args.column)));
      if (!reaching.size || !p.plan || !targets.length) continue;
      const ids = [...reaching.keys()];
      const rule = await this.inputs.prorationOf(p.payroll);
      const salaries = await this.inputs.proratedSalaries(ids, p.payroll.dateStart, p.payroll.dateEnd, rule, employment);
      // The cells that matter: what it paid in the target columns, and its edits (kept in the recomputation).
      const cellsOf = await this.storedInputs.cellsOf(
        p.payroll.id,
        ids,
        targets.map((c) => Number(c.args.column)),
      );
      const editable = new Set(p.columns.filter((c) => c.editable).map((c) => c.id));
      for (const employee of ids) {
        const stored = p.inputs.get(employee)!;
        const now = salaries.get(employee);
        const salary = now ? Object.fromEntries(Object.entries(now.salary).map(([c, a]) => [c, amountText(a)])) : stored.salary;
        const own = cellsOf.get(employee) ?? new Map<number, DiffCell>();
        const edits = new Map([...own].filter(([id, c]) => c.edited && editable.has(id)).map(([id, c]) => [id, c.value ?? '0']));
        for (const column of targets) {
          if (slices.due()) await slices.pause();
          const target = Number(column.args.column);
          const recomputed = explainCell(
            p.plan,
            engineEmployeeOf(employee, { ...stored, salary }),
            target,
            hookValuesOf(new Map([[employee, stored]])),
            (c) => edits.get(c),
          );
          const paid = own.get(target)?.value ?? null;
          if (!recomputed || recomputed.value === null || paid === null) continue;
          const already = alreadyPaid(past, p.payroll, employee, target);
          const amount = stillOwed(recomputed.value, paid, already);
          if (amount.isZero()) continue;
          const key = `${column.id}:${employee}`;
          parts.set(key, [
            ...(parts.get(key) ?? []),
            {
              payroll: p.payroll.id,
              recomputed: recomputed.value,
              paid: amountText(paid),
              already_paid: already.toString(),
              amount: amount.toString(),
              changes: reaching.get(employee)!,
            },
          ]);
        }
      }
    }
    for (const [key, list] of parts) {
      const [column, employee] = key.split(':').map(Number);
      const total = list.reduce((sum, x) => sum.plus(x.amount), new Dec(0));
      out.get(column)!.set(employee, { value: total.toString(), records: list.map((x) => x.payroll), arrears: list });
    }
    return out;
  }
}
