import { ApiIntOptional } from '../../common/openapi/api-int';
import { ApiInt } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsEmail, IsIn, IsObject, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import {
  IsCalendarDate,
  IsCountryCode,
  IsRefId,
  Nullable,
  OptionalText,
  SingleLine,
  Trim,
} from '../../common/validation/decorators';
import { EMPLOYEE_STATUSES, GENDERS } from '../entities/employee.entity';
import { SearchableListQueryDto, UpdatedSince } from '../../common/paging/list-query.dto';

function OptionalDate() {
  return (target: object, key: string) => {
    ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '2024-01-15' })(target, key);
    IsOptional()(target, key);
    Nullable()(target, key);
    IsCalendarDate()(target, key);
  };
}

function OptionalRef(description: string) {
  return (target: object, key: string) => {
    ApiIntOptional({ nullable: true, description })(target, key);
    IsOptional()(target, key);
    Nullable()(target, key);
    IsRefId()(target, key);
  };
}

/** Stored in lower case, so uniqueness means the same on SQLite (case-sensitive) and MariaDB. */
function OptionalEmail() {
  return (target: object, key: string) => {
    ApiPropertyOptional({ type: String, nullable: true, format: 'email', description: 'stored in lower case' })(target, key);
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))(target, key);
    IsOptional()(target, key);
    Nullable()(target, key);
    IsEmail({}, { message: '$property must be an email' })(target, key);
    MaxLength(255)(target, key);
  };
}

/** POST /employees. Required: employee_id, first_name, last_name, joined_date (docs/api/decisions.md §7). */
export class CreateEmployeeDto {
  @ApiProperty({ example: 'E0042', maxLength: 50 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 50)
  employee_id: string;

  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  first_name: string;

  @OptionalText(100) middle_name?: string | null;

  @ApiProperty({ maxLength: 100 })
  @Trim()
  @IsString()
  @SingleLine()
  @Length(1, 100)
  last_name: string;

  @ApiPropertyOptional({ enum: GENDERS, nullable: true })
  @IsOptional()
  @Nullable()
  @IsIn(GENDERS)
  gender?: string | null;

  @OptionalText(30) marital_status?: string | null;
  @OptionalDate() birthday?: string | null;

  @ApiProperty({ format: 'date', example: '2024-01-15' })
  @IsCalendarDate()
  joined_date: string;

  @OptionalDate() confirmation_date?: string | null;
  @OptionalDate() termination_date?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'the name of a nationality from /nationalities' })
  @Trim()
  @IsOptional()
  @Nullable()
  @IsString()
  @Length(1, 100)
  nationality?: string | null;

  @OptionalText(100) ssn_num?: string | null;
  @OptionalText(100) nic_num?: string | null;
  @OptionalText(100) other_id?: string | null;
  @OptionalText(100) driving_license?: string | null;
  @OptionalText(200) address1?: string | null;
  @OptionalText(200) address2?: string | null;
  @OptionalText(100) city?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 3166-1 alpha-2 code', example: 'DE' })
  @IsOptional()
  @Nullable()
  @IsCountryCode()
  country?: string | null;

  @OptionalText(100) province?: string | null;
  @OptionalText(20) postal_code?: string | null;
  @OptionalText(30) home_phone?: string | null;
  @OptionalText(30) mobile_phone?: string | null;
  @OptionalText(30) work_phone?: string | null;
  @OptionalEmail() work_email?: string | null;
  @OptionalEmail() private_email?: string | null;
  @OptionalRef('id from /employment-statuses') employment_status?: number | null;
  @OptionalRef('id from /job-titles') job_title?: number | null;
  @OptionalRef('id from /pay-grades') pay_grade?: number | null;
  @OptionalRef('id from /departments') department?: number | null;
  @OptionalRef('id of another employee') supervisor?: number | null;
  @OptionalRef('id of another employee') approver1?: number | null;
  @OptionalRef('id of another employee') approver2?: number | null;
  @OptionalRef('id of another employee') approver3?: number | null;
  @ApiIntOptional({ description: 'id from /calendars (docs/api/calendars.md); absent on a new employee: the default calendar' })
  @IsOptional()
  @IsRefId()
  calendar?: number;

  @ApiPropertyOptional({ enum: EMPLOYEE_STATUSES, default: 'Active' })
  @IsOptional()
  @IsIn(EMPLOYEE_STATUSES)
  status?: string;
}

