import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ResponseOptional } from '../../common/openapi/response-optional';
import { ApiProperty, ApiPropertyOptional, getSchemaPath, IntersectionType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/paging/list-query.dto';
import { IsRefId } from '../../common/validation/decorators';
import { PAYROLL_INPUT_SOURCES } from '../../common/payroll-inputs/payroll-inputs';
import { PRORATION_RULES } from '../engine/proration';

const kindOf = (kind: string, description: string) => ApiProperty({ enum: [kind], description });

/** `oneOf` the shapes, with `kind` as the discriminator (a generated client narrows on it). */
function oneOfKind(shapes: Record<string, abstract new () => unknown>): object {
  return {
    oneOf: Object.values(shapes).map((type) => ({ $ref: getSchemaPath(type as never) })),
    discriminator: {
      propertyName: 'kind',
      mapping: Object.fromEntries(Object.entries(shapes).map(([kind, type]) => [kind, getSchemaPath(type as never)])),
    },
  };
}

/** What every value a cell read carries (docs/api/decisions.md §18); its `kind` says which of the shapes below it is. */
abstract class ExplainInputBase {
  @ApiProperty({ example: '5000.00' }) value: string;
  @ApiProperty({ description: 'The component, column, hook or field name' }) name: string;
  @ResponseOptional() @ApiPropertyOptional({ enum: ['+', '-'], description: 'In a sum: added or subtracted' }) sign?: string;
}

/** The kinds of cause a diff names (explain/payroll-diff.ts DiffCause checks it has exactly these). */
export const DIFF_CAUSE_KINDS = ['salary', 'input', 'column', 'edit', 'joined', 'left', 'rounding', 'table', 'calendar'] as const;
export type DiffCauseKind = (typeof DIFF_CAUSE_KINDS)[number];

/** One part of the period under one salary (issue 44). */
export class ExplainProratedSegmentDto {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date', description: 'its last day' }) to: string;
  @ApiInt({ description: "its days in the rule's unit" }) days: number;
  @ApiProperty({ example: '3000.00', description: 'the amount in force (0.00: the salary had no such component then)' })
  amount: string;
  @ApiInt({ description: 'the employment change that set it (GET /employees/{id}/changes)' }) change: number;
}

/** How a salary amount was prorated over the period: Σ amount × days ÷ period_days, or under `none` the last part's. */
export class ExplainProrationDto {
  @ApiProperty({ enum: PRORATION_RULES }) rule: string;
  @ApiInt({ description: "the period's days in the rule's unit" }) period_days: number;
  @ApiProperty({ type: [ExplainProratedSegmentDto] }) segments: ExplainProratedSegmentDto[];
}

export class ExplainSalaryInputDto extends ExplainInputBase {
  @kindOf('salary_component', "an amount of the employee's salary") kind: 'salary_component';
  @ApiInt({ description: 'the salary component' }) component: number;
  @ResponseOptional()
  @ApiPropertyOptional({
    type: ExplainProrationDto,
    description:
      'present when the amount was prorated: the salary changed within the period, or the employee joined or left in it',
  })
  proration?: ExplainProrationDto;
}

export class ExplainColumnInputDto extends ExplainInputBase {
  @kindOf('column', "another column's cell") kind: 'column';
  @ApiInt() column: number;
  @ApiProperty({ description: 'its variable' }) variable: string;
}

/** One earlier run's arrears (issue 44): its column recomputed now, minus what it paid and what later runs paid for it. */
export class ExplainArrearsPartDto {
  @ApiInt({ description: 'the earlier payroll' }) payroll: number;
  @ApiProperty({ description: 'its column recomputed from its stored inputs with the employment history as known now' })
  recomputed: string;
  @ApiProperty({ description: 'what it paid' }) paid: string;
  @ApiProperty({ description: 'what Completed runs since paid for it as arrears' }) already_paid: string;
  @ApiProperty({ description: 'recomputed − paid − already_paid' }) amount: string;
  @ApiInt({ type: [Number], description: 'the employment changes recorded after it that reach back into its period' })
  changes: number[];
}

export class ExplainHookInputDto extends ExplainInputBase {
  @kindOf('hook', 'a calculation hook: a value read from attendance, leave, time entries...') kind: 'hook';
  @ApiProperty({ description: 'its code' }) hook: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }], nullable: true },
    description: "the column's calculation_hook_args (argument name → value)",
  })
  args: Record<string, unknown>;
  @ApiProperty({ type: String, enum: PAYROLL_INPUT_SOURCES, description: 'where its value came from' }) source: string;
  @ApiInt({ type: [Number], description: 'ids of the source records summed' }) records: number[];
  @ResponseOptional()
  @ApiPropertyOptional({
    type: () => [ExplainArrearsPartDto],
    description: 'the arrears hook: one part per earlier run it recomputed (docs/api/decisions.md §20)',
  })
  arrears?: ExplainArrearsPartDto[];
}

