import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PayrollInputs } from '../../common/payroll-inputs/payroll-inputs';
import type { Payroll } from '../entities/payroll-run.entities';
import { PayrollRunInputsRepository } from './payroll-run-inputs.repository';

/**
 * Records paid once (common/payroll-inputs PayrollInputSettlement): when a payroll completes, each
 * settling input is told the records its columns read in the payroll's revision; when its
 * payslips are deleted, that they are unpaid. Payroll names no module here: the inputs say whether they settle.
 */
@Injectable()
export class PayrollSettlements {
  constructor(
    private readonly registry: PayrollInputs,
    private readonly runInputs: PayrollRunInputsRepository,
  ) {}

  /** In the completing transaction: null when every settling input took its records, else the first refusal. */
  async settle(em: EntityManager, payroll: Pick<Payroll, 'id' | 'columnSetId' | 'inputsRevision'>): Promise<string | null> {
    const settling = this.registry.settling();
    if (!settling.length || payroll.columnSetId === null || payroll.inputsRevision === null) return null;
    const columns = (await this.runInputs.columnSet(payroll.columnSetId)) ?? [];
    const byInput = settling
      .map((loader) => ({ loader, columns: columns.filter((c) => c.calculation_hook === loader.code).map((c) => String(c.id)) }))
      .filter((s) => s.columns.length);
    if (!byInput.length) return null;
    const inputs = await this.runInputs.inputsOf(payroll.id, payroll.inputsRevision);
    for (const { loader, columns: ids } of byInput) {
      const records = new Set<number>();
      for (const employee of inputs.values())
        for (const id of ids) for (const record of employee.hooks[id]?.records ?? []) records.add(record);
      const refused = await loader.settlement!.settle(em, payroll.id, [...records]);
      if (refused) return refused;
    }
    return null;
  }

  /** In the transaction that deletes the payroll's payslips. */
  async unsettle(em: EntityManager, payrollId: number): Promise<void> {
    for (const loader of this.registry.settling()) await loader.settlement!.unsettle(em, payrollId);
  }
}
