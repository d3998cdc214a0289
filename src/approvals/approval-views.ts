import { ApprovalViewDto } from './dto/approvals.dto';
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
