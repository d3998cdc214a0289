import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { ApiInt } from '../../common/openapi/api-int';
import { IsCalendarDate, IsRefId, Nullable } from '../../common/validation/decorators';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { COST_CENTRES, CostCentre } from './books.entities';
import { PAIN_VERSIONS, PainVersion } from './sepa-file';

const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9 .\-/:]{0,39}$/;
const ACCOUNT_NOTE =
  'an account of the chart of accounts (letters, digits, space . - / :, at most 40); null with the other null: the column is not posted';

export class PayrollAccountDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the payroll column' }) column: number;
  @ApiProperty({ type: String, nullable: true, description: ACCOUNT_NOTE }) debit_account: string | null;
  @ApiProperty({ type: String, nullable: true, description: ACCOUNT_NOTE }) credit_account: string | null;
  @ApiProperty({ enum: COST_CENTRES, description: "department: a line per employee's department (on the payroll's last day)" })
  cost_centre: CostCentre;
}

export class CreatePayrollAccountDto {
  @ApiInt({ description: 'the payroll column (one mapping each)' })
  @IsRefId()
  column: number;

  @ApiProperty({ type: String, nullable: true, maxLength: 40, description: ACCOUNT_NOTE })
  @Nullable()
  @IsString()
  @Matches(ACCOUNT, { message: '$property must be 1-40 letters, digits, spaces or . - / :, starting with a letter or digit' })
  debit_account: string | null;

  @ApiProperty({ type: String, nullable: true, maxLength: 40, description: ACCOUNT_NOTE })
  @Nullable()
  @IsString()
  @Matches(ACCOUNT, { message: '$property must be 1-40 letters, digits, spaces or . - / :, starting with a letter or digit' })
  credit_account: string | null;

  @ApiPropertyOptional({ enum: COST_CENTRES, default: 'none' })
  @IsOptional()
  @IsIn(COST_CENTRES)
  cost_centre?: CostCentre;
}

@AcceptsReadOnlyOf(() => PayrollAccountDto)
export class UpdatePayrollAccountDto extends PartialType(CreatePayrollAccountDto) {}

/** POST .../bank-files: the file's parameters (those of the old GET .../bank-file's query). */
export class BankFileQueryDto {
  @ApiPropertyOptional({ enum: PAIN_VERSIONS, default: 'pain.001.001.03' })
  @IsOptional()
  @IsIn(PAIN_VERSIONS)
  format?: PainVersion;

  @ApiPropertyOptional({ format: 'date', description: 'a weekday, today or later (default: the next weekday from today on)' })
  @IsOptional()
  @IsCalendarDate()
  execution_date?: string;

  @ApiPropertyOptional({
    description: 'leave out employees without a valid primary account instead of answering 409 (default false)',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  skip_missing?: boolean;
}

export const JOURNAL_FORMATS = ['json', 'csv', 'xlsx'] as const;
export class JournalQueryDto {
  @ApiPropertyOptional({ enum: JOURNAL_FORMATS, default: 'json' })
  @IsOptional()
  @IsIn(JOURNAL_FORMATS)
  format?: (typeof JOURNAL_FORMATS)[number];
}

export const REGISTER_FORMATS = ['csv', 'xlsx'] as const;
export class RegisterQueryDto {
  @ApiPropertyOptional({ enum: REGISTER_FORMATS, default: 'csv' })
  @IsOptional()
  @IsIn(REGISTER_FORMATS)
  format?: (typeof REGISTER_FORMATS)[number];
}

export class JournalLineDto {
  @ApiProperty() account: string;
  @ApiProperty({ description: 'decimal text, "0.00" on a credit line' }) debit: string;
  @ApiProperty({ description: 'decimal text, "0.00" on a debit line' }) credit: string;
  @ApiProperty({ description: "the employees' payroll currency (a payroll paying in two currencies posts each apart)" })
  currency: string;
  @ApiProperty({ type: String, nullable: true, description: "the department's name (cost_centre department); null otherwise" })
  cost_centre: string | null;
  @ApiProperty({ description: 'the column and the payroll' }) description: string;
}

export class JournalDto {
  @ApiInt() payroll: number;
  @ApiProperty({ type: [JournalLineDto] }) lines: JournalLineDto[];
  @ApiProperty({ description: 'Σ debit, equal to total_credit' }) total_debit: string;
  @ApiProperty() total_credit: string;
}

/** A bank file made for a payroll (POST .../bank-files). */
export class BankFileDto {
  @ApiInt() id: number;
  @ApiInt() payroll: number;
  @ApiInt({ description: 'the revision of the payroll it pays' }) revision: number;
  @ApiProperty({ enum: PAIN_VERSIONS }) format: PainVersion;
  @ApiProperty({ format: 'date' }) execution_date: string;
  @ApiProperty({ description: 'employees without a valid primary account were left out' }) skip_missing: boolean;
  @ApiProperty({ description: "the file's MsgId: the same for every file of this revision (a bank refuses a second one)" })
  msg_id: string;
  @ApiProperty({ description: 'SHA-256 of the file, hex' }) sha256: string;
  @ApiInt({ description: 'NbOfTxs' }) transactions: number;
  @ApiProperty({ example: '48213.07', description: 'CtrlSum: the sum of the transfers, a decimal string' }) total: string;
  @ApiInt({ nullable: true, description: 'the user who made it' }) created_by: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}
