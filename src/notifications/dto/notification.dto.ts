import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  Matches,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Nullable } from '../../common/validation/decorators';
import { NOTIFICATION_KIND_NAMES } from '../../common/outbox/notification-kinds';

export class NotificationDto {
  @ApiInt() id: number;
  @ApiProperty({ type: String, enum: NOTIFICATION_KIND_NAMES }) kind: string;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty({ type: String, nullable: true, description: 'the API path of the record to act on' }) link: string | null;
  @ApiProperty() read: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class UnreadCountDto {
  @ApiInt() count: number;
}

export class ReadAllDto {
  @ApiInt({ description: 'notifications marked read now' }) marked: number;
}

export class NotificationPreferenceDto {
  @ApiProperty({ type: String, enum: NOTIFICATION_KIND_NAMES }) kind: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'e-mails of this kind' }) email: boolean;
  @ApiProperty({ description: 'notifications of this kind in the feed and its stream' }) in_app: boolean;
  @ApiProperty({ enum: ['immediate', 'daily'] }) frequency: 'immediate' | 'daily';
  @ApiProperty({ description: 'cannot be switched off in the feed' }) mandatory: boolean;
}

@AcceptsReadOnlyOf(() => NotificationPreferenceDto)
export class UpdateNotificationPreferenceDto {
  @ApiProperty({ type: String, enum: NOTIFICATION_KIND_NAMES }) @IsString() kind: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() email?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() in_app?: boolean;
  @ApiPropertyOptional({ enum: ['immediate', 'daily'] }) @IsOptional() @IsIn(['immediate', 'daily']) frequency?:
    'immediate' | 'daily';
}

export class UpdateNotificationPreferencesDto {
  @ApiProperty({ type: [UpdateNotificationPreferenceDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => UpdateNotificationPreferenceDto)
  items: UpdateNotificationPreferenceDto[];
}

export class NotificationSettingsDto {
  @ApiInt({ type: Number, nullable: true, description: 'the hour (0-23) of the daily digest; null: the company setting' })
  digest_hour: number | null;
  @ApiProperty({ type: String, nullable: true, description: "an IANA time zone; null: the company's (setting Time Zone)" })
  time_zone: string | null;
  @ApiInt({ description: 'the hour the digest goes out' }) effective_digest_hour: number;
  @ApiProperty({ description: 'the time zone of that hour' }) effective_time_zone: string;
}

@AcceptsReadOnlyOf(() => NotificationSettingsDto)
export class UpdateNotificationSettingsDto {
  @ApiIntOptional({ type: Number, nullable: true, minimum: 0, maximum: 23 })
  @IsOptional()
  @Nullable()
  @IsInt()
  @Min(0)
  @Max(23)
  digest_hour?: number | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Europe/Berlin' })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(64)
  time_zone?: string | null;
}

export class NotificationTemplateDto {
  @ApiInt() id: number;
  @ApiProperty({ description: 'a notification kind, or digest' }) kind: string;
  @ApiProperty({ example: 'en' }) lang: string;
  @ApiProperty({ description: 'Handlebars; values as they are, on one line' }) subject: string;
  @ApiProperty({ description: 'Handlebars; values escaped' }) html: string;
  @ApiProperty({ description: 'Handlebars; values as they are' }) text: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

const LANG_RE = /^[a-z]{2,3}(-[A-Z]{2})?$/;

/** A template's three parts, each optional (an update, a preview). */
class NotificationTemplatePartsDto {
  @ApiPropertyOptional({ maxLength: 500 }) @IsOptional() @IsString() @MaxLength(500) subject?: string;
  @ApiPropertyOptional({ maxLength: 100_000 }) @IsOptional() @IsString() @MaxLength(100_000) html?: string;
  @ApiPropertyOptional({ maxLength: 100_000 }) @IsOptional() @IsString() @MaxLength(100_000) text?: string;
}

@AcceptsReadOnlyOf(() => NotificationTemplateDto)
export class UpdateNotificationTemplateDto extends NotificationTemplatePartsDto {}

export class CreateNotificationTemplateDto {
  @ApiProperty({ description: 'a notification kind, or digest' }) @IsString() @MaxLength(40) kind: string;
  @ApiPropertyOptional({ default: 'en', example: 'de' })
  @IsOptional()
  @Matches(LANG_RE, { message: '$property must be a language code such as en or pt-BR' })
  lang?: string;
  @ApiProperty({ maxLength: 500 }) @IsString() @MaxLength(500) subject: string;
  @ApiProperty({ maxLength: 100_000 }) @IsString() @MaxLength(100_000) html: string;
  @ApiProperty({ maxLength: 100_000 }) @IsString() @MaxLength(100_000) text: string;
}

export class PreviewNotificationTemplateDto extends NotificationTemplatePartsDto {
  @ApiProperty({ description: 'a notification kind, or digest' }) @IsString() @MaxLength(40) kind: string;
  @ApiPropertyOptional({ default: 'en', description: 'whose template fills the parts not given' })
  @IsOptional()
  @Matches(LANG_RE, { message: '$property must be a language code such as en or pt-BR' })
  lang?: string;
}

export class RenderedTemplateDto {
  @ApiProperty() subject: string;
  @ApiProperty() html: string;
  @ApiProperty() text: string;
}
