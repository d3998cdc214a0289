import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { IsHolderName, IsIban, IsOptionalBic } from '../../common/banking/banking.decorators';
import { ApiInt } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { SingleLine, Trim } from '../../common/validation/decorators';

export class BankAccountDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The IBAN, to an Admin and the employee itself; null to anyone else (who sees iban_masked)',
  })
  iban: string | null;
  @ApiProperty({ example: 'DE89**************3000', description: 'country, check digits and the last four characters' })
  iban_masked: string;
  @ApiProperty({ type: String, nullable: true }) bic: string | null;
  @ApiProperty() holder_name: string;
  @ApiProperty({ description: 'the account the bank file pays to; one per employee' }) primary: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class CreateBankAccountDto {
  @IsIban('ISO 13616: country, check digits, the account; spaces allowed')
  iban: string;

  @IsOptionalBic()
  bic?: string | null;

  @ApiProperty({ maxLength: 140 })
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(140)
  @SingleLine()
  @IsHolderName()
  holder_name: string;

  @ApiPropertyOptional({ description: "default: true for the employee's first account; true makes the others not primary" })
  @IsOptional()
  @IsBoolean()
  primary?: boolean;
}

/**
 * An account's IBAN does not change (read-only here, ignored when sent): another IBAN is another
 * account, added with POST and made primary, so the old one stays on record beside it.
 */
@AcceptsReadOnlyOf(() => BankAccountDto)
export class UpdateBankAccountDto extends PartialType(OmitType(CreateBankAccountDto, ['iban'] as const)) {}
