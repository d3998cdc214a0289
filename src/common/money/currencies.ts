import { ApiInt } from '../openapi/api-int';
import { ApiProperty } from '@nestjs/swagger';
import currencyCodes from 'currency-codes';

export class CurrencyDto {
  @ApiProperty({ example: 'EUR' }) code: string;
  @ApiProperty({ example: 'Euro' }) name: string;
  @ApiProperty({ example: '978' }) numeric: string;
  @ApiInt({ example: 2, description: 'decimal places of amounts (ISO 4217 minor unit)' }) minor_unit: number;
}

/** ISO 4217 from the maintained currency-codes package, sorted by code. */
export const CURRENCIES: readonly CurrencyDto[] = currencyCodes.data
  .map((c) => ({ code: c.code, name: c.currency, numeric: c.number, minor_unit: c.digits }))
  .sort((a, b) => a.code.localeCompare(b.code));

/** Decimal places of a currency's amounts (2 when unknown). */
export function minorUnitOf(code: string): number {
  return currencyCodes.code(code)?.digits ?? 2;
}
