import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsOptional } from 'class-validator';
import { SyncedDateRangeListQueryDto } from '../../common/paging/list-query.dto';
import { IsIsoDateTime, IsRefId, Nullable, OptionalText } from '../../common/validation/decorators';

export class AttendanceDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'employee id' }) employee: number;
  @ApiProperty({ format: 'date-time', example: '2026-03-10T08:00:00.000Z', description: 'UTC' }) in_time: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'UTC; null while punched in' }) out_time:
    string | null;
  @ApiProperty({ type: String, nullable: true }) note: string | null;
  @ApiProperty() work_from_home: boolean;
  @ApiProperty({ type: Number, nullable: true, example: 8.5, description: 'worked hours, 2 decimals; null while punched in' })
  hours: number | null;
}

class NoteField {
  @OptionalText(500)
  note?: string | null;
}

export class PunchInDto extends NoteField {
  @ApiPropertyOptional({ description: 'ISO 8601 with an offset; default now', example: '2026-03-10T09:00:00+01:00' })
  @IsOptional()
  @IsIsoDateTime()
  time?: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  work_from_home?: boolean;

  @ApiIntOptional({
    description: "another employee's id: Admin, Restricted Admin in scope, or a Manager for its direct reports",
  })
  @IsOptional()
  @IsRefId()
  employee?: number;
}

export class PunchOutDto extends NoteField {
  @ApiPropertyOptional({ description: 'ISO 8601 with an offset; default now' })
  @IsOptional()
  @IsIsoDateTime()
  time?: string;

  @ApiIntOptional({ description: "another employee's id, as for punch-in" })
  @IsOptional()
  @IsRefId()
  employee?: number;
}

export class CreateAttendanceDto extends NoteField {
  @ApiInt({ description: 'employee id' })
  @IsRefId()
  employee: number;

  @ApiProperty({ example: '2026-03-10T09:00:00+01:00' })
  @IsIsoDateTime()
  in_time: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-10T17:30:00+01:00' })
  @IsOptional()
  @Nullable()
  @IsIsoDateTime()
  out_time?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  work_from_home?: boolean;
}

@AcceptsReadOnlyOf(() => AttendanceDto)
export class UpdateAttendanceDto extends PartialType(CreateAttendanceDto) {}

export class AttendanceListQueryDto extends SyncedDateRangeListQueryDto {}

export class AttendanceSummaryDto {
  @ApiInt() total_records: number;
  @ApiProperty({ description: 'hours of closed records, 2 decimals' }) total_hours: number;
  @ApiInt({ description: 'records starting in the current calendar month (UTC)' }) this_month_records: number;
  @ApiProperty({ description: 'total_hours / closed records, 2 decimals' }) average_hours: number;
  @ApiInt() work_from_home_records: number;
}

export class AttendanceDeletedDto {
  @ApiInt() id: number;
}
