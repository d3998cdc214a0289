import type { PayrollColumnDto } from '../dto/payroll-config.dto';
import type { EmployeeInputs } from '../engine/stored-inputs';
import { ARREARS_INPUT } from '../config/payroll.payroll-inputs';
import { Dec } from '../formula/formula';

/*
 * The arrears rules (issue 44, docs/api/decisions.md §20) apart from the reads they need: which
 * recorded changes reach back into an earlier run, what later runs already paid for it, and the
 * part still owed. PayrollArrearsService reads and recomputes; these decide.
 */

/** An employment change as arrears look at it. */
export interface LateChange {
  id: number;
  effectiveDate: string;
  recordedAt: Date;
  cancelledAt: Date | null;
}

/** An earlier Completed run: its period, when it was processed, its columns and its stored inputs. */
export interface PaidRun {
  payroll: { id: number; dateStart: string; dateEnd: string; processedAt: Date | null };
  columns: Pick<PayrollColumnDto, 'id' | 'calculation_hook' | 'calculation_hook_args'>[];
  inputs: ReadonlyMap<number, EmployeeInputs>;
}

/**
 * The changes that reach back into `run` for an employee: effective by its last day, and recorded
 * after it was processed without the run having read them (`read`: its stored salary_changes), or
 * cancelled after it was processed.
 */
export function changesReaching(run: PaidRun['payroll'], read: readonly number[], changes: readonly LateChange[]): number[] {
  const processed = run.processedAt!.getTime();
  const seen = new Set(read);
  return changes
    .filter((c) => c.effectiveDate <= run.dateEnd)
    .filter(
      (c) =>
        (c.recordedAt.getTime() > processed && !seen.has(c.id)) ||
        (c.cancelledAt !== null && c.cancelledAt.getTime() > processed),
    )
    .map((c) => c.id);
}

/** What the runs after `paidRun` (those starting after its end) paid as arrears of `column` for it. */
export function alreadyPaid(runs: readonly PaidRun[], paidRun: PaidRun['payroll'], employee: number, column: number): Dec {
  let already = new Dec(0);
  for (const q of runs) {
    if (q.payroll.dateStart <= paidRun.dateEnd) continue;
    for (const [key, hook] of Object.entries(q.inputs.get(employee)?.hooks ?? {})) {
      const def = q.columns.find((c) => String(c.id) === key);
      if (def?.calculation_hook !== ARREARS_INPUT || Number(def.calculation_hook_args.column) !== column) continue;
      for (const part of hook.arrears ?? []) if (part.payroll === paidRun.id) already = already.plus(part.amount);
    }
  }
  return already;
}

/** What is still owed for a run's cell: recomputed, minus what it paid, minus what was paid for it since. */
export function stillOwed(recomputed: string, paid: string, already: Dec): Dec {
  return new Dec(recomputed).minus(paid).minus(already);
}
