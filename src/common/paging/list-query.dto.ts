import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { IsCalendarDate, IsIsoDateTime } from '../validation/decorators';

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 50;
export const SORT_ORDERS = ['ascend', 'descend'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/**
 * What every list takes (docs/api/decisions.md §6): the page, its size, and the direction. Lists with a fixed order
 * and nothing to filter (settings, registries, the payroll grid) take only these: `sortOrder`
 * reverses their order, and a `sortField` or `filters` is refused as an unknown parameter (issue 25).
 */
export class PageQueryDto {
  @ApiPropertyOptional({ minimum: 1, default: 1, description: '1-based page number' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page: number = 1;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;

  @ApiPropertyOptional({ enum: SORT_ORDERS, default: 'ascend' })
  @IsOptional()
  @IsIn(SORT_ORDERS)
  sortOrder: SortOrder = 'ascend';
}

/** Query parameters of a list with sort fields and filter fields (docs/api/decisions.md §6). */
export class ListQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'one of the sort fields documented for the endpoint; default id' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  sortField?: string;

  @ApiPropertyOptional({
    description: 'JSON object {"field": value} or {"field": [v1, v2]} over the documented filter fields',
    example: '{"status":"Active"}',
  })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  filters?: string;
}

export class SearchableListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ description: 'free-text search over the documented fields' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;
}

/** Lists of dated records (attendance, leave, timesheets): `from`/`to` are days, both included; each endpoint says which date they test. */
export class DateRangeListQueryDto extends ListQueryDto {
  @ApiPropertyOptional({ format: 'date', description: 'first day, included' })
  @IsOptional()
  @IsCalendarDate()
  from?: string;

  @ApiPropertyOptional({ format: 'date', description: 'last day, included' })
  @IsOptional()
  @IsCalendarDate()
  to?: string;
}

/**
 * `updated_since` of a record list a sync reads (docs/api/decisions.md §19): only records changed at or after the
 * instant (RFC 3339), to the second as `updated_at` holds it, so a record changed within the second
 * of the last read comes again rather than never.
 */
export function UpdatedSince() {
  return (target: object, key: string) => {
    ApiPropertyOptional({
      type: String,
      format: 'date-time',
      description:
        'only records changed at or after this instant (RFC 3339; to the second, so a record changed within the second ' +
        'of the last read comes again rather than never): a sync reads what changed since its last run',
    })(target, key);
    IsOptional()(target, key);
    IsIsoDateTime()(target, key);
  };
}

/** A list of dated records a sync reads by `updated_since` (attendance, leave requests, time entries). */
export class SyncedDateRangeListQueryDto extends DateRangeListQueryDto {
  @UpdatedSince() updated_since?: string;
}

/** A searchable list a sync reads by `updated_since` (users). */
export class SyncedSearchableListQueryDto extends SearchableListQueryDto {
  @UpdatedSince() updated_since?: string;
}
