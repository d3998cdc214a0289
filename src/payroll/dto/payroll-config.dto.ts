import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ResponseOptional } from '../../common/openapi/response-optional';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsMoney } from '../../common/money/money';
import { IsCurrencyCode, IsRefId, Nullable, OptionalText, Trim } from '../../common/validation/decorators';
import { COMPONENT_TYPES } from '../entities/payroll-config.entities';
import { PRORATION_RULES, ProrationRule } from '../engine/proration';

export class PayFrequencyDto {
  @ApiInt() id: number;
  @ApiProperty({ example: 'Monthly' }) name: string;
  @ApiProperty({
    enum: PRORATION_RULES,
    description:
      "How its payrolls prorate a salary that changed within the period, and joiners and leavers: by calendar days, by the company's " +
      'working days (work week without holidays), or none (the amount in force on the last day)',
  })
  proration: string;
}

/** PUT /payroll_config/pay-frequencies/{id}: pay frequencies are seeded; only the proration rule changes. */
export class UpdatePayFrequencyDto {
  @ApiIntOptional({ description: 'ignored: what GET answered may be sent back as it is' })
  @Allow()
  id?: unknown;

  @ApiPropertyOptional({ description: 'its own name (as GET returned it); another name → 400' })
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ enum: PRORATION_RULES, description: 'absent: unchanged' })
  @IsOptional()
  @IsIn(PRORATION_RULES)
  proration?: ProrationRule;
}

export class DeductionGroupDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
}

export class CreateDeductionGroupDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @OptionalText(500, { multiLine: true }) description?: string | null;
}

export class UpdateDeductionGroupDto extends PartialType(CreateDeductionGroupDto) {}

export class SalaryComponentDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: COMPONENT_TYPES }) component_type: string;
  @ApiProperty({ type: String, nullable: true }) details: string | null;
}

export class CreateSalaryComponentDto {
  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: COMPONENT_TYPES })
  @IsIn(COMPONENT_TYPES)
  component_type: string;

  @OptionalText(500, { multiLine: true }) details?: string | null;
}

export class UpdateSalaryComponentDto extends PartialType(CreateSalaryComponentDto) {}

export class SalaryItemDto {
  @ApiInt({ description: 'salary component id' }) component: number;
  @ApiProperty({ example: '5000.00', description: 'decimal string in the currency of the payroll employee' }) amount: string;
}

export class SalaryItemInputDto {
  @ApiInt({ description: 'salary component id' })
  @IsRefId()
  component: number;

  @ApiProperty({ example: '5000.00', description: 'decimal string; a JSON number is accepted' })
  @IsMoney()
  amount: string;
}

/** PUT /employees/{id}/salary: the whole set, replacing the previous one. */
export class PutSalaryDto {
  @ApiProperty({ type: [SalaryItemInputDto] })
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => SalaryItemInputDto)
  items: SalaryItemInputDto[];
}

export class PayrollEmployeeDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'employee id' }) employee: number;
  @ApiInt({ description: 'pay frequency id' }) pay_frequency: number;
  @ApiProperty({ example: 'USD' }) currency: string;
  @ApiInt({ type: Number, nullable: true, description: 'deduction group id' }) deduction_group: number | null;
}

/** POST /payroll_config/payroll-employees: with `id` it updates that record, without it creates one (one per employee). */
export class SavePayrollEmployeeDto {
  @ApiIntOptional({ description: 'the record to update' })
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiInt({ description: 'employee id' })
  @IsRefId()
  employee: number;

  @ApiInt({ description: 'pay frequency id' })
  @IsRefId()
  pay_frequency: number;

  @ApiProperty({ example: 'USD', description: 'ISO 4217 code' })
  @IsCurrencyCode()
  currency: string;

  @ApiIntOptional({ type: Number, nullable: true, description: 'deduction group id' })
  @IsOptional()
  @Nullable()
  @IsRefId()
  deduction_group?: number | null;
}

export class PayrollStatusEmployeeDto {
  @ApiInt() id: number;
  @ApiProperty() employee_id: string;
  @ApiProperty() first_name: string;
  @ApiProperty() last_name: string;
  @ApiInt({ type: Number, nullable: true }) department: number | null;
  @ApiProperty({ description: 'has a payroll employee record' }) configured: boolean;
  @ApiInt({ type: Number, nullable: true }) payroll_employee: number | null;
  @ApiInt({ type: Number, nullable: true }) pay_frequency: number | null;
  @ApiProperty({ type: String, nullable: true }) currency: string | null;
  @ApiInt({ type: Number, nullable: true }) deduction_group: number | null;
}

