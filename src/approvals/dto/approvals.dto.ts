import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { IsMoney } from '../../common/money/money';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { IsCalendarDate, IsRefId, Nullable, OptionalText, SingleLine, Trim } from '../../common/validation/decorators';
import { APPROVAL_STATUSES, DECISIONS, STEP_MODES } from '../entities/approval.entities';
import { APPROVAL_KINDS } from '../kinds/approval-kinds';

/** Steps a policy may have, approvers a step may name, ids a condition may list. */
export const MAX_STEPS = 10;
export const MAX_ROLES = 20;
const MAX_IDS = 200;
const ROLE = /^(supervisor|approver[123]|department_head|admins|employee:[1-9]\d{0,9})$/;

export class PolicyConditionsDto {
  @ApiIntOptional({ type: [Number], description: 'leave type ids (leave policies only)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IDS)
  @IsRefId({ each: true })
  leave_types?: number[];

  @ApiPropertyOptional({ example: 5, description: 'applies to requests of at least this many days (leave only)' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(366)
  min_days?: number;

  @ApiPropertyOptional({
    type: String,
    example: '1000.00',
    description: 'applies to requests of at least this amount (kinds whose requests have an amount)',
  })
  @IsOptional()
  @IsMoney()
  min_amount?: string;

  @ApiIntOptional({ type: [Number], description: "department ids: the employee's department or one of its parents" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IDS)
  @IsRefId({ each: true })
  departments?: number[];
}

export class PolicyStepDto {
  @ApiProperty({
    type: [String],
    example: ['supervisor', 'approver1'],
    description: 'supervisor, approver1, approver2, approver3, department_head, admins or employee:<id>',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ROLES)
  @IsString({ each: true })
  @Matches(ROLE, {
    each: true,
    message: '$property must hold supervisor, approver1..3, department_head, admins or employee:<id>',
  })
  approvers: string[];

  @ApiProperty({ enum: STEP_MODES, description: 'any: one of them decides; all: each of them approves' })
  @IsIn(STEP_MODES)
  mode: string;
}

export class ApprovalPolicyDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, enum: APPROVAL_KINDS }) applies_to: string;
  @ApiProperty({ type: PolicyConditionsDto }) conditions: PolicyConditionsDto;
  @ApiProperty({ type: [PolicyStepDto] }) steps: PolicyStepDto[];
  @ApiInt({
    type: Number,
    nullable: true,
    description: "days without a decision before the step's approvers' supervisors join it",
  })
  escalate_after_days: number | null;
}

export class CreateApprovalPolicyDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  name: string;

  @ApiProperty({ type: String, enum: APPROVAL_KINDS })
  @IsIn(APPROVAL_KINDS)
  applies_to: string;

  @ApiPropertyOptional({ type: PolicyConditionsDto, description: 'all must hold; none: every request of its kind' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PolicyConditionsDto)
  conditions?: PolicyConditionsDto;

  @ApiProperty({ type: [PolicyStepDto], maxItems: MAX_STEPS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_STEPS)
  @ValidateNested({ each: true })
  @Type(() => PolicyStepDto)
  steps: PolicyStepDto[];

  @ApiIntOptional({ type: Number, nullable: true, minimum: 1, maximum: 365 })
  @IsOptional()
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(365)
  escalate_after_days?: number | null;
}

@AcceptsReadOnlyOf(() => ApprovalPolicyDto)
export class UpdateApprovalPolicyDto extends PartialType(CreateApprovalPolicyDto) {}

export class ApprovalDelegationDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the approver who is away' }) delegator: number;
  @ApiInt({ description: 'who decides in its place' }) delegate: number;
  @ApiProperty({ format: 'date' }) date_start: string;
  @ApiProperty({ format: 'date' }) date_end: string;
}

export class CreateApprovalDelegationDto {
  @ApiIntOptional({ description: "default: the caller's employee; another employee: Admins only" })
  @IsOptional()
  @IsRefId()
  delegator?: number;

  @ApiInt()
  @IsRefId()
  delegate: number;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date_start: string;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date_end: string;
}

@AcceptsReadOnlyOf(() => ApprovalDelegationDto)
export class UpdateApprovalDelegationDto extends PartialType(CreateApprovalDelegationDto) {}

/** What the approve and reject routes of leave and time entries say of chains. */
export const APPROVAL_DECISION_NOTE =
  "Records the caller's decision on the open step of the request's chain (approval.steps): a rejection ends it Rejected; " +
  "an approval completes the step (mode any: one approver; all: every approver), the last step's approves the request. " +
  'One person decides at most one step. 403 NOT_AN_APPROVER for someone who sees the request but does not decide its open ' +
  'step; 409 ALREADY_DECIDED for a second decision of the same person; 409 INVALID_STATE when the request was decided, ' +
  'cancelled, or its step was decided meanwhile. An Admin may decide any step (recorded as_admin). Body optional: {comment}.';

/** The body of an approve or reject (optional). */
export class DecisionBodyDto {
  @OptionalText(500, { multiLine: true })
  comment?: string | null;
}

export class SubstitutionDto {
  @ApiInt() approver: number;
  @ApiInt({ type: Number, nullable: true, description: 'the delegate; null: skipped' }) by: number | null;
  @ApiProperty({
    enum: ['leave', 'delegation', 'decided', 'left'],
    description: 'away on approved leave, delegated, decided an earlier step, or left the company (its termination date came)',
  })
  reason: string;
}

export class StepDecisionDto {
  @ApiInt({ type: Number, nullable: true, description: 'the employee who decided (null: an Admin without one)' }) by:
    number | null;
  @ApiInt() user: number;
  @ApiProperty({ enum: DECISIONS }) decision: string;
  @ApiProperty({ format: 'date-time' }) at: string;
  @ApiProperty({ type: String, nullable: true }) comment: string | null;
  @ApiProperty({ description: 'an Admin who is not an approver of the step decided it' }) as_admin: boolean;
}

export class ApprovalStepDto {
  @ApiInt() step: number;
  @ApiProperty({ enum: STEP_MODES }) mode: string;
  @ApiInt({ type: [Number], description: 'who decides it (employee ids)' }) approvers: number[];
  @ApiProperty({ description: 'the Admins decide it too (the role admins, or nobody else was left)' }) admins: boolean;
  @ApiProperty({ type: [SubstitutionDto] }) substitutions: SubstitutionDto[];
  @ApiInt({ type: [Number], description: 'supervisors who joined after escalate_after_days' }) escalated: number[];
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'null: not open yet' }) opened_at: string | null;
  @ApiProperty({ type: [StepDecisionDto] }) decisions: StepDecisionDto[];
}

export class ApprovalViewDto {
  @ApiInt({ type: Number, nullable: true, description: 'null: no policy applied (one step, any of supervisor and approver1..3)' })
  policy: number | null;
  @ApiProperty({ enum: APPROVAL_STATUSES }) status: string;
  @ApiInt({ description: '1-based' }) current_step: number;
  @ApiProperty({ type: [ApprovalStepDto] }) steps: ApprovalStepDto[];
}

export class PendingApprovalDto {
  @ApiProperty({ type: String, enum: APPROVAL_KINDS }) kind: string;
  @ApiInt({ description: 'the leave request or time entry' }) id: number;
  @ApiInt() employee: number;
  @ApiProperty({ example: 'Ada Lovelace' }) employee_name: string;
  @ApiInt({ description: 'the open step (1-based)' }) step: number;
  @ApiInt() steps: number;
  @ApiProperty({ example: 'Annual Leave 2026-12-01 to 2026-12-05 (5 days)' }) summary: string;
  @ApiProperty({ format: 'date-time' }) requested_at: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) step_opened_at: string | null;
  @ApiInt({ description: 'whole days since the request was made' }) age_days: number;
}
