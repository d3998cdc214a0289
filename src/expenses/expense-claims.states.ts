import { StateMachine } from '../common/state/state-machine';
import { ExpenseClaimStatus } from './entities/expense.entities';

/**
 * An expense claim's actions (docs/api/expenses.md): Draft or Rejected claims are changed (a
 * corrected Rejected one is Draft again), deleted (Draft) and submitted; Submitted ones are approved
 * or rejected through the chains; anything not yet Paid is cancelled; an Approved claim is paid, by
 * its payroll's completion or outside payroll, and unpaid again when that payroll's payslips are deleted.
 */
export const EXPENSE_CLAIM_STATES = new StateMachine<
  ExpenseClaimStatus,
  'change' | 'delete' | 'submit' | 'approve' | 'reject' | 'cancel' | 'pay' | 'unpay'
>('expense claim', {
  change: { from: ['Draft', 'Rejected'], to: null, verb: 'be changed' },
  delete: { from: ['Draft'], to: null, verb: 'be deleted (cancel it)' },
  submit: { from: ['Draft', 'Rejected'], to: 'Submitted', verb: 'be submitted' },
  approve: { from: ['Submitted'], to: 'Approved', verb: 'be approved' },
  reject: { from: ['Submitted'], to: 'Rejected', verb: 'be rejected' },
  cancel: { from: ['Draft', 'Submitted', 'Approved', 'Rejected'], to: 'Cancelled', verb: 'be cancelled' },
  pay: { from: ['Approved'], to: 'Paid', verb: 'be paid' },
  unpay: { from: ['Paid'], to: 'Approved', verb: 'be unpaid' },
});
export type ExpenseClaimAction = keyof typeof EXPENSE_CLAIM_STATES.transitions;