export class ExplainFieldInputDto extends ExplainInputBase {
  @kindOf('employee_field', "a field of the employee's record") kind: 'employee_field';
  @ApiProperty({ description: 'the field' }) field: string;
}

export class ExplainEditInputDto extends ExplainInputBase {
  @kindOf('edit', 'a value edited in the grid') kind: 'edit';
  @ApiInt({ description: 'the column' }) column: number;
  @ApiInt({ nullable: true, description: 'the user who made it (null: unknown or a system)' }) edited_by: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'when (ISO 8601)' }) edited_at: string | null;
}

/** A value a cell read, with where it came from (docs/api/decisions.md §18): one of five shapes, told apart by `kind`. */
export class ExplainTableInputDto extends ExplainInputBase {
  @kindOf('table', 'a payroll table the script read (bracket, band, lookup): value is the version read') kind: 'table';
  @ApiInt({ description: 'the table (GET /payroll_config/tables/{id})' }) table: number;
  @ApiProperty({ format: 'date', description: 'the version read: the one in force on the run’s last day' }) version: string;
  @ApiProperty({
    type: 'array',
    items: { type: 'object', additionalProperties: { type: 'string', nullable: true } },
    description: "the version's rows, as GET /payroll_config/tables/{id} gives them",
  })
  rows: Array<Record<string, string | null>>;
}

export type ExplainInputDto =
  | ExplainSalaryInputDto
  | ExplainColumnInputDto
  | ExplainHookInputDto
  | ExplainFieldInputDto
  | ExplainEditInputDto
  | ExplainTableInputDto;

export const EXPLAIN_INPUTS = {
  salary_component: ExplainSalaryInputDto,
  column: ExplainColumnInputDto,
  hook: ExplainHookInputDto,
  employee_field: ExplainFieldInputDto,
  edit: ExplainEditInputDto,
  table: ExplainTableInputDto,
} as const;

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
  @ApiProperty({ type: 'array', items: oneOfKind(EXPLAIN_INPUTS) }) inputs: ExplainInputDto[];
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

/** Why a cell differs between two runs (docs/api/decisions.md §18): an input that differs and that the cell reads. */
const oldNew = (type: 'string' | 'integer', what: string) => [
  ApiProperty({ type, nullable: true, description: `${what} in the older run` }),
  ApiProperty({ type, nullable: true, description: `${what} in the newer run` }),
];
const [OLD_AMOUNT, NEW_AMOUNT] = oldNew('string', 'the amount');

/** Who made a salary, column or edit change between the runs (audit log). */
abstract class DiffChangeBase {
  @ApiInt({ nullable: true, description: 'the user who made the change (audit log; null: unknown)' }) changed_by: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'when (audit log)' }) changed_at: string | null;
}

/** An employment change a salary cause names (GET /employees/{id}/changes). */
export class DiffEmploymentChangeDto {
  @ApiInt() id: number;
  @ApiProperty({ format: 'date' }) effective_date: string;
  @ApiProperty({ type: String, nullable: true }) reason: string | null;
  @ApiProperty({ format: 'date-time', description: 'when it was recorded' }) recorded_at: string;
  @ApiInt({ nullable: true, description: 'the user who recorded it (null: the system, or a migration)' }) recorded_by:
    number | null;
}

export class DiffSalaryCauseDto extends DiffChangeBase {
  @kindOf('salary', "an amount of the employee's salary changed") kind: 'salary';
  @ApiInt({ description: 'the component' }) component: number;
  @ApiProperty({ description: "the component's name" }) name: string;
  @OLD_AMOUNT old: string | null;
  @NEW_AMOUNT new: string | null;
  @ApiProperty({
    type: [DiffEmploymentChangeDto],
    description:
      'the employment changes whose salaries the newer run read and the older did not: a raise, a back-dated correction (empty for runs ' +
      'processed before payroll read the history)',
  })
  changes: DiffEmploymentChangeDto[];
}

export class DiffColumnCauseDto extends DiffChangeBase {
  @kindOf('column', "the column's definition changed") kind: 'column';
  @ApiInt() column: number;
  @ApiProperty({ description: "the column's name" }) name: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'array',
      minItems: 2,
      maxItems: 2,
      items: { nullable: true, description: 'the value in the older run, then in the newer one (any JSON value)' },
    },
    description: 'each changed definition field → [old, new]',
  })
  changes: Record<string, [unknown, unknown]>;
}

export class DiffEditCauseDto extends DiffChangeBase {
  @kindOf('edit', 'the cell was edited in the grid') kind: 'edit';
  @ApiInt() column: number;
  @ApiProperty({ description: "the column's name" }) name: string;
  @OLD_AMOUNT old: string | null;
  @NEW_AMOUNT new: string | null;
}

