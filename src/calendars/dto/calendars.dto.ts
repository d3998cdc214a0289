import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions, OmitType, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
} from 'class-validator';
import { ApiInt } from '../../common/openapi/api-int';
import { IsCalendarDate, IsCountryCode, Nullable, SingleLine, Trim } from '../../common/validation/decorators';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { HOLIDAY_FRACTIONS, HOLIDAY_KINDS, HolidayFraction, HolidayKind } from '../entities/calendar.entities';

/** The earliest and latest year a holiday import covers. */
export const IMPORT_YEARS = { min: 1970, max: 2100 } as const;

const WORK_WEEK: ApiPropertyOptions = {
  type: 'integer',
  isArray: true,
  minimum: 1,
  maximum: 7,
  example: [1, 2, 3, 4, 5],
  description: 'ISO weekdays worked (1 = Monday … 7 = Sunday), each once, at least one',
};

export class CalendarDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'Bavaria' }) name: string;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'DE',
    description: 'ISO 3166-1 alpha-2; null only on the default calendar the upgrade made, until an Admin sets it',
  })
  country: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'DE-BY', description: 'ISO 3166-2, or null' })
  subdivision: string | null;
  @ApiProperty(WORK_WEEK) work_week: number[];
  @ApiProperty({ description: 'the calendar of every employee none was set for; exactly one is' }) is_default: boolean;
}

export class CreateCalendarDto {
  @ApiProperty({ maxLength: 100, example: 'Bavaria' }) @Trim() @IsString() @SingleLine() @Length(1, 100) name: string;
  @ApiProperty({ example: 'DE', description: 'ISO 3166-1 alpha-2' }) @IsCountryCode() country: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'DE-BY',
    description: "ISO 3166-2, a subdivision of the country that the holiday dataset knows; null: the country's",
  })
  @IsOptional()
  @Nullable()
  @IsString()
  @Matches(/^[A-Z]{2}-[A-Z0-9]{1,3}$/, { message: 'must be an ISO 3166-2 code such as DE-BY' })
  subdivision?: string | null;
  @ApiPropertyOptional({ ...WORK_WEEK, default: [1, 2, 3, 4, 5] })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1, { message: 'must name at least one weekday' })
  @ArrayMaxSize(7)
  @ArrayUnique({ message: 'must not repeat a weekday' })
  @IsInt({ each: true })
  @Min(1, { each: true })
  @Max(7, { each: true })
  work_week?: number[];
  @ApiPropertyOptional({
    description: 'true makes it the default (the previous default is one no longer); false on the default is refused',
  })
  @IsOptional()
  @IsBoolean()
  is_default?: boolean;
}

@AcceptsReadOnlyOf(() => CalendarDto)
export class UpdateCalendarDto extends PartialType(OmitType(CreateCalendarDto, ['country'] as const)) {
  @ApiPropertyOptional({
    type: String,
    example: 'DE',
    description:
      'ISO 3166-1 alpha-2; null (what GET answers for the upgraded default calendar) is accepted only where it is null already',
  })
  @IsOptional()
  @Nullable()
  @IsCountryCode()
  country?: string | null;
}

export class HolidayDto {
  @ApiInt() id: number;
  @ApiProperty({ format: 'date', example: '2026-12-25' }) date: string;
  @ApiProperty({ example: 'Christmas Day' }) name: string;
  @ApiProperty({ enum: HOLIDAY_FRACTIONS, description: 'the part of the day off: "1" a whole day, "0.5" half of it' })
  fraction: HolidayFraction;
  @ApiProperty({ enum: HOLIDAY_KINDS, description: "public (by law) or the company's own" }) kind: HolidayKind;
}

export class CreateHolidayDto {
  @ApiProperty({ format: 'date', example: '2026-12-24' }) @IsCalendarDate() date: string;
  @ApiProperty({ maxLength: 100, example: 'Christmas Eve' }) @Trim() @IsString() @SingleLine() @Length(1, 100) name: string;
  @ApiPropertyOptional({ enum: HOLIDAY_FRACTIONS, default: '1' })
  @IsOptional()
  @IsIn(HOLIDAY_FRACTIONS, { message: 'must be "1" (a whole day) or "0.5" (half a day)' })
  fraction?: HolidayFraction;
  @ApiPropertyOptional({ enum: HOLIDAY_KINDS, default: 'public' })
  @IsOptional()
  @IsIn(HOLIDAY_KINDS)
  kind?: HolidayKind;
}

@AcceptsReadOnlyOf(() => HolidayDto)
export class UpdateHolidayDto extends PartialType(CreateHolidayDto) {}

export class HolidayImportQueryDto {
  @ApiProperty({ type: 'integer', minimum: IMPORT_YEARS.min, maximum: IMPORT_YEARS.max, example: 2027 })
  @Type(() => Number)
  @IsInt()
  @Min(IMPORT_YEARS.min)
  @Max(IMPORT_YEARS.max)
  year: number;
  @ApiPropertyOptional({
    enum: ['true', 'false'],
    default: 'false',
    description: 'true: report what would be added, write nothing',
  })
  @IsOptional()
  @IsIn(['true', 'false'])
  dry_run?: 'true' | 'false';
}

export class ImportedHolidayDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: HOLIDAY_FRACTIONS }) fraction: HolidayFraction;
}

export class HolidayImportDto {
  @ApiInt() year: number;
  @ApiProperty() dry_run: boolean;
  @ApiProperty({ type: [ImportedHolidayDto], description: 'added (or, in a dry run, that would be)' })
  added: ImportedHolidayDto[];
  @ApiProperty({ type: [ImportedHolidayDto], description: "the dataset's holidays whose date the calendar has already" })
  existing: ImportedHolidayDto[];
}

export class CalendarDeletedDto {
  @ApiInt() id: number;
}

export class WorkingDaysQueryDto {
  @ApiPropertyOptional({
    format: 'date',
    example: '2026-12-01',
    description: "default: the first day of the company's current month",
  })
  @IsOptional()
  @IsCalendarDate()
  from?: string;
  @ApiPropertyOptional({
    format: 'date',
    example: '2026-12-31',
    description: "inclusive, at most 366 days from `from`; default: the last day of from's month",
  })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

export class WorkingDayDto {
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ enum: [1, 0.5, 0], description: 'the part of the day that is working time' }) fraction: number;
  @ApiInt({ description: 'the calendar the employee had that day' }) calendar: number;
  @ApiProperty({ type: String, nullable: true, description: "the holiday's name, or null" }) holiday: string | null;
}

export class WorkingDaysDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
  @ApiProperty({ example: 21.5, description: 'the sum of the days’ fractions' }) working_days: number;
  @ApiProperty({ type: [WorkingDayDto] }) days: WorkingDayDto[];
}
