import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsNumber, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { SyncedDateRangeListQueryDto } from '../../common/paging/list-query.dto';
import {
  IsCalendarDate,
  IsRefId,
  MaxDecimals,
  Nullable,
  OptionalText,
  SingleLine,
  Trim,
} from '../../common/validation/decorators';
import { LEAVE_STATUSES } from '../entities/leave.entities';
import { ApprovalViewDto } from '../../approvals/dto/approvals.dto';

/** A day count within [min, max] with at most `decimals` decimals. */
export const DaysValue = (min: number, max: number, decimals: number) => (target: object, key: string) => {
  IsNumber({ allowNaN: false, allowInfinity: false })(target, key);
  MaxDecimals(decimals)(target, key);
  Min(min)(target, key);
  Max(max)(target, key);
};
const Days = () => DaysValue(0, 366, 1);

class Named {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  name: string;
}

export class LeaveTypeDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: 20, description: 'entitlement per period when none is set for the employee' }) default_days: number;
  @ApiProperty({ type: String, nullable: true, example: '#4caf50' }) color: string | null;
  @ApiProperty({ description: 'requests may take the balance below zero' }) allow_negative: boolean;
}

export class CreateLeaveTypeDto extends Named {
  @ApiProperty({ example: 20 }) @Days() default_days: number;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#4caf50' })
  @IsOptional()
  @Nullable()
  @Matches(/^#[0-9a-fA-F]{6}$/, { message: '$property must be a colour such as #4caf50' })
  color?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  allow_negative?: boolean;
}

export class UpdateLeaveTypeDto extends PartialType(CreateLeaveTypeDto) {}

export class LeavePeriodDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date' }) date_start: string;
  @ApiProperty({ format: 'date' }) date_end: string;
}

export class CreateLeavePeriodDto extends Named {
  @ApiProperty({ format: 'date', example: '2026-01-01' }) @IsCalendarDate() date_start: string;
  @ApiProperty({ format: 'date', example: '2026-12-31' }) @IsCalendarDate() date_end: string;
}

export class UpdateLeavePeriodDto extends PartialType(CreateLeavePeriodDto) {}

export class EntitlementDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiInt() leave_type: number;
  @ApiInt() leave_period: number;
  @ApiProperty() days: number;
}

export class SetEntitlementDto {
  @ApiInt() @IsRefId() employee: number;
  @ApiInt() @IsRefId() leave_type: number;
  @ApiInt() @IsRefId() leave_period: number;
  @ApiProperty({ example: 25 }) @Days() days: number;
}

/** A leave request's own fields (what an export's rows hold). */
export class LeaveRequestRowDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiInt() leave_type: number;
  @ApiProperty({ format: 'date' }) date_start: string;
  @ApiProperty({ format: 'date' }) date_end: string;
  @ApiProperty() half_day: boolean;
  @ApiProperty({ example: 3, description: 'working days: the work week without holidays; 0.5 for a half day' }) days: number;
  @ApiProperty({ enum: LEAVE_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiInt({ type: Number, nullable: true, description: 'employee who decided' }) approver: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decided_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class LeaveRequestDto extends LeaveRequestRowDto {
  @ApiProperty({
    type: ApprovalViewDto,
    nullable: true,
    description:
      'its approval chain (issue 45): the steps, who decides each, their decisions; null for requests decided before chains',
  })
  approval: ApprovalViewDto | null;
}

export class CreateLeaveRequestDto {
  @ApiInt() @IsRefId() leave_type: number;
  @ApiProperty({ format: 'date', example: '2026-03-05' }) @IsCalendarDate() date_start: string;
  @ApiProperty({ format: 'date', example: '2026-03-10' }) @IsCalendarDate() date_end: string;

  @ApiPropertyOptional({ default: false, description: 'a half day: date_start must equal date_end' })
  @IsOptional()
  @IsBoolean()
  half_day?: boolean;

  @OptionalText(500)
  reason?: string | null;

  @ApiIntOptional({ description: 'for another employee: Admin, or Restricted Admin in scope' })
  @IsOptional()
  @IsRefId()
  employee?: number;
}

export class LeaveListQueryDto extends SyncedDateRangeListQueryDto {}

export class LeaveTypeBalanceDto {
  @ApiInt() leave_type: number;
  @ApiProperty() name: string;
  @ApiProperty() entitled: number;
  @ApiProperty({ description: 'approved days' }) taken: number;
  @ApiProperty({ description: 'pending days' }) pending: number;
  @ApiProperty({
    description:
      'entitled − taken (approving a request moves its days from available to taken); requests may ask for available − pending',
  })
  available: number;
}

export class LeaveSummaryDto {
  @ApiProperty({ type: LeavePeriodDto, nullable: true, description: 'the leave period containing today' })
  period: LeavePeriodDto | null;
  @ApiProperty({ type: [LeaveTypeBalanceDto] }) types: LeaveTypeBalanceDto[];
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    example: { Pending: 1, Approved: 4, Rejected: 0, Cancelled: 1 },
    description: 'requests by status, all periods',
  })
  by_status: Record<string, number>;
}

export class LeaveDeletedDto {
  @ApiInt() id: number;
}
