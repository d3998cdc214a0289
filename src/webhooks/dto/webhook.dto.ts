import { ApiInt } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length } from 'class-validator';
// The declared events themselves (common/outbox/event-schemas: a live list, as webhook-events.ts reads it).
import { WEBHOOK_EVENT_NAMES as WEBHOOK_EVENTS } from '../../common/outbox/event-schemas';
import { OptionalText, Trim } from '../../common/validation/decorators';

export class WebhookDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'https://accounting.example.com/hooks/hr' }) url: string;
  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true }) events: string[];
  @ApiProperty({ description: 'false: nothing is delivered (set by an Admin, or after a day of failed deliveries)' })
  active: boolean;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why the service disabled it, when it did' })
  disabled_reason: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class WebhookWithSecretDto extends WebhookDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'The signing secret, shown only in this answer (creation, rotate-secret): keep it with the receiver',
  })
  secret: string;
}

export class CreateWebhookDto {
  @ApiProperty({ maxLength: 2000, description: 'http(s); refused when it resolves to a loopback, private or link-local address' })
  @Trim()
  @IsString()
  @Length(1, 2000)
  url: string;

  // Distinct declared events: at most as many as there are (WEBHOOK_EVENTS is read when a body is
  // validated, once every module has declared its own).
  @ApiProperty({ enum: WEBHOOK_EVENTS, isArray: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(WEBHOOK_EVENTS, { each: true })
  events: string[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @OptionalText(500)
  description?: string | null;
}

@AcceptsReadOnlyOf(() => WebhookDto)
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}

export class WebhookDeliveryDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'leave.decided' }) event: string;
  @ApiProperty({ description: 'the webhook-id header without its msg_ prefix: the same on every attempt' }) event_id: string;
  @ApiInt() attempt: number;
  @ApiInt({ type: Number, nullable: true, description: 'null when no answer came' }) status_code: number | null;
  @ApiInt() duration_ms: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty() delivered: boolean;
  @ApiProperty({ format: 'date-time' }) at: string;
}
