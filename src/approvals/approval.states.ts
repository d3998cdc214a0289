import { StateMachine } from '../common/state/state-machine';
import { ApprovalStatus } from './entities/approval.entities';

export type ApprovalAction = 'approve' | 'reject' | 'cancel' | 'advance';

/**
 * A chain's states (docs/api/decisions.md, approval chains): Pending until its last step approves,
 * one step rejects, or its request is cancelled; `advance` (a step decided, another opened, an
 * escalation) keeps it Pending. Each move is one conditional UPDATE, under the employee's lock.
 */
export const APPROVAL_STATES = new StateMachine<ApprovalStatus, ApprovalAction>('approval', {
  approve: { from: ['Pending'], to: 'Approved', verb: 'be approved' },
  reject: { from: ['Pending'], to: 'Rejected', verb: 'be rejected' },
  cancel: { from: ['Pending'], to: 'Cancelled', verb: 'be cancelled' },
  advance: { from: ['Pending'], to: null, verb: 'move to its next step' },
});
