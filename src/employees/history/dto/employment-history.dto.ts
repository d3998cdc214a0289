import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ResponseOptional } from '../../../common/openapi/response-optional';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsObject, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { IsMoney } from '../../../common/money/money';
import { ApiInt, ApiIntOptional } from '../../../common/openapi/api-int';
import {
  IsCalendarDate,
  IsIsoDateTime,
  IsRefId,
  Nullable,
  OptionalText,
  SingleLine,
  Trim,
} from '../../../common/validation/decorators';
import { CHANGE_STATUSES, ChangeStatus } from '../../entities/employment-history.entities';

function DatedRef(description: string) {
  return (target: object, key: string) => {
    ApiIntOptional({ nullable: true, description })(target, key);
    IsOptional()(target, key);
    Nullable()(target, key);
    IsRefId()(target, key);
  };
}

/** The dated fields a change sets (a field left out keeps its value; null clears it). */
export class ChangeFieldsDto {
  @ResponseOptional() @DatedRef('job title id') job_title?: number | null;
  @ResponseOptional() @DatedRef('department id') department?: number | null;
  @ResponseOptional() @DatedRef('pay grade id') pay_grade?: number | null;
  @ResponseOptional() @DatedRef('employment status id') employment_status?: number | null;
  @ResponseOptional() @DatedRef('employee id') supervisor?: number | null;
  @ResponseOptional() @DatedRef('employee id') approver1?: number | null;
  @ResponseOptional() @DatedRef('employee id') approver2?: number | null;
  @ResponseOptional() @DatedRef('employee id') approver3?: number | null;
  @ResponseOptional() @DatedRef('work calendar id (GET /calendars); null: the default calendar') calendar?: number | null;
}

export class SalaryLineDto {
  @ApiInt({ description: 'salary component id' })
  @IsRefId()
  component: number;

  @ApiProperty({ example: '5000.00', description: 'decimal string; a JSON number is accepted' })
  @IsMoney()
  amount: string;
}

function Fields() {
  return (target: object, key: string) => {
    ApiPropertyOptional({ type: ChangeFieldsDto, description: 'the dated fields it sets' })(target, key);
    IsOptional()(target, key);
    IsObject()(target, key);
    ValidateNested()(target, key);
    Type(() => ChangeFieldsDto)(target, key);
  };
}

function Salary() {
  return (target: object, key: string) => {
    ApiPropertyOptional({ type: [SalaryLineDto], description: 'the whole salary from that day (one amount per component)' })(
      target,
      key,
    );
    IsOptional()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(200)(target, key);
    ValidateNested({ each: true })(target, key);
    Type(() => SalaryLineDto)(target, key);
  };
}

/** POST /employees/{id}/changes (docs/api/decisions.md §19). */
export class RecordChangeDto {
  @ApiProperty({ type: String, format: 'date', example: '2026-12-01', description: '1900-01-01 to 2200-12-31' })
  @IsCalendarDate()
  effective_date: string;

  @OptionalText(500) reason?: string | null;
  @Fields() fields?: ChangeFieldsDto;
  @Salary() salary?: SalaryLineDto[];
}

/** POST /employees/{id}/changes/{cid}/correct: what differs from the corrected change (the rest is kept). */
export class CorrectChangeDto {
  @ApiPropertyOptional({ type: String, format: 'date', example: '2026-12-01' })
  @IsOptional()
  @IsCalendarDate()
  effective_date?: string;

  @ApiProperty({ maxLength: 500, description: 'why it is corrected' })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 500)
  reason: string;

  @Fields() fields?: ChangeFieldsDto;
  @Salary() salary?: SalaryLineDto[];
}

export class ChangeFieldsOutDto extends ChangeFieldsDto {}

export class EmploymentChangeDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiProperty({ type: String, format: 'date' }) effective_date: string;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty({ type: ChangeFieldsOutDto, description: 'the dated fields it sets' }) fields: ChangeFieldsOutDto;
  @ApiProperty({
    type: [SalaryLineDto],
    nullable: true,
    description: 'the salary it sets; null when it sets none or you may not see salaries',
  })
  salary: SalaryLineDto[] | null;
  @ApiProperty({ enum: CHANGE_STATUSES }) status: ChangeStatus;
  @ApiProperty({ type: String, format: 'date-time' }) recorded_at: string;
  @ApiInt({ nullable: true, description: 'user id; null for the migration and the system' }) recorded_by: number | null;
  @ApiInt({ nullable: true, description: 'the change this one corrects' }) corrects: number | null;
}

export class SegmentDto {
  @ApiProperty({ type: String, format: 'date' }) effective_from: string;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'the last day; null for the open segment' })
  effective_to: string | null;
  @ApiInt({ nullable: true }) job_title: number | null;
  @ApiInt({ nullable: true }) department: number | null;
  @ApiInt({ nullable: true }) pay_grade: number | null;
  @ApiInt({ nullable: true }) employment_status: number | null;
  @ApiInt({ nullable: true }) supervisor: number | null;
  @ApiInt({ nullable: true }) approver1: number | null;
  @ApiInt({ nullable: true }) approver2: number | null;
  @ApiInt({ nullable: true }) approver3: number | null;
  @ApiInt({ nullable: true, description: 'the work calendar; null: the default calendar' }) calendar: number | null;
  @ApiProperty({ type: [SalaryLineDto], nullable: true, description: 'null when you may not see salaries' })
  salary: SalaryLineDto[] | null;
  @ApiInt({ description: 'the change that began it (the last one recorded for its first day)' }) change: number;
}

export class HistoryQueryDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description: 'the history as it was recorded at this instant (default: now)',
  })
  @IsOptional()
  @IsIsoDateTime()
  known_at?: string;
}

export class AsOfQueryDto {
  @ApiPropertyOptional({ type: String, format: 'date', description: 'the dated fields in force on this day (default: today)' })
  @IsOptional()
  @IsCalendarDate()
  as_of?: string;
}

/**
 * Adds another module's dated property (EmployeeExtension.dated: `custom_fields`) to a change's
 * `fields` and to the history's segments, called when that module loads (as declareEmployeeProperty).
 */
export function declareDatedProperty(name: string, docs: { change: string; segment: string }): void {
  const object = { type: 'object', additionalProperties: true } as const;
  ApiPropertyOptional({ ...object, description: docs.change })(ChangeFieldsDto.prototype, name);
  ResponseOptional()(ChangeFieldsDto.prototype, name);
  IsOptional()(ChangeFieldsDto.prototype, name);
  IsObject({ message: `fields.${name} must be an object` })(ChangeFieldsDto.prototype, name);
  ApiProperty({ ...object, description: docs.segment })(SegmentDto.prototype, name);
}
