import { ApprovalViewDto } from '../../approvals/dto/approvals.dto';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsOptional, IsString, Length, Matches } from 'class-validator';
import { SyncedDateRangeListQueryDto } from '../../common/paging/list-query.dto';
import { IsCalendarDate, IsRefId, Nullable, OptionalText, Trim } from '../../common/validation/decorators';
import { TIME_ENTRY_STATUSES } from '../entities/timesheet.entities';

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

export class ProjectDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) client: string | null;
}

export class CreateProjectDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @OptionalText(100)
  client?: string | null;
}

export class UpdateProjectDto extends PartialType(CreateProjectDto) {}

/** A time entry's own fields (what an export's rows hold). */
export class TimeEntryRowDto {
  @ApiInt() id: number;
  @ApiInt() employee: number;
  @ApiInt({ type: Number, nullable: true }) project: number | null;
  @ApiProperty({ format: 'date' }) date: string;
  @ApiProperty({ example: '09:00' }) start: string;
  @ApiProperty({ example: '12:30' }) end: string;
  @ApiProperty({ example: 3.5, description: '2 decimals' }) hours: number;
  @ApiProperty({ type: String, nullable: true }) details: string | null;
  @ApiProperty({ enum: TIME_ENTRY_STATUSES }) status: string;
}

export class TimeEntryDto extends TimeEntryRowDto {
  @ApiProperty({
    type: ApprovalViewDto,
    nullable: true,
    description: 'its approval chain once submitted (issue 45): the steps, who decides each, their decisions',
  })
  approval: ApprovalViewDto | null;
}

export class CreateTimeEntryDto {
  @ApiIntOptional({ type: Number, nullable: true, description: 'id from /projects' })
  @IsOptional()
  @Nullable()
  @IsRefId()
  project?: number | null;

  @ApiProperty({ format: 'date' }) @IsCalendarDate() date: string;
  @ApiProperty({ example: '09:00' }) @Matches(HHMM, { message: '$property must be a time HH:MM' }) start: string;
  @ApiProperty({ example: '12:30', description: 'after start, on the same day' })
  @Matches(HHMM, { message: '$property must be a time HH:MM' })
  end: string;

  @OptionalText(500)
  details?: string | null;

  @ApiIntOptional({ description: 'for another employee: Admin, or Restricted Admin in scope' })
  @IsOptional()
  @IsRefId()
  employee?: number;
}

@AcceptsReadOnlyOf(() => TimeEntryDto)
export class UpdateTimeEntryDto extends PartialType(CreateTimeEntryDto) {}

export class TimesheetListQueryDto extends SyncedDateRangeListQueryDto {}

export class TimeEntryDeletedDto {
  @ApiInt() id: number;
}
