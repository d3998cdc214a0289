import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, ValidateNested } from 'class-validator';
import { NOTIFICATION_KIND_NAMES } from '../notification-kinds';

export class NotificationDto {
  @ApiProperty() id: number;
  @ApiProperty({ enum: NOTIFICATION_KIND_NAMES }) kind: string;
  @ApiProperty() title: string;
  @ApiProperty() body: string;
  @ApiProperty({ type: String, nullable: true, description: 'the API path of the record to act on' }) link: string | null;
  @ApiProperty() read: boolean;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class UnreadCountDto {
  @ApiProperty() count: number;
}

export class ReadAllDto {
  @ApiProperty({ description: 'notifications marked read now' }) marked: number;
}

export class NotificationPreferenceDto {
  @ApiProperty({ enum: NOTIFICATION_KIND_NAMES }) kind: string;
  @ApiProperty() description: string;
  @ApiProperty({ description: 'e-mails of this kind' }) email: boolean;
  @ApiProperty({ description: 'notifications of this kind in the feed and its stream' }) in_app: boolean;
  @ApiProperty({ enum: ['immediate', 'daily'] }) frequency: 'immediate' | 'daily';
  @ApiProperty({ description: 'cannot be switched off in the feed' }) mandatory: boolean;
}

export class UpdateNotificationPreferenceDto {
  @ApiProperty({ enum: NOTIFICATION_KIND_NAMES }) @IsString() kind: string;
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
