-- ApprovalsRepository.delegatesOn
SELECT "ApprovalDelegation"."id" AS "ApprovalDelegation_id", "ApprovalDelegation"."delegator_id" AS "ApprovalDelegation_delegator_id", "ApprovalDelegation"."delegate_id" AS "ApprovalDelegation_delegate_id", "ApprovalDelegation"."date_start" AS "ApprovalDelegation_date_start", "ApprovalDelegation"."date_end" AS "ApprovalDelegation_date_end"
  FROM "approval_delegations" "ApprovalDelegation"
  WHERE (("ApprovalDelegation"."delegator_id" IN (1, 2)) AND ("ApprovalDelegation"."date_start" <= ?) AND ("ApprovalDelegation"."date_end" >= ?))
  ORDER BY "ApprovalDelegation"."id" ASC;

-- ApprovalsRepository.delegationsPage
SELECT "d"."id" AS "d_id", "d"."delegator_id" AS "d_delegator_id", "d"."delegate_id" AS "d_delegate_id", "d"."date_start" AS "d_date_start", "d"."date_end" AS "d_date_end"
  FROM "approval_delegations" "d"
  WHERE ("d"."delegator_id" = 1 OR "d"."delegate_id" = 1)
  ORDER BY "d"."id" ASC
  LIMIT 50 OFFSET 0;
SELECT COUNT(*) AS "total"
  FROM "approval_delegations" "d"
  WHERE ("d"."delegator_id" = 1 OR "d"."delegate_id" = 1);

-- ApprovalsRepository.departmentsOf
SELECT id, parent_id, head_id
  FROM departments;

-- ApprovalsRepository.leftBy
SELECT id
  FROM employees
  WHERE id IN (?, ?) AND termination_date IS NOT NULL AND termination_date <= ?;

-- ApprovalsRepository.missingIds
SELECT id
  FROM departments
  WHERE id IN (?, ?);

-- ApprovalsRepository.namesOf
SELECT id, first_name, last_name
  FROM employees
  WHERE id IN (?, ?);

-- ApprovalsRepository.pendingApprovalRows
SELECT COUNT(*)
  FROM approval_approvers aa JOIN approvals a ON a.id = aa.approval_id JOIN employees e ON e.id = a.employee_id
  WHERE (aa.employee_id = ? OR (aa.employee_id IS NULL AND NOT EXISTS (SELECT 1
  FROM approval_approvers x
  WHERE x.approval_id = aa.approval_id AND x.employee_id = ?))) AND (a.employee_id <> ?) AND (NOT EXISTS (SELECT 1
  FROM approval_decisions d
  WHERE d.approval_id = a.id AND d.user_id = ?));
SELECT a.kind, a.request_id, a.employee_id, e.first_name, e.last_name, a.current_step, a.steps, a.summary, a.requested_at
  FROM approval_approvers aa JOIN approvals a ON a.id = aa.approval_id JOIN employees e ON e.id = a.employee_id
  WHERE (aa.employee_id = ? OR (aa.employee_id IS NULL AND NOT EXISTS (SELECT 1
  FROM approval_approvers x
  WHERE x.approval_id = aa.approval_id AND x.employee_id = ?))) AND (a.employee_id <> ?) AND (NOT EXISTS (SELECT 1
  FROM approval_decisions d
  WHERE d.approval_id = a.id AND d.user_id = ?))
  ORDER BY a.requested_at ASC, aa.id ASC
  LIMIT ? OFFSET ?;

-- ApprovalsRepository.policiesOf
SELECT "ApprovalPolicy"."id" AS "ApprovalPolicy_id", "ApprovalPolicy"."name" AS "ApprovalPolicy_name", "ApprovalPolicy"."applies_to" AS "ApprovalPolicy_applies_to", "ApprovalPolicy"."conditions" AS "ApprovalPolicy_conditions", "ApprovalPolicy"."steps" AS "ApprovalPolicy_steps", "ApprovalPolicy"."escalate_after_days" AS "ApprovalPolicy_escalate_after_days", "ApprovalPolicy"."created_at" AS "ApprovalPolicy_created_at", "ApprovalPolicy"."updated_at" AS "ApprovalPolicy_updated_at"
  FROM "approval_policies" "ApprovalPolicy"
  WHERE (("ApprovalPolicy"."applies_to" = ?))
  ORDER BY "ApprovalPolicy"."id" ASC;

-- ApprovalsRepository.subjectOf
SELECT id, department_id, supervisor_id, approver1_id, approver2_id, approver3_id
  FROM employees
  WHERE id = ?;

-- ApprovalsRepository.supervisorsOf
SELECT id, supervisor_id
  FROM employees
  WHERE id IN (?, ?) AND supervisor_id IS NOT NULL;