export class PayrollColumnDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ example: 'gross_pay' }) variable: string;
  @ApiInt({ description: '1..n, dense' }) colorder: number;
  @ApiProperty() enabled: boolean;
  @ApiProperty() editable: boolean;
  @ApiProperty({ type: String, nullable: true, example: '0.00' }) default_value: string | null;
  @ApiInt({ type: [Number] }) salary_components: number[];
  @ApiInt({ type: [Number] }) add_columns: number[];
  @ApiInt({ type: [Number] }) sub_columns: number[];
  @ApiProperty({ type: String, nullable: true }) calculation_hook: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: "the hook's arguments by name",
  })
  calculation_hook_args: Record<string, string | number>;
  @ApiProperty({ type: String, nullable: true }) script: string | null;
  @ApiInt({ type: Number, nullable: true }) deduction_group: number | null;
}

const ID_LIST = (description: string) => ApiIntOptional({ type: [Number], description, default: [] });

/** POST /payroll_config/payroll-columns: with `id` it updates that column, without it creates one. */
export class SavePayrollColumnDto {
  @ApiIntOptional({ description: 'the column to update' })
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ description: 'letters, digits, _; unique; default: the name in snake_case', example: 'gross_pay' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, { message: '$property must be letters, digits and _, not starting with a digit' })
  variable?: string;

  @ApiIntOptional({ description: 'position (1 = first); default: last; later columns move down' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  colorder?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;

  @ApiPropertyOptional({ default: false, description: 'values may be edited in the data grid' })
  @IsOptional()
  @IsBoolean()
  editable?: boolean;

  @ApiPropertyOptional({ type: String, nullable: true, example: '0.00' })
  @IsOptional()
  @Nullable()
  @IsMoney()
  default_value?: string | null;

  @ID_LIST('salary component ids summed into the column')
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  salary_components?: number[];

  @ID_LIST('column ids added')
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  add_columns?: number[];

  @ID_LIST('column ids subtracted')
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true })
  sub_columns?: number[];

  @ApiPropertyOptional({ type: String, nullable: true, description: 'a code from /payroll_config/calculation-hooks' })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(40)
  calculation_hook?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: "the hook's arguments by name",
  })
  @IsOptional()
  @IsObject()
  calculation_hook_args?: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'a formula (see validate-script)' })
  @IsOptional()
  @Nullable()
  @IsString()
  @MaxLength(10_000)
  script?: string | null;

  @ApiIntOptional({ type: Number, nullable: true })
  @IsOptional()
  @Nullable()
  @IsRefId()
  deduction_group?: number | null;

  @ApiPropertyOptional({
    default: false,
    description:
      'save even though payroll tests fail, and set their expectations to what the columns now give (audited with the change)',
  })
  @IsOptional()
  @IsBoolean()
  accept_test_changes?: boolean;
}

export class PayrollTestEmployeeDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { '1': '3000.00' } })
  salary: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { overtime_hours: '12' } })
  hooks: Record<string, string>;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number', nullable: true }, example: { years_of_service: 3 } })
  fields: Record<string, number | null>;
}

export class PayrollTestDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: PayrollTestEmployeeDto }) employee: PayrollTestEmployeeDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: { net: '2531.40' } })
  expected: Record<string, string>;
}

export class CreatePayrollTestDto {
  @ApiProperty({ maxLength: 100, example: 'Part-timer below the tax threshold' })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({
    type: PayrollTestEmployeeDto,
    description:
      'salary: component id → amount; hooks: hook code → value (a hook without one gives 0); fields: employee field → number',
  })
  @IsObject()
  employee: PayrollTestEmployeeDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'column variable → the amount it must give',
  })
  @IsObject()
  expected: Record<string, string>;
}

export class UpdatePayrollTestDto extends PartialType(CreatePayrollTestDto) {}

export class PayrollTestFailureDto {
  @ApiProperty({ description: 'the column variable' }) column: string;
  @ApiProperty() expected: string;
  @ApiProperty({ type: String, nullable: true, description: 'null: the cell failed, or no column has that variable' })
  actual: string | null;
}

export class PayrollTestResultDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty() passed: boolean;
  @ApiProperty({ type: [PayrollTestFailureDto] }) failures: PayrollTestFailureDto[];
}

export class ValidateScriptDto {
  @ApiProperty({ example: 'if(gross > 5000, (gross - 5000) * 0.2, 0)' })
  @IsString()
  @MaxLength(1_000_000)
  script: string;
}

export class ScriptErrorDto {
  @ApiProperty() message: string;
  @ApiInt({ description: '1-based' }) line: number;
  @ApiInt({ description: '1-based' }) column: number;
}

export class ValidateScriptResultDto {
  @ApiProperty() valid: boolean;
  @ResponseOptional()
  @ApiPropertyOptional({ type: [String], description: 'column variables the script reads (when valid)' })
  variables?: string[];
  @ResponseOptional() @ApiPropertyOptional({ type: [ScriptErrorDto] }) errors?: ScriptErrorDto[];
}

export class HookArgumentDto {
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['number', 'integer', 'string'] }) type: string;
  @ApiProperty() required: boolean;
  @ApiProperty() description: string;
}

export class CalculationHookDto {
  @ApiProperty({ example: 'overtime_hours' }) code: string;
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty({ type: [HookArgumentDto] }) args: HookArgumentDto[];
}
