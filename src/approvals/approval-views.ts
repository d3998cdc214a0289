import { ApprovalViewDto } from './dto/approvals.dto';
import { ListSpec } from '../common/paging/list-request';
import { APPROVAL_KINDS } from './kinds/approval-kinds';
import { Approval, ApprovalDecision } from './entities/approval.entities';

/** A request's chain as its DTO shows it: each step with its decisions (`decisions`: of any approvals, oldest first). */
export function toApprovalView(a: Approval, decisions: readonly ApprovalDecision[]): ApprovalViewDto {
  return {
    policy: a.policyId,
    status: a.status,
    current_step: a.currentStep,
    steps: a.steps.map((s, i) => ({
      step: i + 1,
      mode: s.mode,
      approvers: s.approvers,
      admins: s.admins,
      substitutions: s.substitutions,
      escalated: s.escalated,
      opened_at: s.opened_at,
      decisions: decisions
        .filter((d) => d.approvalId === a.id && d.step === i + 1)
        .map((d) => ({
          by: d.employeeId,
          user: d.userId,
          decision: d.decision,
          at: d.at.toISOString(),
          comment: d.comment,
          as_admin: d.asAdmin,
        })),
    })),
  };
}

/** Each step's decisions as the employee's notification of the outcome says them: " Step 1: approved by Ada Lovelace ("ok")." */
export function decisionsSentence(view: ApprovalViewDto, names: ReadonlyMap<number, string>): string {
  return view.steps
    .flatMap((s) =>
      s.decisions.map(
        (d) =>
          ` Step ${s.step}: ${d.decision === 'approve' ? 'approved' : 'rejected'} by ${d.by === null ? 'an Admin' : (names.get(d.by) ?? `employee ${d.by}`)}${d.comment ? ` ("${d.comment}")` : ''}.`,
      ),
    )
    .join('');
}

/** The inbox: the caller's open steps (approval_approvers), oldest request first. */
export const PENDING_LIST_SPEC: ListSpec = {
  idColumn: 'aa.id',
  sortFields: { requested_at: 'a.requested_at', id: 'a.id' },
  defaultSort: { field: 'requested_at', order: 'ascend' },
  filterFields: {
    kind: { column: 'a.kind', type: 'string', values: APPROVAL_KINDS },
    employee: { column: 'a.employee_id', type: 'int' },
  },
};

/** Delegations, by id or start. */
export const DELEGATION_LIST_SPEC: ListSpec = {
  idColumn: 'd.id',
  sortFields: { id: 'd.id', date_start: 'd.date_start' },
  filterFields: { delegator: { column: 'd.delegator_id', type: 'int' }, delegate: { column: 'd.delegate_id', type: 'int' } },
  dateRange: { start: 'd.date_start', end: 'd.date_end' },
};
