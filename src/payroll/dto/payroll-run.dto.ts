import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  ValidateNested,
} from 'class-validator';
import { IsMoney } from '../../common/money/money';
import { IsCalendarDate, IsIsoDateTime, IsRefId, Nullable, Trim } from '../../common/validation/decorators';
import { PAYROLL_STATUSES, PAYSLIP_DELIVERY_STATUSES, PayslipDeliveryStatus } from '../entities/payroll-run.entities';
import { PayslipContextDto } from './payslip-context';
import { PRORATION_RULES, ProrationRule } from '../engine/proration';

export class PayrollDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiInt({ description: 'pay frequency id' }) pay_period: number;
  @ApiInt({ description: 'department id: the payroll covers it and its children' }) department: number;
  @ApiInt({ type: Number, nullable: true }) deduction_group: number | null;
  @ApiProperty({ format: 'date' }) date_start: string;
  @ApiProperty({ format: 'date' }) date_end: string;
  @ApiProperty({
    enum: PRORATION_RULES,
    nullable: true,
    description: "How salaries changed within the period are prorated; null: the pay frequency's rule",
  })
  proration: string | null;
  @ApiInt({ type: [Number], description: 'payroll column ids' }) columns: number[];
  @ApiInt({ type: Number, nullable: true }) payslip_template: number | null;
  @ApiInt({
    type: Number,
    nullable: true,
    description: 'the column that is the net pay: what the bank file pays each employee (one of columns); null: none yet',
  })
  net_column: number | null;
  @ApiProperty({ enum: PAYROLL_STATUSES }) status: string;
  @ApiInt({ description: "0-100 while Processing (the share of the run's chunks written) or Completing" }) progress: number;
  @ApiProperty({ type: String, nullable: true }) error: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) processed_at: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completed_at: string | null;
}

/** POST /payroll_config/payrolls: with `id` it updates that payroll (not while Processing, Completing or Completed). */
export class SavePayrollDto {
  @ApiIntOptional({ description: 'the payroll to update' })
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiInt({ description: 'pay frequency id' })
  @IsRefId()
  pay_period: number;

  @ApiInt({ description: 'department id' })
  @IsRefId()
  department: number;

  @ApiIntOptional({ type: Number, nullable: true })
  @IsOptional()
  @Nullable()
  @IsRefId()
  deduction_group?: number | null;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date_start: string;

  @ApiProperty({ format: 'date' })
  @IsCalendarDate()
  date_end: string;

  @ApiPropertyOptional({
    enum: PRORATION_RULES,
    nullable: true,
    description: "Overrides the pay frequency's proration rule; null or absent: the pay frequency's",
  })
  @IsOptional()
  @Nullable()
  @IsIn(PRORATION_RULES)
  proration?: ProrationRule | null;

  @ApiInt({ type: [Number] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsInt({ each: true })
  columns: number[];

  @ApiIntOptional({ type: Number, nullable: true })
  @IsOptional()
  @Nullable()
  @IsRefId()
  payslip_template?: number | null;

  @ApiIntOptional({
    type: Number,
    nullable: true,
    description:
      'the column that is the net pay (one of columns), for the bank file; a Completed payroll accepts a save that changes only this',
  })
  @IsOptional()
  @Nullable()
  @IsRefId()
  net_column?: number | null;
}

export class PayrollEmployeeRowDto {
  @ApiInt({ description: 'employee id' }) id: number;
  @ApiProperty() employee_id: string;
  @ApiProperty() name: string;
  @ApiInt({ description: 'payroll employee id' }) payroll_employee: number;
  @ApiProperty() currency: string;
}

export class PayrollErrorDto {
  @ApiInt({ type: Number, nullable: true }) employee: number | null;
  @ApiInt({ type: Number, nullable: true }) column: number | null;
  @ApiProperty() message: string;
}

export class GridColumnDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty() editable: boolean;
}

export class GridEmployeeDto {
  @ApiInt() id: number;
  @ApiProperty() employee_id: string;
  @ApiProperty() name: string;
}

export class GridRowDto {
  @ApiProperty({ type: GridEmployeeDto }) employee: GridEmployeeDto;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', nullable: true }, example: { '3': '123.45' } })
  values: Record<string, string | null>;
}

export class PayrollDataDto {
  @ApiProperty({ type: [GridColumnDto] }) columns: GridColumnDto[];
  @ApiProperty({ type: [GridRowDto] }) rows: GridRowDto[];
  @ApiInt({ description: 'employees in the payroll' }) total: number;
  @ApiInt() page: number;
  @ApiInt() limit: number;
  @ApiInt({ type: Number, nullable: true, description: 'the next page of rows, null on the last (as every list)' })
  nextPage: number | null;
}

export class CellEditDto {
  @ApiInt({ description: 'employee id' })
  @IsRefId()
  employee: number;

