import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
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
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { IsRefId, Nullable, OptionalText, SingleLine, Trim } from '../../common/validation/decorators';
import {
  ASSIGNEE_ROLE,
  CHECKLIST_STATUSES,
  CHECKLIST_TRIGGERS,
  DATED_FIELDS,
  MAX_ITEMS,
  OFFSET_RANGE,
} from '../entities/checklist.entities';

const MAX_IDS = 100;

export class TemplateConditionsDto {
  @ApiIntOptional({ type: [Number], description: "department ids: the employee's department or one of its parents" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IDS)
  @IsRefId({ each: true })
  departments?: number[];

  @ApiIntOptional({ type: [Number], description: 'job title ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IDS)
  @IsRefId({ each: true })
  job_titles?: number[];

  @ApiIntOptional({ type: [Number], description: 'employment status ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_IDS)
  @IsRefId({ each: true })
  employment_statuses?: number[];

  @ApiPropertyOptional({
    type: [String],
    enum: DATED_FIELDS,
    description: 'the dated fields whose change starts a `change` checklist (any of them); required for that trigger',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(DATED_FIELDS.length)
  @IsIn(DATED_FIELDS, { each: true })
  fields?: string[];
}

export class TemplateItemDto {
  @ApiProperty({ maxLength: 200 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 200)
  title: string;

  @OptionalText(2000, { multiLine: true })
  description?: string | null;

  @ApiProperty({
    example: 'supervisor',
    description: 'who does it: employee, supervisor, department_head, admins or employee:<id>',
  })
  @IsString()
  @Matches(ASSIGNEE_ROLE, { message: '$property must be employee, supervisor, department_head, admins or employee:<id>' })
  assignee: string;

  @ApiProperty({
    minimum: OFFSET_RANGE[0],
    maximum: OFFSET_RANGE[1],
    description: 'its due day: this many days from the effective date (negative: before it)',
  })
  @IsInt()
  @Min(OFFSET_RANGE[0])
  @Max(OFFSET_RANGE[1])
  offset_days: number;

  @ApiIntOptional({
    type: Number,
    nullable: true,
    description: 'a document of this type uploaded for the employee completes the item',
  })
  @IsOptional()
  @Nullable()
  @IsRefId()
  document_type?: number | null;

  @ApiPropertyOptional({ default: true, description: 'the checklist is Completed once every required item is' })
  @IsOptional()
  @IsBoolean()
  required?: boolean;
}

export class ChecklistTemplateDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: CHECKLIST_TRIGGERS }) trigger: string;
  @ApiProperty({ type: TemplateConditionsDto }) conditions: TemplateConditionsDto;
  @ApiProperty({ type: [TemplateItemDto] }) items: TemplateItemDto[];
}

export class CreateChecklistTemplateDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  name: string;

  @ApiProperty({
    enum: CHECKLIST_TRIGGERS,
    description:
      'hire: a new employee; termination: a termination date set; transfer: a dated change of department; change: a dated change of `conditions.fields`',
  })
  @IsIn(CHECKLIST_TRIGGERS)
  trigger: string;

  @ApiPropertyOptional({ type: TemplateConditionsDto, description: 'all must hold; none: every employee' })
  @IsOptional()
  @ValidateNested()
  @Type(() => TemplateConditionsDto)
  conditions?: TemplateConditionsDto;

  @ApiProperty({ type: [TemplateItemDto], maxItems: MAX_ITEMS })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => TemplateItemDto)
  items: TemplateItemDto[];
}

@AcceptsReadOnlyOf(() => ChecklistTemplateDto)
export class UpdateChecklistTemplateDto extends PartialType(CreateChecklistTemplateDto) {}

export class ChecklistProgressDto {
  @ApiInt({ description: 'items Completed' }) completed: number;
  @ApiInt({ description: 'items not Cancelled' }) total: number;
}

export class ChecklistItemDto {
  @ApiInt() id: number;
  @ApiProperty() title: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ description: "the template's role: employee, supervisor, department_head, admins or employee:<id>" })
  assignee: string;
  @ApiInt({ type: [Number], description: 'the users who hold its task' }) assignees: number[];
  @ApiProperty({ format: 'date' }) due_date: string;
  @ApiProperty({ enum: CHECKLIST_STATUSES }) status: string;
  @ApiProperty() required: boolean;
  @ApiInt({ type: Number, nullable: true }) document_type: number | null;
  @ApiInt({ type: Number, nullable: true, description: 'the user who completed it' }) completed_by: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'why it was cancelled' }) cancel_reason: string | null;
  @ApiInt({ type: Number, nullable: true, description: "the caller's task for it, if it holds one" }) task: number | null;
}

export class ChecklistDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the template it started from (it may be gone since)' }) template: number;
  @ApiProperty({ description: "the template's name when it started" }) template_name: string;
  @ApiInt() employee: number;
  @ApiProperty({ enum: CHECKLIST_TRIGGERS }) trigger: string;
  @ApiProperty({ format: 'date', description: 'the day the hire, termination or change takes effect' }) effective_date: string;
  @ApiProperty({ enum: CHECKLIST_STATUSES }) status: string;
  @ApiProperty({ type: String, nullable: true }) cancel_reason: string | null;
  @ApiProperty({ type: ChecklistProgressDto }) progress: ChecklistProgressDto;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: string | null;
  @ApiProperty({ type: [ChecklistItemDto] }) items: ChecklistItemDto[];
}

export class ChecklistListQueryDto extends ListQueryDto {
  @ApiIntOptional({ description: "one employee's checklists" })
  @IsOptional()
  @Type(() => Number)
  @IsRefId()
  employee?: number;

  @ApiPropertyOptional({ enum: CHECKLIST_STATUSES })
  @IsOptional()
  @IsIn(CHECKLIST_STATUSES)
  status?: string;
}
