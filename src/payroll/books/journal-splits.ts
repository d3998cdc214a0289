import { Injectable } from '@nestjs/common';
import { PayrollInputs } from '../../common/payroll-inputs/payroll-inputs';
import { minorUnitOf } from '../../common/money/currencies';
import { toMinorUnits } from '../../common/money/money';
import type { Payroll } from '../entities/payroll-run.entities';
import { PayrollRunInputsRepository } from '../runs/payroll-run-inputs.repository';
import type { DebitSplits } from './journal';

/**
 * The journal's debits of a column split by the accounts its input's records name (common/
 * payroll-inputs `debitAccounts`: the categories of a module's records): column → cost-centre key → account
 * → minor units, from the records the payroll's revision read. Payroll names no module here.
 */
@Injectable()
export class JournalSplits {
  constructor(
    private readonly registry: PayrollInputs,
    private readonly runInputs: PayrollRunInputsRepository,
  ) {}

  async of(
    payroll: Pick<Payroll, 'id' | 'columnSetId' | 'inputsRevision'>,
    employees: readonly number[],
    /** The journal's cost-centre key of an employee's amount of a column ("<department>:<currency>"). */
    keyOf: (column: number, employee: number) => string,
    currencyOf: (employee: number) => string,
  ): Promise<DebitSplits> {
    const out: DebitSplits = new Map();
    if (payroll.columnSetId === null || payroll.inputsRevision === null) return out;
    const columns = ((await this.runInputs.columnSet(payroll.columnSetId)) ?? []).flatMap((c) => {
      const loader = c.calculation_hook ? this.registry.loader(c.calculation_hook) : undefined;
      return loader?.debitAccounts ? [{ id: c.id, loader }] : [];
    });
    if (!columns.length) return out;
    const inputs = await this.runInputs.inputsOf(payroll.id, payroll.inputsRevision, [...employees]);
    for (const { id, loader } of columns) {
      const records = [...inputs.values()].flatMap((e) => e.hooks[String(id)]?.records ?? []);
      if (!records.length) continue;
      const parts = await loader.debitAccounts!([...new Set(records)]);
      const byKey = new Map<string, Map<string, bigint>>();
      for (const [employee, stored] of inputs) {
        const key = keyOf(id, employee);
        const digits = minorUnitOf(currencyOf(employee));
        for (const record of stored.hooks[String(id)]?.records ?? [])
          for (const part of parts.get(record) ?? []) {
            const accounts = byKey.get(key) ?? new Map<string, bigint>();
            accounts.set(part.account, (accounts.get(part.account) ?? 0n) + toMinorUnits(part.amount, digits));
            byKey.set(key, accounts);
          }
      }
      out.set(id, byKey);
    }
    return out;
  }
}

/** Adds a window's debit splits to the payroll's (the journal reads a payroll a window of employees at a time). */
export function addSplits(into: DebitSplits, part: DebitSplits): void {
  for (const [column, byKey] of part) {
    const intoColumn = into.get(column) ?? new Map<string, Map<string, bigint>>();
    into.set(column, intoColumn);
    for (const [key, accounts] of byKey) {
      const intoKey = intoColumn.get(key) ?? new Map<string, bigint>();
      intoColumn.set(key, intoKey);
      for (const [account, minor] of accounts) intoKey.set(account, (intoKey.get(account) ?? 0n) + minor);
    }
  }
}
