import { ApiInt } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsCalendarDate, IsRefId, Nullable, Trim } from '../../common/validation/decorators';
import { TASK_PRIORITIES, TASK_STATUSES, TaskPriority, TaskStatus } from '../entities/task.entity';

export class TaskDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the user the task is for' }) user: number;
  @ApiProperty({ example: 'Approve the leave request of Ada Lovelace (2026-12-21 to 2026-12-24)' }) title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ enum: TASK_STATUSES }) status: TaskStatus;
  @ApiProperty({ enum: TASK_PRIORITIES }) priority: TaskPriority;
  @ApiProperty({ type: String, format: 'date', nullable: true }) due_date: string | null;
  @ApiProperty({ type: String, nullable: true, example: '/app/api/leaves/17', description: 'the API resource to act on' })
  link: string | null;
  @ApiProperty({
    example: 'leave-approval',
    description: 'manual, password-change, leave-approval, timesheet-approval, payroll-review or payroll-failed',
  })
  source: string;
  @ApiInt({ type: Number, nullable: true, description: 'the id of the record the task is about' }) source_id: number | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: string | null;
}

export class TaskStatusDto {
  @ApiProperty({ enum: TASK_STATUSES }) @IsIn(TASK_STATUSES) status: TaskStatus;
}

/** POST /tasks (Admins): a task for a user. */
export class CreateTaskDto {
  @ApiInt({ description: 'user id' }) @IsRefId() user: number;
  @ApiProperty({ maxLength: 200 }) @Trim() @IsString() @Length(1, 200) title: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 2000 })
  @IsOptional()
  @Nullable()
  @IsString()
  @Length(0, 2000)
  description?: string | null;
  @ApiPropertyOptional({ enum: TASK_PRIORITIES, default: 'Normal' }) @IsOptional() @IsIn(TASK_PRIORITIES) priority?: TaskPriority;
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true })
  @IsOptional()
  @Nullable()
  @IsCalendarDate()
  due_date?: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    description: 'a path under the API base ({base_url}/...), such as /app/api/employees/5',
  })
  @IsOptional()
  @Nullable()
  @IsString()
  @Length(1, 500)
  @Matches(/^\/[^\s]*$/, { message: '$property must be a path starting with /' })
  link?: string | null;
}
