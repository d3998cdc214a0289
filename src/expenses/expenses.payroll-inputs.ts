import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { recordAudits } from '../common/audit/audit-log';
import { Dec } from '../common/money/dec';
import {
  declarePayrollInput,
  PayrollInputLoader,
  PayrollInputPart,
  PayrollInputRequest,
  PayrollInputs,
  PayrollInputSettlement,
} from '../common/payroll-inputs/payroll-inputs';
import { ExpenseClaimsRepository } from './expense-claims.repository';
import { claimFacts } from './expense-items';
import './expenses.events';

/** Expenses' payroll input (common/payroll-inputs), declared when this file loads. */
export const EXPENSES_INPUT = declarePayrollInput({
  code: 'expenses',
  name: 'Approved expense claims',
  description:
    "The employee's Approved expense claims not yet paid, approved by the period's last day, in the claims' currency (the employee's payroll currency). " +
    'Completing the payroll marks them Paid with it; deleting its payslips unpays them. Add the column to the net pay.',
  args: [],
  source: 'expense_claims',
  position: 60,
  absent: 'zero',
});

/** Claims named by a payroll's refusal (at most this many, then "and N more"). */
const NAMED = 10;

/**
 * The input `expenses` (issue 68): what a payroll pays of the claims, and each claim paid by one
 * payroll at most. A payroll reads the payable claims when it is processed; when it completes, the
 * claims it read become Paid with its id in one conditional UPDATE (Approved and paid by nobody),
 * and a claim paid, cancelled or changed since refuses the completion: the payroll stays Processed
 * until it is processed again. Two payrolls that read one claim: the first to complete pays it.
 */
@Injectable()
export class ExpensesPayrollInputs implements PayrollInputLoader, PayrollInputSettlement {
  readonly code = EXPENSES_INPUT;
  readonly settlement = this;

  constructor(
    inputs: PayrollInputs,
    private readonly repository: ExpenseClaimsRepository,
  ) {
    inputs.register(this);
  }

  async load({ employeeIds, to }: PayrollInputRequest): Promise<PayrollInputPart[]> {
    return (await this.repository.payable(employeeIds, to)).map((c) => ({
      employee: c.employeeId,
      amount: c.total,
      records: [c.id],
    }));
  }

  /** Each claim's items by their categories' accounts: the journal debits them (the column's credit account takes the whole). */
  async debitAccounts(records: number[]): Promise<Map<number, Array<{ account: string; amount: string }>>> {
    const items = await this.repository.itemsOf(records);
    const categories = await this.repository.categories([...items.values()].flat().map((i) => i.categoryId));
    const out = new Map<number, Array<{ account: string; amount: string }>>();
    for (const [claim, rows] of items) {
      const byAccount = new Map<string, Dec>();
      for (const item of rows) {
        const account = categories.get(item.categoryId)?.account;
        if (account) byAccount.set(account, (byAccount.get(account) ?? new Dec(0)).plus(item.amountConverted));
      }
      out.set(
        claim,
        [...byAccount].map(([account, amount]) => ({ account, amount: amount.toString() })),
      );
    }
    return out;
  }

  async settle(em: EntityManager, payrollId: number, records: number[]): Promise<string | null> {
    if (!records.length) return null;
    const moved = await this.repository.markPaid(em, records, payrollId, new Date());
    if (moved < records.length) {
      const stale = (await this.repository.notPayable(em, records)).map((c) => `${c.id} (${c.status})`);
      const named = stale.slice(0, NAMED).join(', ') + (stale.length > NAMED ? ` and ${stale.length - NAMED} more` : '');
      return `expense claims ${named} were paid, cancelled or changed since this payroll was processed: process it again`;
    }
    const paid = await this.repository.paidBy(em, payrollId);
    await recordAudits(
      em,
      paid.map((c) => ({
        action: 'pay',
        resource: 'expense-claims',
        event: 'expense.paid' as const,
        resourceId: c.id,
        employee: c.employeeId,
        before: claimFacts({ ...c, status: 'Approved', paidIn: null }),
        after: claimFacts(c),
      })),
    );
    return null;
  }

  async unsettle(em: EntityManager, payrollId: number): Promise<void> {
    const paid = await this.repository.paidBy(em, payrollId);
    if (!paid.length) return;
    await this.repository.markUnpaid(em, payrollId);
    await recordAudits(
      em,
      paid.map((c) => ({
        action: 'unpay',
        resource: 'expense-claims',
        resourceId: c.id,
        employee: c.employeeId,
        before: claimFacts(c),
        after: claimFacts({ ...c, status: 'Approved', paidIn: null }),
      })),
    );
  }
}
