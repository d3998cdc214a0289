import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { ApiInt } from '../../common/openapi/api-int';
import { IsMoney } from '../../common/money/money';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { IsCalendarDate, Nullable, SingleLine, Trim } from '../../common/validation/decorators';
import { RATE_PATTERN } from '../entities/expense.entities';

export class ExpenseCategoryDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: '6400', description: 'the journal account an item of it debits' }) account: string;
  @ApiProperty({ type: String, nullable: true, example: '150.00', description: 'the most one item may claim; null: no ceiling' })
  max_amount: string | null;
  @ApiProperty() requires_receipt: boolean;
}

export class CreateExpenseCategoryDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  name: string;

  @ApiProperty({ maxLength: 40, example: '6400' })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 40)
  account: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '150.00' })
  @IsOptional()
  @Nullable()
  @IsMoney()
  max_amount?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  requires_receipt?: boolean;
}

@AcceptsReadOnlyOf(() => ExpenseCategoryDto)
export class UpdateExpenseCategoryDto extends PartialType(CreateExpenseCategoryDto) {}

/** A rate as a decimal string ("1.0842"); a JSON number is taken as its text. */
const rateText = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value));

export class ExchangeRateDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'USD', description: 'ISO 4217; not the company currency' }) currency: string;
  @ApiProperty({ format: 'date', description: 'the rate holds from this day until the next one of the currency' }) date: string;
  @ApiProperty({ example: '0.9231', description: 'units of the company currency per unit of `currency`' }) rate: string;
}

export class CreateExchangeRateDto {
  @ApiProperty({ example: 'USD' })
  @IsString()
  @Matches(/^[A-Z]{3}$/, { message: '$property must be an ISO 4217 code such as USD' })
  currency: string;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date: string;

  @ApiProperty({ example: '0.9231', description: 'a positive decimal, at most 10 decimals' })
  @rateText()
  @IsString()
  @Matches(RATE_PATTERN, { message: '$property must be a positive decimal such as "0.9231" (at most 10 decimals)' })
  rate: string;
}

@AcceptsReadOnlyOf(() => ExchangeRateDto)
export class UpdateExchangeRateDto extends PartialType(CreateExchangeRateDto) {}
