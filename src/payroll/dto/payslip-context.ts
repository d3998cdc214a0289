import { ApiIntOptional } from '../../common/openapi/api-int';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorDetail } from '../../common/errors/domain.exception';
import { shapeOf, TemplateShape } from '../../common/template/template';

/*
 * What a payslip template renders (docs/api/decisions.md §10, issue 25): these classes are the whole context, the
 * OpenAPI document shows them (a preview's `data`, where every field is optional: it is laid over
 * the preview's own context), the sample below gives the shape every saved template is checked
 * against, and the service fills them. A field added here is in all four.
 */

export class PayslipEmployeeContextDto {
  @ApiIntOptional() id: number;
  @ApiPropertyOptional({ description: "the company's employee code; empty for an employee deleted since the run" })
  employee_id: string;
  @ApiPropertyOptional({ description: 'first and last name' }) name: string;
  @ApiPropertyOptional({ type: String, nullable: true }) first_name: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) middle_name: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) last_name: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the job title by name' }) job_title: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the department by name' }) department: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'the pay grade by name' }) pay_grade: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date' }) joined_date: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) work_email: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the payroll employee's currency (ISO 4217)" })
  currency: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, description: "the payroll employee's pay frequency by name" })
  pay_frequency: string | null;
}

export class PayslipPayrollContextDto {
  @ApiIntOptional() id: number;
  @ApiPropertyOptional() name: string;
  @ApiPropertyOptional({ format: 'date' }) date_start: string;
  @ApiPropertyOptional({ format: 'date' }) date_end: string;
}

export class PayslipCompanyContextDto {
  @ApiPropertyOptional({ description: 'the setting "Company Name"' }) name: string;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'the setting "Company Logo": a data: URI for <img src="{{company.logo}}">, or null when none is set',
  })
  logo: string | null;
}

export class PayslipColumnContextDto {
  @ApiPropertyOptional() name: string;
  @ApiPropertyOptional({ type: String, nullable: true, description: 'a decimal string in the currency minor units' })
  value: string | null;
}

/** The data a payslip template is rendered with. */
export class PayslipContextDto {
  @ApiPropertyOptional({ type: PayslipEmployeeContextDto }) employee: PayslipEmployeeContextDto;
  @ApiPropertyOptional({ type: PayslipPayrollContextDto }) payroll: PayslipPayrollContextDto;
  @ApiPropertyOptional({ type: PayslipCompanyContextDto }) company: PayslipCompanyContextDto;
  @ApiPropertyOptional({ type: [PayslipColumnContextDto], description: 'the payroll columns in colorder' })
  columns: PayslipColumnContextDto[];
}

/** What a preview renders with when no payroll has been processed yet. */
export const SAMPLE_PAYSLIP_CONTEXT: PayslipContextDto = {
  employee: {
    id: 0,
    employee_id: 'E0000',
    name: 'Sample Employee',
    first_name: 'Sample',
    middle_name: null,
    last_name: 'Employee',
    job_title: 'Engineer',
    department: 'Engineering',
    pay_grade: 'Grade 1',
    joined_date: '2020-01-15',
    work_email: 'sample.employee@example.com',
    currency: 'EUR',
    pay_frequency: 'Monthly',
  },
  payroll: { id: 0, name: 'Sample payroll', date_start: '2026-01-01', date_end: '2026-01-31' },
  company: { name: 'My Company', logo: null },
  columns: [
    { name: 'Gross', value: '0.00' },
    { name: 'Net', value: '0.00' },
  ],
};

/** Everything a template may name. */
export const PAYSLIP_CONTEXT_SHAPE: TemplateShape = shapeOf(SAMPLE_PAYSLIP_CONTEXT);

/** A deleted employee's context: its id and "Employee <id>", nothing else. */
export function formerEmployeeContext(id: number): PayslipEmployeeContextDto {
  return {
    id,
    employee_id: '',
    name: `Employee ${id}`,
    first_name: null,
    middle_name: null,
    last_name: null,
    job_title: null,
    department: null,
    pay_grade: null,
    joined_date: null,
    work_email: null,
    currency: null,
    pay_frequency: null,
  };
}

/**
 * Where ad-hoc data (a preview's `data`) does not fit the context: a name outside it, an object or a
 * list where a value goes, or the reverse. Each problem is keyed by its path (`data.employee.name`).
 */
export function contextProblems(value: unknown, shape: TemplateShape = PAYSLIP_CONTEXT_SHAPE, field = 'data'): ErrorDetail[] {
  if (shape === 'value')
    return value === null || ['string', 'number', 'boolean'].includes(typeof value)
      ? []
      : [{ field, message: 'must be a string, a number, a boolean or null' }];
  if ('items' in shape)
    return Array.isArray(value)
      ? value.flatMap((item, i) => contextProblems(item, shape.items, `${field}[${i}]`))
      : [{ field, message: 'must be a list' }];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [{ field, message: 'must be an object' }];
  return Object.entries(value).flatMap(([key, v]) =>
    Object.hasOwn(shape.fields, key)
      ? contextProblems(v, shape.fields[key], `${field}.${key}`)
      : [{ field: `${field}.${key}`, message: `is not in the payslip data (${Object.keys(shape.fields).join(', ')})` }],
  );
}

/** A context with the parts of `data` laid over it: each object's fields replace those of the base; a list replaces the list. */
export function overlayContext(
  base: PayslipContextDto,
  data: Partial<Record<keyof PayslipContextDto, unknown>>,
): PayslipContextDto {
  return {
    employee: { ...base.employee, ...(data.employee as object | undefined) },
    payroll: { ...base.payroll, ...(data.payroll as object | undefined) },
    company: { ...base.company, ...(data.company as object | undefined) },
    columns: (data.columns as PayslipColumnContextDto[] | undefined) ?? base.columns,
  };
}
