import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Levels } from '../../common/auth/access.decorators';
import { DeletedDto } from '../../common/crud/crud.controller';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { ApiListQuery } from '../../common/paging/api-list-query.decorator';
import { ListQueryDto } from '../../common/paging/list-query.dto';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import {
  BracketRowDto,
  LookupRowDto,
  PayrollTableDto,
  SavePayrollTableDto,
  UpdatePayrollTableDto,
} from '../dto/payroll-tables.dto';
import { PayrollTablesService, TABLE_LIST_SPEC } from './payroll-tables.service';

const SAVE_NOTE =
  'brackets rows {from, to (null: no end, the last only), rate (a fraction), fixed} from the lowest, not overlapping; lookup rows ' +
  '{key, value}; at most 200 rows a version and 100 versions. A run reads the version in force on its last day; a version a ' +
  'Processed or Completed run read cannot change or go (409 IN_USE): add a version instead.';

/** /payroll_config/tables (issue 44, docs/api/decisions.md §20): Admins read them, the Admin writes them, as the columns that read them. */
@ApiTags('Payroll configuration')
@ApiBearerAuth()
@ApiExtraModels(BracketRowDto, LookupRowDto)
@Controller('payroll_config/tables')
export class PayrollTablesController {
  constructor(private readonly tables: PayrollTablesService) {}

  @Get()
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'Payroll tables (brackets and lookups, in dated versions) that formulas read' })
  @ApiListQuery(TABLE_LIST_SPEC)
  @ApiListEnvelope(PayrollTableDto)
  @ApiErrors(400, 401, 403)
  list(@Query() query: ListQueryDto): Promise<Page<PayrollTableDto>> {
    return this.tables.list(query);
  }

  @Get(':id')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({ summary: 'A payroll table with its versions' })
  @ApiOkEnvelope(PayrollTableDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<PayrollTableDto> {
    return this.tables.get(id);
  }

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Create a payroll table', description: SAVE_NOTE })
  @ApiOkEnvelope(PayrollTableDto)
  @ApiErrors(400, 401, 403, 409)
  create(@Body() dto: SavePayrollTableDto): Promise<PayrollTableDto> {
    return this.tables.create(dto);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({
    summary: 'Change a payroll table: the name, kind or versions it names (versions: the whole list)',
    description: SAVE_NOTE,
  })
  @ApiOkEnvelope(PayrollTableDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdatePayrollTableDto): Promise<PayrollTableDto> {
    return this.tables.update(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a payroll table no Processed or Completed run read (409 IN_USE otherwise)' })
  @ApiOkEnvelope(DeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<DeletedDto> {
    return this.tables.remove(id);
  }
}
