import { declareApprovalKind } from '../approvals/kinds/approval-kinds';

/** Time entries go through approval chains: their kind, how they are named and reached, and their tasks. */
declareApprovalKind({ kind: 'time', noun: 'time entry', path: 'timesheets', taskSource: 'timesheet-approval' });
