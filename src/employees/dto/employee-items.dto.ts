import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { IsCalendarDate, IsRefId, Nullable, OptionalText, Trim } from '../../common/validation/decorators';

export const LANGUAGE_LEVELS = [
  'Elementary',
  'Limited Working',
  'Professional Working',
  'Full Professional',
  'Native',
  'Beginner',
  'Intermediate',
  'Advanced',
  'Expert',
] as const;

export class SkillItemDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'id from /skills' }) skill_id: number;
  @ApiProperty({ type: String, nullable: true }) details: string | null;
}

export class CreateSkillItemDto {
  @ApiInt({ description: 'id from /skills' }) @IsRefId() skill_id: number;
  @OptionalText(500)
  details?: string | null;
}

export class EducationItemDto {
  @ApiInt() id: number;
  @ApiInt({ type: Number, nullable: true, description: 'id from /education-levels' }) education_level: number | null;
  @ApiProperty() institute: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) date_start: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) date_end: string | null;
}

class DatedItem {
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @IsOptional()
  @Nullable()
  @IsCalendarDate()
  date_start?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @IsOptional()
  @Nullable()
  @IsCalendarDate()
  date_end?: string | null;
}

export class CreateEducationItemDto extends DatedItem {
  @ApiIntOptional({ type: Number, nullable: true, description: 'id from /education-levels' })
  @IsOptional()
  @Nullable()
  @IsRefId()
  education_level?: number | null;

  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString()
  @Length(1, 200)
  institute: string;
}

export class CertificationItemDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'id from /certifications' }) certification_id: number;
  @ApiProperty({ type: String, nullable: true }) institute: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) date_start: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) date_end: string | null;
}

export class CreateCertificationItemDto extends DatedItem {
  @ApiInt({ description: 'id from /certifications' }) @IsRefId() certification_id: number;
  @OptionalText(200)
  institute?: string | null;
}

export class LanguageItemDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'id from /languages' }) language_id: number;
  @ApiProperty({ enum: LANGUAGE_LEVELS, nullable: true }) reading: string | null;
  @ApiProperty({ enum: LANGUAGE_LEVELS, nullable: true }) speaking: string | null;
  @ApiProperty({ enum: LANGUAGE_LEVELS, nullable: true }) writing: string | null;
  @ApiProperty({ enum: LANGUAGE_LEVELS, nullable: true }) understanding: string | null;
}

function Level() {
  return (target: object, key: string) => {
    ApiPropertyOptional({ enum: LANGUAGE_LEVELS, nullable: true })(target, key);
    IsOptional()(target, key);
    Nullable()(target, key);
    IsIn(LANGUAGE_LEVELS)(target, key);
  };
}

export class CreateLanguageItemDto {
  @ApiInt({ description: 'id from /languages' }) @IsRefId() language_id: number;
  @Level() reading?: string | null;
  @Level() speaking?: string | null;
  @Level() writing?: string | null;
  @Level() understanding?: string | null;
}

export class StatusMessageDto {
  @ApiProperty({ type: String, nullable: true, description: 'the current message; null when never set' }) status: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updated_at: string | null;
}

export class SetStatusMessageDto {
  @ApiProperty({ maxLength: 500, example: 'Working from Lisbon this week' })
  @Trim()
  @IsString()
  @MaxLength(500)
  status: string;
}

export class StatusHistoryItemDto {
  @ApiInt() id: number;
  @ApiProperty() status: string;
  @ApiInt({ type: Number, nullable: true, description: 'user id of the author' }) created_by: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class ItemDeletedDto {
  @ApiInt() id: number;
}
