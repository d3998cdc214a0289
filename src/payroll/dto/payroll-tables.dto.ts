import { ApiProperty, getSchemaPath, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { IsCalendarDate, Trim } from '../../common/validation/decorators';
import { TABLE_KINDS } from '../entities/payroll-config.entities';

/** Rows per version, versions per table: what one table may hold (issue 44: tables are bounded like the engine). */
export const MAX_TABLE_ROWS = 200;
export const MAX_TABLE_VERSIONS = 100;

/** A row of a `brackets` table: the part of an amount above `from` up to `to` is taxed at `rate`. */
export class BracketRowDto {
  @ApiProperty({
    example: '10000.00',
    description: 'where the bracket starts (exclusive, but the first bracket takes its own from)',
  })
  from: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: '20000.00',
    description: 'where it ends (inclusive); null: no end (the last only)',
  })
  to: string | null;
  @ApiProperty({ example: '0.2', description: 'the rate on the part inside the bracket, as a fraction (0.2 = 20 %)' })
  rate: string;
  @ApiProperty({ example: '0.00', description: 'added when the amount falls in this bracket' })
  fixed: string;
}

/** A row of a `lookup` table. */
export class LookupRowDto {
  @ApiProperty({ example: '3', description: 'the key lookup() matches: a text, or a number as its decimal text' }) key: string;
  @ApiProperty({ example: '250.00' }) value: string;
}

export class TableVersionDto {
  @ApiProperty({ format: 'date', description: 'in force from this day until the next version' })
  @IsCalendarDate()
  effective_from: string;

  @ApiProperty({
    type: 'array',
    maxItems: MAX_TABLE_ROWS,
    items: { oneOf: [{ $ref: getSchemaPath(BracketRowDto) }, { $ref: getSchemaPath(LookupRowDto) }] },
    description: "the table's kind decides: brackets rows {from, to, rate, fixed} in order, or lookup rows {key, value}",
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TABLE_ROWS)
  @IsObject({ each: true })
  rows: Array<Record<string, unknown>>;
}

export class PayrollTableDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: TABLE_KINDS }) kind: string;
  @ApiProperty({ type: [TableVersionDto], description: 'oldest first' }) versions: TableVersionDto[];
}

/** POST /payroll_config/tables, PUT .../{id}: the whole table (a body as GET returned it is accepted). */
export class SavePayrollTableDto {
  @ApiIntOptional({ description: 'ignored: what GET answered may be sent back as it is' })
  @Allow()
  id?: unknown;

  @ApiProperty({ maxLength: 100, description: 'what formulas name: bracket("income_tax", gross)' })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: TABLE_KINDS })
  @IsIn(TABLE_KINDS)
  kind: string;

  @ApiProperty({ type: [TableVersionDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_TABLE_VERSIONS)
  @ValidateNested({ each: true })
  @Type(() => TableVersionDto)
  versions: TableVersionDto[];
}

/** PUT /payroll_config/tables/{id}: what it names replaces the table's (versions: all of them); the rest stays. */
export class UpdatePayrollTableDto extends PartialType(SavePayrollTableDto) {}
