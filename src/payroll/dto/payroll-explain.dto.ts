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
  @ApiPropertyOptional({ description: 'salary_component: its id' }) component?: number;
  @ApiPropertyOptional({ description: 'column, edit: the column id' }) column?: number;
  @ApiPropertyOptional({ description: 'column: its variable' }) variable?: string;
  @ApiPropertyOptional({ description: 'hook: its code' }) hook?: string;
  @ApiPropertyOptional({ type: Object, description: "hook: the column's calculation_hook_args" }) args?: Record<string, unknown>;
  @ApiPropertyOptional({ enum: HOOK_SOURCE_NAMES, description: 'hook: where its value came from' }) source?: string;
  @ApiPropertyOptional({ type: [Number], description: 'hook: ids of the source records summed' }) records?: number[];
  @ApiPropertyOptional({ description: 'employee_field: the field' }) field?: string;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'edit: the user who made it (null: unknown or a system)' })
  edited_by?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'edit: when (ISO 8601)' }) edited_at?: string | null;
}

export class ExplainStepDto {
  @ApiProperty({ example: 'basic * 0.1' }) expression: string;
  @ApiProperty({ example: '500.0' }) value: string;
}

export class ExplainRoundingDto {
  @ApiProperty({ description: 'The exact value before rounding' }) exact: string;
  @ApiProperty({ description: "Decimal places (the currency's minor unit), half-up" }) places: number;
  @ApiProperty({ description: 'The stored value' }) value: string;
}

/** One cell's derivation. */
export class ExplainedCellDto {
  @ApiProperty() column: number;
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
  @ApiProperty() payroll: number;
  @ApiProperty() employee: number;
  @ApiProperty({
    type: [ExplainedCellDto],
    description: 'The cells of other columns it reads, directly or through them, each with its own derivation (dependency order)',
  })
  depends_on: ExplainedCellDto[];
}

/** Why a cell differs between two runs (API.md §18): an input that differs and that the cell reads. */
export class DiffCauseDto {
  @ApiProperty({ enum: DIFF_CAUSE_KINDS }) kind: string;
  @ApiPropertyOptional({ description: 'salary: the component' }) component?: number;
  @ApiPropertyOptional({ description: 'column, edit, input from a hook: the column' }) column?: number;
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
  @ApiPropertyOptional({ type: [Number], description: 'input: ids of the records only the newer run summed' }) added?: number[];
  @ApiPropertyOptional({ type: [Number], description: 'input: ids of the records only the older run summed' }) removed?: number[];
  @ApiPropertyOptional({ type: Object, description: 'column: each changed definition field, [old, new]' })
  changes?: Record<string, [unknown, unknown]>;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'salary, column, edit: the user who made the change (audit log)',
  })
  changed_by?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'salary, column, edit: when (audit log)' })
  changed_at?: string | null;
}

export class PayrollDiffRowDto {
  @ApiProperty() employee: number;
  @ApiProperty() employee_name: string;
  @ApiProperty() column: number;
  @ApiProperty() column_name: string;
  @ApiProperty({ type: String, nullable: true, description: 'In the run compared against (null: no cell, or it failed)' })
  old: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'In this run' }) new: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'new − old (null when either is null)' }) difference: string | null;
  @ApiProperty({ type: [DiffCauseDto] }) causes: DiffCauseDto[];
}

export class DiffCauseCountsDto {
  @ApiProperty() salary: number;
  @ApiProperty() input: number;
  @ApiProperty() column: number;
  @ApiProperty() edit: number;
  @ApiProperty() joined: number;
  @ApiProperty() left: number;
  @ApiProperty() rounding: number;
}

/** GET .../diff/summary: per column. */
export class PayrollDiffColumnDto {
  @ApiProperty() column: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Cells that differ' }) changed: number;
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

  @ApiPropertyOptional({ description: 'Only this employee' }) @IsOptional() @Type(() => Number) @IsRefId() employee?: number;
  @ApiPropertyOptional({ description: 'Only this column' }) @IsOptional() @Type(() => Number) @IsRefId() column?: number;
  @ApiPropertyOptional({ enum: DIFF_CAUSE_KINDS, description: 'Only cells with a cause of this kind' })
  @IsOptional()
  @IsIn(DIFF_CAUSE_KINDS)
  cause?: DiffCauseKind;
}

/** GET .../diff: the filters and a page. */
export class PayrollDiffQueryDto extends IntersectionType(PageQueryDto, PayrollDiffFilterDto) {}

export class PreviewChangeQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'The run to preview on; default the newest Processed or Completed one' })
  @IsOptional()
  @Type(() => Number)
  @IsRefId()
  payroll?: number;
}
