import { Exportable } from '../../common/export/exportable';
import { GRID_SHEET } from './payroll-grid.sheet';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { DeletedDto } from '../../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { ListQueryDto, PageQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import { Idempotent } from '../../common/idempotency/idempotent.decorator';
import {
  PayrollDataDto,
  PayrollDataUpdateDto,
  PayrollDto,
  PayrollEmployeeRowDto,
  PayrollErrorDto,
  SavePayrollDto,
} from '../dto/payroll-run.dto';
import { PayrollRunsService } from './payroll-runs.service';
import { SELECTION_SPEC } from './payroll-runs.repository';
import { PayrollTransitionsService } from './payroll-transitions.service';
import { PAYROLL_ERROR_LIST_SPEC, PAYROLL_LIST_SPEC } from '../entities/payroll-lists';

const ADMINS = ['Admin', 'Restricted Admin'] as const;

@ApiTags('Payroll runs')
@ApiBearerAuth()
@Controller('payroll_config/payrolls')
export class PayrollRunsController {
  constructor(
    private readonly runs: PayrollRunsService,
    private readonly transitions: PayrollTransitionsService,
  ) {}

  @Get()
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'Payrolls (Restricted Admin: of its departments)',
    description: 'The newest period first unless sorted otherwise.',
  })
  @ApiListQuery(PAYROLL_LIST_SPEC)
  @ApiListEnvelope(PayrollDto)
  @Exportable('payrolls', PayrollDto)
  @ApiErrors(400, 401, 403)
  list(@CurrentUser() caller: AuthUser, @Query() query: ListQueryDto): Promise<Page<PayrollDto>> {
    return this.runs.list(caller, query);
  }

  @Post()
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Create a payroll (Draft), or with id change one that is Draft, Processed or Failed (409 otherwise)' })
  @ApiBody({
    type: SavePayrollDto,
    examples: {
      monthly: {
        summary: "January's payroll of a department and its children",
        value: {
          name: 'Monthly payroll 2027-01',
          pay_period: 4,
          department: 1,
          date_start: '2027-01-01',
          date_end: '2027-01-31',
          columns: [1, 2, 3, 4],
          payslip_template: 1,
        },
      },
    },
  })
  @ApiOkEnvelope(PayrollDto)
  @ApiErrors(400, 401, 403, 404, 409)
  save(@CurrentUser() caller: AuthUser, @Body() dto: SavePayrollDto): Promise<PayrollDto> {
    return this.runs.save(caller, dto);
  }

  @Get(':id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'One payroll, with status, progress and error' })
  @ApiOkEnvelope(PayrollDto)
  @ApiErrors(400, 401, 403, 404)
  get(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PayrollDto> {
    return this.runs.get(caller, id);
  }

  @Delete(':id')
  @Levels(...ADMINS)
  @ApiOperation({ summary: 'Delete a Draft, Processed or Failed payroll with its cells (409 INVALID_STATE otherwise)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.runs.remove(caller, id);
  }

  @Get(':id/employees')
  @Levels(...ADMINS)
  @ApiOperation({
    summary:
      'The payroll employees the payroll selects: its pay frequency (and deduction group), Active, in its department or below',
    description: 'By employee id unless sorted otherwise.',
  })
  @ApiListEnvelope(PayrollEmployeeRowDto)
  @Exportable('payroll-selection', PayrollEmployeeRowDto)
  @ApiListQuery(SELECTION_SPEC)
  @ApiErrors(400, 401, 403, 404)
  employees(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<PayrollEmployeeRowDto>> {
    return this.runs.employeesOf(caller, id, query);
  }

  @Post(':id/process')
  @HttpCode(200)
  @Levels(...ADMINS)
  @Idempotent()
  @ApiOperation({
    summary: 'Start processing (Draft, Processed or Failed → Processing); answers at once',
    description:
      'A job on the payroll queue computes every cell and sets Processed, or Failed with error and the per-cell errors at /errors. ' +
      'Edited cells of editable columns are kept. Two concurrent calls start one job (the other 409 INVALID_STATE).',
  })
  @ApiOkEnvelope(PayrollDto)
  @ApiErrors(400, 401, 403, 404, 409)
  process(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<PayrollDto> {
    return this.transitions.process(caller, id);
  }

  @Get(':id/errors')
  @Levels(...ADMINS)
  @ApiOperation({ summary: "The last run's per-cell errors {employee, column, message}" })
  @ApiListQuery(PAYROLL_ERROR_LIST_SPEC)
  @ApiListEnvelope(PayrollErrorDto)
  @Exportable('payroll-errors', PayrollErrorDto)
  @ApiErrors(400, 401, 403, 404)
  errors(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: ListQueryDto,
  ): Promise<Page<PayrollErrorDto>> {
    return this.runs.errorsOf(caller, id, query);
  }

  @Get(':id/data')
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'The data grid: columns in colorder, rows by employee name (descend: reversed); page and limit page the rows',
  })
  @ApiOkEnvelope(PayrollDataDto)
  @Exportable('payroll-data', GRID_SHEET)
  @ApiErrors(400, 401, 403, 404)
  data(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: PageQueryDto,
  ): Promise<PayrollDataDto> {
    return this.runs.data(caller, id, query);
  }

  @Post(':id/data')
  @HttpCode(200)
  @Levels(...ADMINS)
  @ApiOperation({
    summary: 'Edit cells of editable columns (Draft or Processed); the other cells of those employees are recomputed at once',
    description:
      '{"values":[{"employee":5,"column":3,"amount":"100.00"}]}; a column that is not editable → 400. Answers the first 500 rows.',
  })
  @ApiOkEnvelope(PayrollDataDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: PayrollDataUpdateDto,
  ): Promise<PayrollDataDto> {
    return this.runs.update(caller, id, dto);
  }
}
