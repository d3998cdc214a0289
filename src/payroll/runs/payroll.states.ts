import { StateMachine } from '../../common/state/state-machine';
import type { PayrollStatus } from '../entities/payroll-run.entities';

export type PayrollAction =
  | 'change'
  | 'delete'
  | 'edit'
  | 'process'
  | 'processed'
  | 'fail'
  | 'generate-payslips'
  | 'complete'
  | 'payslips-failed'
  | 'delete-payslips'
  | 'books';

/**
 * A payroll's states (docs/api/decisions.md §10) and every action on them, the one place they are written: the
 * runs service, the payslips service and the jobs move payrolls only through this table.
 */
export const PAYROLL_STATES = new StateMachine<PayrollStatus, PayrollAction>('payroll', {
  change: { from: ['Draft', 'Processed', 'Failed'], to: null, verb: 'be changed' },
  delete: { from: ['Draft', 'Processed', 'Failed'], to: null, verb: 'be deleted' },
  edit: { from: ['Draft', 'Processed'], to: null, verb: 'be edited' },
  process: { from: ['Draft', 'Processed', 'Failed'], to: 'Processing', verb: 'be processed' },
  processed: { from: ['Processing'], to: 'Processed', verb: 'finish processing' },
  fail: { from: ['Processing'], to: 'Failed', verb: 'fail processing' },
  'generate-payslips': { from: ['Processed'], to: 'Completing', verb: 'generate payslips' },
  complete: { from: ['Completing'], to: 'Completed', verb: 'complete' },
  'payslips-failed': { from: ['Completing'], to: 'Processed', verb: 'fail generating payslips' },
  'delete-payslips': { from: ['Completed'], to: 'Processed', verb: 'delete payslips' },
  // Its bank file, journal and register (issue 46) are made once it is Completed.
  books: { from: ['Completed'], to: null, verb: 'be paid or posted yet (bank file, journal, register)' },
});
