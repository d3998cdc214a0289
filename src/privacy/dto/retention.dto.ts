import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiInt } from '../../common/openapi/api-int';
import { RETENTION_ACTIONS, RetentionAction } from '../../common/privacy/retention';
import { RetentionPolicy } from '../entities/employee-privacy.entity';

const CATEGORY =
  'the category of personal data, one of those the installation’s modules declare (this release: contact, identity, bank_accounts, ' +
  'documents, attendance, timesheets, leave, notifications, audit, custom_fields; docs/api/privacy.md says what each covers)';
const KEEP_YEARS = 'years kept after the employee’s termination date, 0 to 100';
const ACTION = 'what the daily job does once they are due: anonymise (clear the personal values, keep the records) or delete';

export class RetentionPolicyBodyDto {
  @ApiProperty({ description: CATEGORY, example: 'bank_accounts', maxLength: 30 })
  @IsString()
  @MaxLength(30)
  category: string;

  @ApiInt({ minimum: 0, maximum: 100, description: KEEP_YEARS })
  @IsInt()
  @Min(0)
  @Max(100)
  keep_years: number;

  @ApiProperty({ enum: RETENTION_ACTIONS, description: ACTION })
  @IsIn(RETENTION_ACTIONS)
  action: RetentionAction;
}

export class UpdateRetentionPolicyDto extends PartialType(RetentionPolicyBodyDto) {}

export class RetentionPolicyDto {
  @ApiInt() id: number;
  @ApiProperty({ description: CATEGORY }) category: string;
  @ApiInt({ minimum: 0, maximum: 100, description: KEEP_YEARS }) keep_years: number;
  @ApiProperty({ enum: RETENTION_ACTIONS, description: ACTION }) action: RetentionAction;
}

export class RetentionPreviewItemDto {
  @ApiInt({ description: 'the leaver' }) employee: number;
  @ApiProperty() category: string;
  @ApiProperty({ enum: RETENTION_ACTIONS }) action: RetentionAction;
  @ApiInt({ description: 'how many of its records the action changes today' }) records: number;
}

export function toRetentionPolicyDto(p: RetentionPolicy): RetentionPolicyDto {
  return { id: p.id, category: p.category, keep_years: p.keepYears, action: p.action };
}
