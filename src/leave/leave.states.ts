import { StateMachine } from '../common/state/state-machine';
import { LeaveStatus } from './entities/leave.entities';

/** A leave request's actions (docs/api/decisions.md §9): Pending → Approved or Rejected; Pending or Approved → Cancelled. */
export const LEAVE_STATES = new StateMachine<LeaveStatus, 'approve' | 'reject' | 'cancel'>('leave request', {
  approve: { from: ['Pending'], to: 'Approved', verb: 'be approved' },
  reject: { from: ['Pending'], to: 'Rejected', verb: 'be rejected' },
  cancel: { from: ['Pending', 'Approved'], to: 'Cancelled', verb: 'be cancelled' },
});
export type LeaveAction = keyof typeof LEAVE_STATES.transitions;