  @ApiInt({ description: 'column id (an editable column of the payroll)' })
  @IsRefId()
  column: number;

  @ApiProperty({ example: '100.00' })
  @IsMoney()
  amount: string;
}

export class PayrollDataUpdateDto {
  @ApiProperty({ type: [CellEditDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @ValidateNested({ each: true })
  @Type(() => CellEditDto)
  values: CellEditDto[];
}

export class PayslipTemplateDto {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['Active', 'Inactive'] }) status: string;
  @ApiProperty({
    description: 'Handlebars HTML: {{employee.*}}, {{payroll.*}}, {{company.*}}, {{#each columns}}{{name}} {{value}}{{/each}}',
  })
  content: string;
}

/** POST /payroll_config/payslip-templates: with `id` it updates that template. */
export class SavePayslipTemplateDto {
  @ApiIntOptional()
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ enum: ['Active', 'Inactive'], default: 'Active' })
  @IsOptional()
  @IsIn(['Active', 'Inactive'])
  status?: string;

  @ApiProperty({ maxLength: 100_000 })
  @IsString()
  @Length(1, 100_000)
  content: string;
}

/** A template definition as the form edits it (name and status are accepted and not used), and optionally the data to render it with. */
export class PreviewTemplateDto {
  @ApiIntOptional({ description: 'the template being edited, if saved (not used)' })
  @IsOptional()
  @IsRefId()
  id?: number;

  @ApiPropertyOptional({ maxLength: 100, description: 'not used' })
  @IsOptional()
  @IsString()
  @Length(0, 100)
  name?: string;

  @ApiPropertyOptional({ enum: ['Active', 'Inactive'], description: 'not used' })
  @IsOptional()
  @IsIn(['Active', 'Inactive'])
  status?: string;

  @ApiProperty({ maxLength: 100_000, description: 'a template definition to render without saving' })
  @IsString()
  @Length(1, 100_000)
  content: string;
  @ApiPropertyOptional({
    type: PayslipContextDto,
    description:
      "ad-hoc data to render with, laid over the preview's own (the first processed payroll's first row, or a sample): " +
      "each object's fields replace the preview's, columns replace its columns; a name outside the context → 400",
  })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

export class RenderedDto {
  @ApiProperty({ description: 'the rendered HTML (values escaped)' }) html: string;
}

export class PayslipDto {
  @ApiInt() id: number;
  @ApiInt() payroll: number;
  @ApiInt() employee: number;
  @ApiProperty() html: string;
  @ApiInt({
    type: Number,
    nullable: true,
    description:
      "its PDF's document id among the employee's documents (GET .../payslips/{payslipId}/pdf); null without a browser",
  })
  document: number | null;
  @ApiProperty({ enum: PAYSLIP_DELIVERY_STATUSES, description: 'where its e-mail stands' })
  delivery_status: PayslipDeliveryStatus;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when the SMTP server accepted it' })
  delivered_at: string | null;
  @ApiProperty({ type: String, nullable: true, description: "why it failed (the SMTP server's answer) or is unknown" })
  delivery_error: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** POST .../send-payslips: when, and to whom (default: every payslip not sent yet). */
export class SendPayslipsDto {
  @ApiPropertyOptional({
    example: '2026-11-28T08:00:00+01:00',
    description: 'not before this instant (default: now); the e-mails wait queued until then',
  })
  @IsOptional()
  @IsIsoDateTime()
  send_after?: string;

  @ApiIntOptional({ type: [Number], description: 'only these employees of the payroll (ids)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100_000)
  @IsRefId({ each: true })
  employees?: number[];
}

/** POST .../payslips/{payslipId}/send: a payslip sent (again). */
export class SendPayslipDto {
  @ApiPropertyOptional({ example: '2026-11-28T08:00:00+01:00', description: 'not before this instant (default: now)' })
  @IsOptional()
  @IsIsoDateTime()
  send_after?: string;
}

/** What a send request did. */
export class SendPayslipsResultDto {
  @ApiProperty({ description: "the request's id, on each of its delivery records" }) request: string;
  @ApiInt({ description: 'payslips queued for e-mail' }) queued: number;
  @ApiInt({
    description: 'payslips whose employee has no address (the setting Payslip E-mail Address): delivery_status no_address',
  })
  no_address: number;
  @ApiInt({ description: 'payslips left alone: already sent, queued, or of unknown outcome (send those one by one)' })
  skipped: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) send_after: string | null;
}
