import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/paging/list-query.dto';
import { IsRefId } from '../../common/validation/decorators';
import { DIFF_CAUSE_KINDS, DiffCauseKind } from '../payroll-diff';
import { HOOK_SOURCE_NAMES } from '../run-inputs';

/** A value a cell read, with where it came from (API.md §18). */
export class ExplainInputDto {
  @ApiProperty({ enum: ['salary_component', 'column', 'hook', 'employee_field', 'edit'] }) kind: string;
  @ApiProperty({ example: '5000.00' }) value: string;
  @ApiProperty({ description: 'The component, column, hook or field name' }) name: string;
  @ApiPropertyOptional({ enum: ['+', '-'], description: 'In a sum: added or subtracted' }) sign?: string;
  @ApiIntOptional({ description: 'salary_component: its id' }) component?: number;
  @ApiIntOptional({ description: 'column, edit: the column id' }) column?: number;
  @ApiPropertyOptional({ description: 'column: its variable' }) variable?: string;
  @ApiPropertyOptional({ description: 'hook: its code' }) hook?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }], nullable: true },
    description: "hook: the column's calculation_hook_args (argument name → value)",
  })
  args?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: HOOK_SOURCE_NAMES, description: 'hook: where its value came from' }) source?: string;
  @ApiIntOptional({ type: [Number], description: 'hook: ids of the source records summed' }) records?: number[];
  @ApiPropertyOptional({ description: 'employee_field: the field' }) field?: string;
  @ApiIntOptional({ type: Number, nullable: true, description: 'edit: the user who made it (null: unknown or a system)' })
  edited_by?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'edit: when (ISO 8601)' }) edited_at?: string | null;
}

export class ExplainStepDto {
  @ApiProperty({ example: 'basic * 0.1' }) expression: string;
  @ApiProperty({ example: '500.0' }) value: string;
}

export class ExplainRoundingDto {
  @ApiProperty({ description: 'The exact value before rounding' }) exact: string;
  @ApiInt({ description: "Decimal places (the currency's minor unit), half-up" }) places: number;
  @ApiProperty({ description: 'The stored value' }) value: string;
}

/** One cell's derivation. */
export class ExplainedCellDto {
  @ApiInt() column: number;
  @ApiProperty() name: string;
  @ApiProperty() variable: string;
  @ApiProperty({ type: String, nullable: true, description: 'The stored value (null: the cell failed)' }) value: string | null;
  @ApiProperty({ enum: ['edit', 'hook', 'script', 'sum', 'default'] }) rule: string;
  @ApiProperty({ type: String, nullable: true }) script: string | null;
  @ApiProperty({ type: String, nullable: true }) default_value: string | null;
  @ApiProperty({ type: [ExplainInputDto] }) inputs: ExplainInputDto[];
  @ApiProperty({ type: [ExplainStepDto], description: "The script's parts with their values, innermost first" })
  steps: ExplainStepDto[];
  @ApiProperty({ type: ExplainRoundingDto, nullable: true }) rounding: ExplainRoundingDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the cell failed' }) error: string | null;
}

/** GET .../payrolls/{id}/cells/{employee}/{column}/explain. */
export class CellExplanationDto extends ExplainedCellDto {
  @ApiInt() payroll: number;
  @ApiInt() employee: number;
  @ApiProperty({
    type: [ExplainedCellDto],
    description: 'The cells of other columns it reads, directly or through them, each with its own derivation (dependency order)',
  })
  depends_on: ExplainedCellDto[];
}

