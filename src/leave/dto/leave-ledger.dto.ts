import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Max, Min, NotEquals } from 'class-validator';
import { DateRangeListQueryDto } from '../../common/paging/list-query.dto';
import { IsCalendarDate, IsRefId, Nullable, Trim } from '../../common/validation/decorators';
import { ACCRUALS, LEDGER_KINDS, LEDGER_SOURCES } from '../engine/accrual-engine';
import { DaysValue as LeaveDays } from './leave.dto';

/** Ledger days carry two decimals (a monthly 2.08). */
const DaysValue = (min: number, max = 999) => LeaveDays(min, max, 2);

export class LeavePolicyDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiInt() leave_type: number;
  @ApiProperty({ enum: ACCRUALS }) accrual: string;
  @ApiProperty({
    example: 2.08,
    description:
      'days per grant: per leave period (fixed_per_period), month (monthly), pay period, year (yearly, on 1 January) or anniversary',
  })
  amount: number;
  @ApiProperty({ description: "a joiner's first grant counts only the days from its first eligible day" })
  prorate_joiners: boolean;
  @ApiInt({ description: 'days after the joined date before anything accrues' }) waiting_days: number;
  @ApiProperty({ type: Number, nullable: true, description: 'accruals stop where the balance would pass it' }) max_balance:
    number | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'the most days carried into the next leave period (null: all; 0: none); a negative balance carries whole',
  })
  carry_over_max: number | null;
  @ApiInt({
    type: Number,
    nullable: true,
    description: 'carried days not taken within these months of the new period expire',
  })
  carry_over_expiry_months: number | null;
  @ApiProperty() allow_negative: boolean;
  @ApiProperty() encashable: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'the most days encashed per leave period' }) encashment_max:
    number | null;
}

export class CreateLeavePolicyDto {
  @ApiProperty({ maxLength: 100 }) @Trim() @IsString() @Length(1, 100) name: string;
  @ApiInt() @IsRefId() leave_type: number;
  @ApiProperty({ enum: ACCRUALS }) @IsIn(ACCRUALS) accrual: string;
  @ApiProperty({ example: 2.08 }) @DaysValue(0, 366) amount: number;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() prorate_joiners?: boolean;
  @ApiIntOptional({ default: 0 }) @IsOptional() @IsInt() @Min(0) @Max(3660) waiting_days?: number;
  @ApiPropertyOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @DaysValue(0, 999) max_balance?: number | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @DaysValue(0, 999) carry_over_max?:
    number | null;
  @ApiIntOptional({ type: Number, nullable: true })
  @IsOptional()
  @Nullable()
  @IsInt()
  @Min(1)
  @Max(120)
  carry_over_expiry_months?: number | null;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() allow_negative?: boolean;
  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean() encashable?: boolean;
  @ApiPropertyOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @DaysValue(0, 999) encashment_max?:
    number | null;
}

export class UpdateLeavePolicyDto extends PartialType(CreateLeavePolicyDto) {}

export class LeavePolicyAssignmentDto {
  @ApiInt() id: number;
  @ApiInt() policy: number;
  @ApiInt({ type: Number, nullable: true }) employee: number | null;
  @ApiInt({ type: Number, nullable: true, description: 'the department and its children' }) department: number | null;
  @ApiInt({ type: Number, nullable: true }) employment_status: number | null;
  @ApiInt({ type: Number, nullable: true }) pay_grade: number | null;
  @ApiProperty({ format: 'date' }) valid_from: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) valid_to: string | null;
}

export class CreateLeavePolicyAssignmentDto {
  @ApiInt() @IsRefId() policy: number;
  @ApiIntOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @IsRefId() employee?: number | null;
  @ApiIntOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @IsRefId() department?: number | null;
  @ApiIntOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @IsRefId() employment_status?: number | null;
  @ApiIntOptional({ type: Number, nullable: true }) @IsOptional() @Nullable() @IsRefId() pay_grade?: number | null;
  @ApiProperty({ format: 'date', example: '2026-01-01' }) @IsCalendarDate() valid_from: string;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true }) @IsOptional() @Nullable() @IsCalendarDate() valid_to?:
    string | null;
}

export class UpdateLeavePolicyAssignmentDto extends PartialType(CreateLeavePolicyAssignmentDto) {}

export class LeaveLedgerEntryDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiInt() leave_type: number;
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ enum: LEDGER_KINDS }) kind: string;
  @ApiProperty({ example: -1, description: 'positive adds to the balance, negative takes from it' }) days: number;
  @ApiProperty({ enum: LEDGER_SOURCES }) source: string;
  @ApiInt({ type: Number, nullable: true, description: 'the policy or the leave request' }) source_id: number | null;
  @ApiInt({ type: Number, nullable: true, description: 'the user who wrote it (null: a job)' }) created_by: number | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
}

export class LeaveLedgerQueryDto extends DateRangeListQueryDto {}

export class LeaveBalanceQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'default today; a future date projects the accruals due by then' })
  @IsOptional()
  @IsCalendarDate()
  as_of?: string;

  @ApiIntOptional()
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @IsRefId()
  leave_type?: number;
}

export class LeaveBalanceDto {
  @ApiInt() leave_type: number;
  @ApiProperty({ description: 'opening balances loaded in this leave period' }) opening: number;
  @ApiProperty() accrued: number;
  @ApiProperty({ description: 'approved days less reversals' }) taken: number;
  @ApiProperty({ description: 'days of pending requests (not subtracted)' }) pending: number;
  @ApiProperty({ description: 'brought from the previous leave period' }) carried_over: number;
  @ApiProperty() expired: number;
  @ApiProperty({ description: 'adjustments, signed' }) adjusted: number;
  @ApiProperty() encashed: number;
  @ApiProperty({ description: 'opening + accrued + carried_over + adjusted − taken − expired − encashed' }) available: number;
}

export class CreateLeaveAdjustmentDto {
  @ApiInt() @IsRefId() employee: number;
  @ApiInt() @IsRefId() leave_type: number;
  @ApiProperty({ example: 1.5, description: 'days to add (negative: to take away)' })
  @DaysValue(-999, 999)
  @NotEquals(0)
  days: number;
  @ApiPropertyOptional({ format: 'date', description: 'default today' }) @IsOptional() @IsCalendarDate() date?: string;
  @ApiProperty({ maxLength: 500, description: 'the reason' }) @Trim() @IsString() @Length(1, 500) note: string;
}

export class CreateLeaveEncashmentDto {
  @ApiInt() @IsRefId() employee: number;
  @ApiInt() @IsRefId() leave_type: number;
  @ApiProperty({ example: 3 }) @DaysValue(0.01, 999) days: number;
}

/** A row of the `leave-balances` import: an opening balance, written as an `opening` entry. */
export class LeaveOpeningDto {
  @IsRefId() employee: number;
  @IsRefId() leave_type: number;
  @DaysValue(-999, 999) days: number;
  @IsOptional() @IsCalendarDate() date?: string;
  @IsOptional() @Trim() @IsString() @Length(1, 500) note?: string;
}
