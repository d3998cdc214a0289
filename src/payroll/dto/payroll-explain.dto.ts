import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
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