/** Why a cell differs between two runs (API.md §18): an input that differs and that the cell reads. */
export class DiffCauseDto {
  @ApiProperty({ enum: DIFF_CAUSE_KINDS }) kind: string;
  @ApiIntOptional({ description: 'salary: the component' }) component?: number;
  @ApiIntOptional({ description: 'column, edit, input from a hook: the column' }) column?: number;
  @ApiPropertyOptional({ description: 'The component, column or field name' }) name?: string;
  @ApiPropertyOptional({ description: 'input: the hook code' }) hook?: string;
  @ApiPropertyOptional({ enum: HOOK_SOURCE_NAMES, description: 'input: where the hook reads' }) source?: string;
  @ApiPropertyOptional({ description: 'input: the employee field' }) field?: string;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }],
    nullable: true,
    description: 'The value in the older run (a rounding cause: its decimal places)',
  })
  old?: string | number | null;
  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'number' }],
    nullable: true,
    description: 'The value in the newer run',
  })
  new?: string | number | null;
  @ApiIntOptional({ type: [Number], description: 'input: ids of the records only the newer run summed' }) added?: number[];
  @ApiIntOptional({ type: [Number], description: 'input: ids of the records only the older run summed' }) removed?: number[];
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { nullable: true, description: 'the value in the older run, then in the newer one (any JSON value)' },
    },
    description: 'column: each changed definition field → [old, new]',
  })
  changes?: Record<string, [unknown, unknown]>;
  @ApiIntOptional({
    type: Number,
    nullable: true,
    description: 'salary, column, edit: the user who made the change (audit log)',
  })
  changed_by?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'salary, column, edit: when (audit log)' })
  changed_at?: string | null;
}

export class PayrollDiffRowDto {
  @ApiInt() employee: number;
  @ApiProperty() employee_name: string;
  @ApiInt() column: number;
  @ApiProperty() column_name: string;
  @ApiProperty({ type: String, nullable: true, description: 'In the run compared against (null: no cell, or it failed)' })
  old: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'In this run' }) new: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'new − old (null when either is null)' }) difference: string | null;
  @ApiProperty({ type: [DiffCauseDto] }) causes: DiffCauseDto[];
}

export class DiffCauseCountsDto {
  @ApiInt() salary: number;
  @ApiInt() input: number;
  @ApiInt() column: number;
  @ApiInt() edit: number;
  @ApiInt() joined: number;
  @ApiInt() left: number;
  @ApiInt() rounding: number;
}

/** GET .../diff/summary: per column. */
export class PayrollDiffColumnDto {
  @ApiInt() column: number;
  @ApiProperty() name: string;
  @ApiInt({ description: 'Cells that differ' }) changed: number;
  @ApiProperty({ description: 'The sum of the differences (cells with both values)' }) total_difference: string;
  @ApiProperty({ type: DiffCauseCountsDto, description: 'Changed cells per cause kind (a cell may have several)' })
  causes: DiffCauseCountsDto;
}

/** What a diff compares, and which of its rows (GET .../diff/summary). */
export class PayrollDiffFilterDto {
  @ApiPropertyOptional({
    description:
      'The payroll to compare against; default the previous Processed or Completed one of the same pay frequency and department',
  })
  @IsOptional()
  @Type(() => Number)
  @IsRefId()
  against?: number;

  @ApiIntOptional({ description: 'Only this employee' }) @IsOptional() @Type(() => Number) @IsRefId() employee?: number;
  @ApiIntOptional({ description: 'Only this column' }) @IsOptional() @Type(() => Number) @IsRefId() column?: number;
  @ApiPropertyOptional({ enum: DIFF_CAUSE_KINDS, description: 'Only cells with a cause of this kind' })
  @IsOptional()
  @IsIn(DIFF_CAUSE_KINDS)
  cause?: DiffCauseKind;
}

/** GET .../diff: the filters and a page. */
export class PayrollDiffQueryDto extends IntersectionType(PageQueryDto, PayrollDiffFilterDto) {}

export class PreviewChangeQueryDto extends PageQueryDto {
  @ApiIntOptional({ description: 'The run to preview on; default the newest Processed or Completed one' })
  @IsOptional()
  @Type(() => Number)
  @IsRefId()
  payroll?: number;
}