/** An input changed: a hook's value (column, hook, source, added, removed) or an employee field (field). */
export class DiffInputCauseDto {
  @kindOf('input', "an input changed: a hook's value (with the records added and removed) or an employee field") kind: 'input';
  @ApiProperty({ description: "the hook's column name, or employee.<field>" }) name: string;
  @ResponseOptional() @ApiIntOptional({ description: 'a hook: its column' }) column?: number;
  @ResponseOptional() @ApiPropertyOptional({ description: 'a hook: its code' }) hook?: string;
  @ResponseOptional()
  @ApiPropertyOptional({ type: String, enum: PAYROLL_INPUT_SOURCES, description: 'a hook: where it reads' })
  source?: string;
  @ResponseOptional()
  @ApiIntOptional({ type: [Number], description: 'a hook: ids of the records only the newer run summed' })
  added?: number[];
  @ResponseOptional()
  @ApiIntOptional({ type: [Number], description: 'a hook: ids of the records only the older run summed' })
  removed?: number[];
  @ResponseOptional() @ApiPropertyOptional({ description: 'an employee field: the field' }) field?: string;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true, description: 'the value in the older run' })
  old: string | number | null;
  @ApiProperty({ oneOf: [{ type: 'string' }, { type: 'number' }], nullable: true, description: 'the value in the newer run' })
  new: string | number | null;
}

export class DiffJoinedCauseDto {
  @kindOf('joined', 'the employee is in the newer run only') kind: 'joined';
  @ApiProperty({ type: String, format: 'date', nullable: true, description: "the employee's joined date (null: deleted since)" })
  joined_date: string | null;
  @ApiProperty({
    description:
      "true: it joined after the older run's last day (a new hire); false: it was employed then, and added to this payroll since",
  })
  hired: boolean;
}

export class DiffLeftCauseDto {
  @kindOf('left', 'the employee is in the older run only') kind: 'left';
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: "the employee's termination date (null: none, or deleted since)",
  })
  termination_date: string | null;
  @ApiProperty({
    description:
      "true: its employment ended before the newer run's first day; false: it is still employed then, and no longer in this payroll",
  })
  terminated: boolean;
}

export class DiffRoundingCauseDto {
  @kindOf('rounding', "the currency's decimal places changed") kind: 'rounding';
  @ApiInt({ description: 'decimal places in the older run' }) old: number;
  @ApiInt({ description: 'decimal places in the newer run' }) new: number;
}

export class DiffTableCauseDto {
  @kindOf('table', 'the runs read different versions of a payroll table the cell reads (issue 44)') kind: 'table';
  @ApiInt({ description: 'the table' }) table: number;
  @ApiProperty({ description: "the table's name" }) name: string;
  @ApiProperty({
    type: String,
    format: 'date',
    nullable: true,
    description: 'the version the older run read (its effective_from)',
  })
  old: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'the version the newer run read' }) new:
    string | null;
}

export class DiffCalendarCauseDto {
  @kindOf(
    'calendar',
    "the employee's working days in the period, or its calendars, differ between the runs (a holiday, a calendar change: docs/api/calendars.md); on cells that read leave or a salary prorated by working days",
  )
  kind: 'calendar';
  @ApiInt({ description: 'the calendars in force in the period in either run (GET /calendars/{id})', isArray: true })
  calendars: number[];
  @ApiProperty({ example: 21, description: 'working days of the period in the older run' }) old: number;
  @ApiProperty({ example: 20, description: 'working days of the period in the newer run' }) new: number;
}

/** Why a cell changed (docs/api/decisions.md §18): one of these shapes, told apart by `kind`. */
export type DiffCauseDto =
  | DiffSalaryCauseDto
  | DiffColumnCauseDto
  | DiffEditCauseDto
  | DiffInputCauseDto
  | DiffJoinedCauseDto
  | DiffLeftCauseDto
  | DiffRoundingCauseDto
  | DiffTableCauseDto
  | DiffCalendarCauseDto;

export const DIFF_CAUSES = {
  salary: DiffSalaryCauseDto,
  input: DiffInputCauseDto,
  column: DiffColumnCauseDto,
  edit: DiffEditCauseDto,
  joined: DiffJoinedCauseDto,
  left: DiffLeftCauseDto,
  rounding: DiffRoundingCauseDto,
  table: DiffTableCauseDto,
  calendar: DiffCalendarCauseDto,
} as const satisfies Record<DiffCauseKind, unknown>;

export class PayrollDiffRowDto {
  @ApiInt() employee: number;
  @ApiProperty() employee_name: string;
  @ApiInt() column: number;
  @ApiProperty() column_name: string;
  @ApiProperty({ type: String, nullable: true, description: 'In the run compared against (null: no cell, or it failed)' })
  old: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'In this run' }) new: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'new − old (null when either is null)' }) difference: string | null;
  @ApiProperty({ type: 'array', items: oneOfKind(DIFF_CAUSES) }) causes: DiffCauseDto[];
}

export class DiffCauseCountsDto {
  @ApiInt() salary: number;
  @ApiInt() input: number;
  @ApiInt() column: number;
  @ApiInt() edit: number;
  @ApiInt() joined: number;
  @ApiInt() left: number;
  @ApiInt() rounding: number;
  @ApiInt() table: number;
  @ApiInt() calendar: number;
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
  @ApiIntOptional({
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
