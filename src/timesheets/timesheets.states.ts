import { StateMachine } from '../common/state/state-machine';
import { TimeEntryStatus } from './entities/timesheet.entities';

/**
 * A time entry's actions (docs/api/decisions.md §9): Draft or Rejected entries are changed (a corrected Rejected
 * one is Draft again), deleted and submitted; Submitted ones are approved or rejected.
 */
export const TIME_ENTRY_STATES = new StateMachine<TimeEntryStatus, 'change' | 'submit' | 'approve' | 'reject'>('time entry', {
  change: { from: ['Draft', 'Rejected'], to: null, verb: 'be changed' },
  submit: { from: ['Draft', 'Rejected'], to: 'Submitted', verb: 'be submitted' },
  approve: { from: ['Submitted'], to: 'Approved', verb: 'be approved' },
  reject: { from: ['Submitted'], to: 'Rejected', verb: 'be rejected' },
});
export type TimeEntryAction = keyof typeof TIME_ENTRY_STATES.transitions;
