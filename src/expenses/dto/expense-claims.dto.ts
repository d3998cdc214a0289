import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, Length, Matches, ValidateNested } from 'class-validator';
import { ApprovalViewDto } from '../../approvals/dto/approvals.dto';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { IsCalendarDate, IsCurrencyCode, IsRefId, SingleLine, Trim } from '../../common/validation/decorators';
import { EXPENSE_CLAIM_STATUSES, ExpenseClaimStatus } from '../entities/expense.entities';

/** The most items one claim holds. */
export const MAX_CLAIM_ITEMS = 100;

/** An amount as the API takes it: a positive decimal string with at most 3 decimals (a JSON number is taken as its text). */
export const ITEM_AMOUNT = /^(?=.*[1-9])\d{1,12}(\.\d{1,3})?$/;

const amountText = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value));

export class ExpenseItemDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'an expense category' }) category: number;
  @ApiProperty({ format: 'date', description: 'the day of the expense: its rate is that day’s or the last before' }) date: string;
  @ApiProperty() description: string;
  @ApiProperty({ example: '120.00', description: 'in `currency`, to its minor unit' }) amount: string;
  @ApiProperty({ example: 'USD', description: 'ISO 4217' }) currency: string;
  @ApiProperty({
    example: '0.9231',
    description: 'units of the claim’s currency per unit of the item’s, as used (1 in the same currency)',
  })
  rate: string;
  @ApiProperty({ example: '110.77', description: 'amount × rate, half up to the claim currency’s minor unit' })
  amount_converted: string;
  @ApiInt({ type: Number, nullable: true, description: 'its receipt: a document of the employee (type Receipt); null: none yet' })
  receipt: number | null;
}

export class ExpenseClaimDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiProperty() title: string;
  @ApiProperty({
    example: 'EUR',
    description: 'the employee’s payroll currency when the claim was made (else the company currency)',
  })
  currency: string;
  @ApiProperty({ enum: EXPENSE_CLAIM_STATUSES }) status: ExpenseClaimStatus;
  @ApiProperty({ type: [ExpenseItemDto] }) items: ExpenseItemDto[];
  @ApiProperty({ example: '230.77', description: 'Σ of the items’ amount_converted' }) total: string;
  @ApiProperty({ type: ApprovalViewDto, nullable: true, description: 'its approval chain once submitted' })
  approval: ApprovalViewDto | null;
  @ApiInt({ type: Number, nullable: true, description: 'the payroll that paid it' }) paid_in: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'the reference of a payment outside payroll' })
  paid_reference: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) paid_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) submitted_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decided_at: string | null;
}

/** An item as a claim is written: without an id a new one; with the id of one of the claim's items, that item (its receipt kept). */
@AcceptsReadOnlyOf(() => ExpenseItemDto)
export class ExpenseItemInputDto {
  @ApiIntOptional({ description: 'one of the claim’s items (PUT): it keeps its receipt; absent: a new item' })
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiInt()
  @IsRefId()
  category: number;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date: string;

  @ApiProperty({ maxLength: 500 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 500)
  description: string;

  @ApiProperty({ example: '120.00', description: 'a positive decimal string, at most the currency’s minor unit of decimals' })
  @amountText()
  @IsString()
  @Matches(ITEM_AMOUNT, { message: '$property must be a positive amount such as "120.00"' })
  amount: string;

  @ApiPropertyOptional({ example: 'USD', description: 'default: the claim’s currency' })
  @IsOptional()
  @IsCurrencyCode()
  currency?: string;
}

export class CreateExpenseClaimDto {
  @ApiIntOptional({ description: 'Admins and Restricted Admins in scope may claim for an employee; default: oneself' })
  @IsOptional()
  @IsRefId()
  employee?: number;

  @ApiProperty({ maxLength: 200, example: 'Customer visit, Lyon' })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 200)
  title: string;

  @ApiPropertyOptional({ type: [ExpenseItemInputDto], maxItems: MAX_CLAIM_ITEMS, default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CLAIM_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => ExpenseItemInputDto)
  items?: ExpenseItemInputDto[];
}

/** Omitted fields stay; `items` replaces the items (those named by id kept with their receipts). */
@AcceptsReadOnlyOf(() => ExpenseClaimDto)
export class UpdateExpenseClaimDto {
  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 200)
  title?: string;

  @ApiPropertyOptional({ type: [ExpenseItemInputDto], maxItems: MAX_CLAIM_ITEMS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_CLAIM_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => ExpenseItemInputDto)
  items?: ExpenseItemInputDto[];
}

export class PayExpenseClaimDto {
  @ApiProperty({ maxLength: 140, example: 'TRF-2026-12-0042', description: 'how it was paid (a bank transfer’s reference)' })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 140)
  reference: string;
}

export class ExpenseClaimListQueryDto extends ListQueryDto {}

export class ExpenseClaimDeletedDto {
  @ApiInt() id: number;
}
