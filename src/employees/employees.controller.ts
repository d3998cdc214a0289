import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { FastifyReply } from 'fastify';
import { etagFromBody } from '../common/http/body-etag';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { Idempotent } from '../common/idempotency/idempotent.decorator';
import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import {
  CreateEmployeeDto,
  CurrentEmployeeDto,
  EmployeeDeletedDto,
  EmployeeDto,
  EmployeeListItemDto,
  EmployeeListQueryDto,
  UpdateEmployeeDto,
} from './dto/employee.dto';
import { EMPLOYEE_LIST_SPEC, EmployeesService } from './employees.service';
import { AsOfQueryDto } from './history/dto/employment-history.dto';

@ApiTags('Employees')
@ApiBearerAuth()
@Controller('employees')
export class EmployeesController {
  constructor(private readonly employees: EmployeesService) {}

  @Get()
  @Authenticated()
  @ApiOperation({
    summary: 'Employees the caller can see',
    description:
      'Admin: all; Restricted Admin: its departments and their children; Manager: its direct reports; Employee: none. ' +
      'sortField: id, employee_id, first_name, last_name, joined_date, department. ' +
      'filters: status, department, job_title, employment_status, supervisor. ' +
      'search: word prefixes (every word must begin a word of the first, middle or last name, employee_id or work_email; ' +
      'case and accents ignored; letters and digits only, anything else separates words). ' +
      "total may lag other processes' changes by up to LIST_TOTALS_CACHE_MS.",
  })
  @ApiListEnvelope(EmployeeListItemDto)
  @Exportable('employees', EmployeeListItemDto)
  @ApiListQuery(EMPLOYEE_LIST_SPEC)
  @ApiErrors(400, 401)
  list(@CurrentUser() caller: AuthUser, @Query() query: EmployeeListQueryDto): Promise<Page<EmployeeListItemDto>> {
    return this.employees.list(caller, query);
  }

  @Get('me')
  @Authenticated()
  @ApiOperation({ summary: "The caller's own employee record" })
  @ApiOkEnvelope(CurrentEmployeeDto)
  @ApiErrors(401, 404)
  me(@CurrentUser() caller: AuthUser): Promise<CurrentEmployeeDto> {
    return this.employees.me(caller);
  }

  @Get(':id')
  @Authenticated()
  @ApiOperation({
    summary: 'One employee with every field; 404 when missing or outside your scope',
    description:
      'as_of=YYYY-MM-DD: the dated fields (job_title, department, pay_grade, employment_status, supervisor, approver1..3) in force ' +
      "that day, from the employment history, and the status of that day; 404 before the employee joined. Scope is today's.",
  })
  @ApiOkEnvelope(EmployeeDto)
  @ApiErrors(400, 401, 404)
  async get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: AsOfQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EmployeeDto> {
    const employee = await this.employees.get(caller, id, query.as_of);
    if (query.as_of === undefined) etagFromBody(reply);
    return employee;
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @Idempotent()
  @ApiOperation({ summary: 'Create an employee (Admin)', description: 'employee_id and work_email are unique (409 DUPLICATE).' })
  @ApiBody({
    type: CreateEmployeeDto,
    examples: {
      newHire: {
        summary: 'A new engineer',
        value: {
          employee_id: 'E0100',
          first_name: 'Ada',
          last_name: 'Lovelace',
          gender: 'Female',
          joined_date: '2027-01-04',
          work_email: 'ada.lovelace@example.com',
          job_title: 3,
          department: 2,
          supervisor: 2,
        },
      },
    },
  })
  @ApiOkEnvelope(EmployeeDto)
  @ApiErrors(400, 401, 403, 409)
  create(@CurrentUser() caller: AuthUser, @Body() dto: CreateEmployeeDto): Promise<EmployeeDto> {
    return this.employees.create(dto, caller);
  }

  @Put(':id')
  @Authenticated()
  @ApiOperation({
    summary: 'Change any subset of fields',
    description:
      'Admin: any employee; Restricted Admin: employees in its scope (departments within it); Manager and Employee: ' +
      'personal fields of their own record. Changing another field → 403 FIELD_NOT_ALLOWED naming it. If-Match: the ETag ' +
      'of the version read; another version is current → 412 PRECONDITION_FAILED and nothing changes.',
  })
  @ApiOkEnvelope(EmployeeDto)
  @ApiErrors(400, 401, 403, 404, 409, 412)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: UpdateEmployeeDto,
    @Headers('if-match') ifMatch?: string,
  ): Promise<EmployeeDto> {
    return this.employees.update(caller, id, dto, ifMatch);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({
    summary: 'Delete an employee (Admin)',
    description:
      'Removes its sub-records; its user is deactivated; payroll history keeps its numbers. ' +
      'Refused with 409 LAST_ADMIN when its user is the last active Admin. If-Match as with PUT (412).',
  })
  @ApiOkEnvelope(EmployeeDeletedDto)
  @ApiErrors(400, 401, 403, 404, 409, 412)
  remove(@Param('id', new IdParamPipe()) id: number, @Headers('if-match') ifMatch?: string): Promise<EmployeeDeletedDto> {
    return this.employees.remove(id, ifMatch);
  }
}
