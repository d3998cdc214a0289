import { Exportable } from '../../common/export/exportable';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { AsOfQueryDto } from '../../employees/history/dto/employment-history.dto';
import { CurrencyDto } from '../../common/money/currencies';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { crudController, DeletedDto } from '../../common/crud/crud.controller';
import { ApiArrayEnvelope, ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { ListQueryDto, PageQueryDto, SearchableListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import { DepartmentDto } from '../../reference/dto/reference.dto';
import { DEPARTMENT_LIST, ReferenceService } from '../../reference/reference.service';
import { crudListSpec } from '../../common/crud/crud';
import { EMPLOYEE_LIST_SPEC } from '../../employees/employees.service';
import { PayrollInputDescription } from '../../common/payroll-inputs/payroll-inputs';
import {
  CalculationHookDto,
  CreateDeductionGroupDto,
  CreateSalaryComponentDto,
  DeductionGroupDto,
  PayFrequencyDto,
  PayrollColumnDto,
  PayrollEmployeeDto,
  PayrollStatusEmployeeDto,
  PutSalaryDto,
  SalaryComponentDto,
  SalaryItemDto,
  SavePayrollColumnDto,
  SavePayrollEmployeeDto,
  UpdateDeductionGroupDto,
  UpdatePayFrequencyDto,
  UpdateSalaryComponentDto,
  ValidateScriptDto,
  ValidateScriptResultDto,
} from '../dto/payroll-config.dto';
import { PayrollConfigService, SALARY_COMPONENT_LIST } from './payroll-config.service';
import { PayFrequenciesService } from './pay-frequencies.service';
import { PayrollEmployeesService, PAYROLL_EMPLOYEE_SPEC } from './payroll-employees.service';
import { COLUMN_LIST_SPEC, PAY_FREQUENCY_LIST_SPEC } from '../entities/payroll-lists';

const ADMINS = ['Admin', 'Restricted Admin'] as const;

const payrollCrud = (spec: Omit<Parameters<typeof crudController<PayrollConfigService>>[0], 'service' | 'tag' | 'readers'>) =>
  crudController<PayrollConfigService>({
    ...spec,
    tag: 'Payroll configuration',
    service: PayrollConfigService,
    readers: [...ADMINS],
  });

export const PAYROLL_CRUD_CONTROLLERS = [
  payrollCrud({
    path: 'payroll_config/payroll-groups',
    label: 'Deduction group',
    dto: DeductionGroupDto,
    createDto: CreateDeductionGroupDto,
    updateDto: UpdateDeductionGroupDto,
    crud: (s) => s.groups,
    note: 'A delete answers 409 IN_USE naming the payroll employees and columns using the group.',
  }),
  payrollCrud({
    path: 'payroll_config/salary-components',
    label: 'Salary component',
    dto: SalaryComponentDto,
    createDto: CreateSalaryComponentDto,
    updateDto: UpdateSalaryComponentDto,
    crud: (s) => s.components,
    listSpec: SALARY_COMPONENT_LIST,
    note: 'A delete answers 409 IN_USE naming the columns and salaries using the component.',
  }),
];

@ApiTags('Payroll configuration')
@ApiBearerAuth()
@Controller('payroll_config')
export class PayrollConfigController {
  constructor(
    private readonly config: PayrollConfigService,
    private readonly frequencies: PayFrequenciesService,
    private readonly payrollEmployees: PayrollEmployeesService,
    private readonly reference: ReferenceService,
  ) {}

  @Get('pay-frequencies')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Pay frequencies (seeded, read-only): Weekly, Bi Weekly, Semi Monthly, Monthly, Yearly' })
  @ApiListQuery(PAY_FREQUENCY_LIST_SPEC)
  @ApiListEnvelope(PayFrequencyDto)
  @ApiErrors(400, 401, 403)
  payFrequencies(@Query() query: ListQueryDto): Promise<Page<PayFrequencyDto>> {
    return this.frequencies.list(query);
  }

  @Get('pay-frequencies/:id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'A pay frequency' })
  @ApiOkEnvelope(PayFrequencyDto)
  @ApiErrors(400, 401, 403, 404)
  payFrequency(@Param('id', new IdParamPipe()) id: number): Promise<PayFrequencyDto> {
    return this.frequencies.get(id);
  }

  @Put('pay-frequencies/:id')
  @Levels('Admin')
  @ApiOperation({
    summary: "Set a pay frequency's proration rule",
    description:
      'Pay frequencies are seeded: only `proration` changes (a body as GET returned it is accepted; another name → 400). ' +
      'A payroll may override it with its own `proration`.',
  })
  @ApiOkEnvelope(PayFrequencyDto)
  @ApiErrors(400, 401, 403, 404)
  updatePayFrequency(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdatePayFrequencyDto): Promise<PayFrequencyDto> {
    return this.frequencies.update(id, dto);
  }

  @Get('currencies')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Currencies (ISO 4217, with minor units), by code' })
  @ApiListEnvelope(CurrencyDto)
  @ApiErrors(400, 401, 403)
  currencies(@Query() query: PageQueryDto): Page<CurrencyDto> {
    return this.config.currencies(query);
  }

  @Get('departments')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Departments (as /departments): a payroll covers a department and its children' })
  @ApiListQuery(crudListSpec(DEPARTMENT_LIST))
  @ApiListEnvelope(DepartmentDto)
  @ApiErrors(400, 401, 403)
  departments(@Query() query: SearchableListQueryDto): Promise<Page<DepartmentDto>> {
    return this.reference.departments.list(query);
  }

  @Get('calculation-hooks')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Calculation hooks a column can use, with their arguments' })
  @ApiListEnvelope(CalculationHookDto)
  @ApiErrors(400, 401, 403)
  hooks(@Query() query: PageQueryDto): Page<PayrollInputDescription> {
    return this.config.hooks(query);
  }

  @Get('payroll-columns')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Payroll columns in colorder' })
  @ApiListQuery(COLUMN_LIST_SPEC)
  @ApiListEnvelope(PayrollColumnDto)
  @ApiErrors(400, 401, 403)
  columns(@Query() query: ListQueryDto): Promise<Page<PayrollColumnDto>> {
    return this.config.listColumns(query);
  }

  @Get('payroll-columns/:id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'One payroll column' })
  @ApiOkEnvelope(PayrollColumnDto)
  @ApiErrors(400, 401, 403, 404)
  column(@Param('id', new IdParamPipe()) id: number): Promise<PayrollColumnDto> {
    return this.config.getColumn(id);
  }

  @Post('payroll-columns')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({
    summary: 'Create a payroll column, or with id update it (Admin)',
    description:
      'The script is checked against the other columns (unknown variables, syntax, cycles: 400 with line and column); ' +
      'colorder stays 1..n (the column takes its place, later ones move down); 409 DUPLICATE for a used variable; ' +
      '409 IN_USE naming the columns whose scripts read the old variable when it changes.',
  })
  @ApiOkEnvelope(PayrollColumnDto)
  @ApiErrors(400, 401, 403, 404, 409)
  saveColumn(@Body() dto: SavePayrollColumnDto): Promise<PayrollColumnDto> {
    return this.config.saveColumn(dto);
  }

  @Delete('payroll-columns/:id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a payroll column (Admin); 409 IN_USE names the columns reading it' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  removeColumn(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.config.removeColumn(id);
  }

  @Post('validate-script')
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'Check a payroll script',
    description:
      'The formula language: numbers, + - * / % ^, comparisons, and or not, if(c, a, b) or c ? a : b, min max round floor ceil abs, ' +
      'column variables and employee.<field> (id, department, job_title, pay_grade, employment_status, supervisor, age, years_of_service). ' +
      'Limits: 10 000 characters, 64 levels (prefix operators in a row count), 2 000 operators, values and names (a power ' +
      'counts 30), every number below 1e40 (below 1e-40 is 0; a literal beyond the range is an error). ' +
      'Answers 200 {valid: true, variables} or {valid: false, errors: [{message, line, column}]}. Nothing is executed.',
  })
  @ApiOkEnvelope(ValidateScriptResultDto)
  @ApiErrors(400, 401, 403)
  validateScript(@Body() dto: ValidateScriptDto): Promise<ValidateScriptResultDto> {
    return this.config.validateScript(dto.script);
  }

  @Get('employees')
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'Employees in scope with their payroll status',
    description:
      'As GET /employees (paging, sortField, filters, search), each with configured, pay_frequency, currency, deduction_group.',
  })
  @ApiListQuery(EMPLOYEE_LIST_SPEC)
  @ApiListEnvelope(PayrollStatusEmployeeDto)
  @Exportable('payroll-status', PayrollStatusEmployeeDto)
  @ApiErrors(400, 401, 403)
  employees(@CurrentUser() caller: AuthUser, @Query() query: SearchableListQueryDto): Promise<Page<PayrollStatusEmployeeDto>> {
    return this.payrollEmployees.withStatus(caller, query);
  }

  @Get('payroll-employees')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Payroll employees' })
  @ApiListEnvelope(PayrollEmployeeDto)
  @Exportable('payroll-employees', PayrollEmployeeDto)
  @ApiListQuery(PAYROLL_EMPLOYEE_SPEC)
  @ApiErrors(400, 401, 403)
  payrollEmployeeList(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<PayrollEmployeeDto>> {
    return this.payrollEmployees.list(caller, query);
  }

  @Post('payroll-employees')
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Create a payroll employee, or with id update it; one per employee (409 DUPLICATE)' })
  @ApiOkEnvelope(PayrollEmployeeDto)
  @ApiErrors(400, 401, 403, 404, 409)
  savePayrollEmployee(@CurrentUser() caller: AuthUser, @Body() dto: SavePayrollEmployeeDto): Promise<PayrollEmployeeDto> {
    return this.payrollEmployees.save(caller, dto);
  }

  @Delete('payroll-employees/:id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Delete a payroll employee' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404)
  removePayrollEmployee(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.payrollEmployees.remove(caller, id);
  }
}

/** The employee's salary: served under /employees/{id}, owned by payroll. */
@ApiTags('Payroll configuration')
@ApiBearerAuth()
@Controller('employees/:id/salary')
export class EmployeeSalaryController {
  constructor(private readonly payrollEmployees: PayrollEmployeesService) {}

  @Get()
  @Levels(...ADMINS)
  @ApiOperation({
    summary: "The employee's salary: one amount per salary component",
    description: 'as_of=YYYY-MM-DD: the salary in force that day, from the employment history; 404 before the employee joined.',
  })
  @ApiArrayEnvelope(SalaryItemDto)
  @ApiErrors(400, 401, 403, 404)
  get(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: AsOfQueryDto,
  ): Promise<SalaryItemDto[]> {
    return this.payrollEmployees.salary(caller, id, query.as_of);
  }

  @Put()
  @Levels(...ADMINS)
  @ApiOperation({
    summary: "Replace the employee's salary",
    description:
      '{"items":[{"component":1,"amount":"5000.00"}]}; amounts may be JSON numbers. Recorded as a change effective today in the ' +
      'employment history (from the joined date for an employee who has not joined yet, and for its first salary: setting one up ' +
      'is not a raise); POST /employees/{id}/changes dates one.',
  })
  @ApiArrayEnvelope(SalaryItemDto)
  @ApiErrors(400, 401, 403, 404)
  put(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: PutSalaryDto,
  ): Promise<SalaryItemDto[]> {
    return this.payrollEmployees.setSalary(caller, id, dto);
  }
}
