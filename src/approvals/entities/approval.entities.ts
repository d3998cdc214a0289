import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/** A kind of request that chains approve (`leave`, `time`): declared by its module (approvals/kinds/approval-kinds.ts). */
export type ApprovalKind = string;

export const STEP_MODES = ['any', 'all'] as const;
export type StepMode = (typeof STEP_MODES)[number];

export const APPROVAL_STATUSES = ['Pending', 'Approved', 'Rejected', 'Cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** `supervisor`, `approver1..3`, `department_head`, `admins` or `employee:<id>` (docs/api/decisions.md §21). */
export type ApproverRole = string;

export interface PolicyConditions {
  leave_types?: number[];
  min_days?: number;
  /** Requests of at least this amount ("1000.00"), for kinds whose requests have one. */
  min_amount?: string;
  departments?: number[];
}

export interface PolicyStep {
  approvers: ApproverRole[];
  mode: StepMode;
}

/** An approval policy (issue 45): which requests it applies to and the steps they go through. */
@Entity('approval_policies')
export class ApprovalPolicy {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 100 }) name: string;
  @Column({ name: 'applies_to', type: 'varchar', length: 10 }) appliesTo: ApprovalKind;
  @Column({ type: 'simple-json' }) conditions: PolicyConditions;
  @Column({ type: 'simple-json' }) steps: PolicyStep[];
  @Column({ name: 'escalate_after_days', type: 'integer', nullable: true }) escalateAfterDays: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'datetime' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'datetime' }) updatedAt: Date;
}

/** While away, an approver's steps go to a delegate (issue 45). */
@Entity('approval_delegations')
@Index('ix_approval_delegations_delegator', ['delegatorId', 'dateStart'])
export class ApprovalDelegation {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'delegator_id', type: 'integer' }) delegatorId: number;
  @Column({ name: 'delegate_id', type: 'integer' }) delegateId: number;
  @Column({ name: 'date_start', type: 'date' }) dateStart: string;
  @Column({ name: 'date_end', type: 'date' }) dateEnd: string;
}

/** Why an approver of a step is not the one its role names: away (approved leave), delegated, decided an earlier step, or left the company. */
export interface Substitution {
  approver: number;
  /** The delegate, or null when the approver was skipped. */
  by: number | null;
  reason: 'leave' | 'delegation' | 'decided' | 'left';
}

/** One step of a request's chain as resolved (the roles when the request was made, the substitutions when it opened). */
export interface ResolvedStep {
  mode: StepMode;
  /** Who decides it: employee ids. */
  approvers: number[];
  /** Whether the Admins decide it (the role `admins`, or nobody else was left). */
  admins: boolean;
  substitutions: Substitution[];
  /** Supervisors who joined it after escalate_after_days. */
  escalated: number[];
  opened_at: string | null;
}

/** A request's chain (issue 45): one per leave request or submitted time entry, kept while it is decided. */
@Entity('approvals')
@Index('uq_approvals_request', ['kind', 'requestId'], { unique: true })
@Index('ix_approvals_escalation', ['status', 'escalateAt'])
export class Approval {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ type: 'varchar', length: 10 }) kind: ApprovalKind;
  @Column({ name: 'request_id', type: 'integer' }) requestId: number;
  @Column({ name: 'employee_id', type: 'integer' }) employeeId: number;
  /** The policy that applied; null: the default single step. */
  @Column({ name: 'policy_id', type: 'integer', nullable: true }) policyId: number | null;
  @Column({ type: 'varchar', length: 10 }) status: ApprovalStatus;
  /** 1-based. */
  @Column({ name: 'current_step', type: 'integer' }) currentStep: number;
  @Column({ type: 'simple-json' }) steps: ResolvedStep[];
  /** What the inbox shows: "Annual Leave 2026-12-01 to 2026-12-05 (5 days)". */
  @Column({ type: 'varchar', length: 200 }) summary: string;
  @Column({ name: 'requested_at', type: 'datetime' }) requestedAt: Date;
  /** When the current step escalates (its opening + the policy's days); null: never, or done. */
  @Column({ name: 'escalate_at', type: 'datetime', nullable: true }) escalateAt: Date | null;
  @Column({ name: 'escalate_after_days', type: 'integer', nullable: true }) escalateAfterDays: number | null;
}

/**
 * Who may decide the open step of a pending request, one row each (the inbox reads these): an
 * employee, or the Admins (employee_id null). Rows exist only for open steps; a decision removes
 * its author's row, a step's end all of them.
 */
@Entity('approval_approvers')
@Index('ix_approval_approvers_employee', ['employeeId', 'approvalId'])
@Index('ix_approval_approvers_approval', ['approvalId'])
export class ApprovalApprover {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'approval_id', type: 'integer' }) approvalId: number;
  @Column({ type: 'integer' }) step: number;
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
}

export const DECISIONS = ['approve', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];

/** A decision on a step: at most one per person and request (uq_approval_decisions_user). */
@Entity('approval_decisions')
@Index('uq_approval_decisions_user', ['approvalId', 'userId'], { unique: true })
export class ApprovalDecision {
  @PrimaryGeneratedColumn({ type: 'integer' }) id: number;
  @Column({ name: 'approval_id', type: 'integer' }) approvalId: number;
  @Column({ type: 'integer' }) step: number;
  @Column({ name: 'user_id', type: 'integer' }) userId: number;
  @Column({ name: 'employee_id', type: 'integer', nullable: true }) employeeId: number | null;
  @Column({ type: 'varchar', length: 10 }) decision: Decision;
  /** Decided by an Admin who is not an approver of the step. */
  @Column({ name: 'as_admin', type: 'boolean', default: false }) asAdmin: boolean;
  @Column({ type: 'varchar', length: 500, nullable: true }) comment: string | null;
  @Column({ type: 'datetime' }) at: Date;
}

export const APPROVAL_ENTITIES = [ApprovalPolicy, ApprovalDelegation, Approval, ApprovalApprover, ApprovalDecision];