/** PUT /employees/{id}: any subset; an `id` in the body is ignored. */
export class UpdateEmployeeDto extends PartialType(CreateEmployeeDto) {
  @ApiPropertyOptional({ oneOf: [{ type: 'integer' }, { type: 'string' }], description: 'ignored' })
  @Allow()
  id?: unknown;
}

export class EmployeeListItemDto {
  @ApiInt() id: number;
  @ApiProperty() employee_id: string;
  @ApiProperty() first_name: string;
  @ApiProperty() last_name: string;
  @ApiProperty({ type: String, nullable: true }) work_email: string | null;
  @ApiInt({ type: Number, nullable: true }) job_title: number | null;
  @ApiInt({ type: Number, nullable: true }) department: number | null;
  @ApiProperty({ enum: EMPLOYEE_STATUSES }) status: string;
}

export class CurrentEmployeeDto {
  @ApiInt() id: number;
  @ApiProperty() employee_id: string;
  @ApiProperty() first_name: string;
  @ApiProperty() last_name: string;
  @ApiProperty({ type: String, nullable: true }) work_email: string | null;
  @ApiInt({ type: Number, nullable: true }) department: number | null;
  @ApiInt({ type: Number, nullable: true }) supervisor: number | null;
}

/** Every seed field, references as integer ids, nationality as its name. */
export class EmployeeDto extends CreateEmployeeDto {
  @ApiInt() id: number;
  @ApiInt({ description: 'the work calendar: the default calendar when none was set' }) declare calendar: number;
  @ApiProperty({ enum: EMPLOYEE_STATUSES }) declare status: string;
}

export class EmployeeDeletedDto {
  @ApiInt({ example: 5 }) id: number;
}

/** GET /employees: the list's query, and `as_of` (issue 43). */
export class EmployeeListQueryDto extends SearchableListQueryDto {
  @ApiPropertyOptional({
    type: String,
    format: 'date',
    description:
      'the list as it was (or will be) on this day: only employees who had joined by then, with the job_title, department and ' +
      'status of that day; filters and sort by department, job_title, employment_status, supervisor and status use that day too',
  })
  @IsOptional()
  @IsCalendarDate()
  as_of?: string;

  @UpdatedSince() updated_since?: string;
}

/**
 * Adds a property another module brings to employees (EmployeeExtension: custom fields) to the
 * employee schemas, when that module loads: an optional object on the bodies of POST and PUT (its
 * content checked by the extension), always there on an employee and, unless `item` is null, on the
 * list's items.
 */
export function declareEmployeeProperty(
  name: string,
  docs: { body: string; employee: string; item: string | null },
  /** The property's own schemas when its keys are fixed (a typed client reads them); default: an object of any keys. */
  schemas: { body?: Record<string, unknown>; read?: Record<string, unknown> } = {},
): void {
  const object = { type: 'object', additionalProperties: true } as const;
  for (const dto of [CreateEmployeeDto, UpdateEmployeeDto]) {
    ApiPropertyOptional({ ...(schemas.body ?? object), description: docs.body })(dto.prototype, name);
    IsOptional()(dto.prototype, name);
    IsObject({ message: `${name} must be an object` })(dto.prototype, name);
  }
  ApiProperty({ ...(schemas.read ?? object), description: docs.employee })(EmployeeDto.prototype, name);
  // `item` null: the list's items leave it out (its extension marks itself `listed: false`).
  if (docs.item !== null)
    ApiProperty({ ...(schemas.read ?? object), description: docs.item })(EmployeeListItemDto.prototype, name);
}
