import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';

export class EventsQueryDto {
  @ApiIntOptional({ minimum: 0, description: 'the cursor: events after this one (next_after of the previous page); default 0' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  // A sequence number is exact up to 2^53 - 1; a larger cursor would be rounded to another one.
  @Max(Number.MAX_SAFE_INTEGER)
  after?: number;

  @ApiPropertyOptional({
    description: 'comma-separated event types (default: every webhook event)',
    example: 'employee.updated,employee.change_effective',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  types?: string;

  @ApiIntOptional({ minimum: 1, maximum: 1000, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

export class FeedEventDto {
  @ApiInt({ description: 'its position in the feed: events are numbered in the order they were committed' }) id: number;
  @ApiProperty({ example: 'employee.change_effective' }) type: string;
  @ApiProperty({ type: String, format: 'date-time' }) occurred_at: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the payload webhooks carry for this event' })
  data: Record<string, unknown>;
}
