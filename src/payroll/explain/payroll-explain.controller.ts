import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { ApiArrayEnvelope, ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { Exportable } from '../../common/export/exportable';
import { Page } from '../../common/paging/page';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import {
  DIFF_CAUSES,
  EXPLAIN_INPUTS,
  CellExplanationDto,
  PayrollDiffColumnDto,
  PayrollDiffFilterDto,
  PayrollDiffQueryDto,
  PayrollDiffRowDto,
  PreviewChangeQueryDto,
} from '../dto/payroll-explain.dto';
import { PayrollDiffService } from './payroll-diff.service';
import { PayrollPreviewService } from './payroll-preview.service';
import { SavePayrollColumnDto } from '../dto/payroll-config.dto';
import { PayrollExplainService } from './payroll-explain.service';

/** Why a run's cells have their values, and what changed since another run (docs/api/decisions.md §18). */
@ApiTags('Payroll runs')
@ApiBearerAuth()
@ApiExtraModels(...Object.values(EXPLAIN_INPUTS), ...Object.values(DIFF_CAUSES))
@Controller('payroll_config/payrolls')
export class PayrollExplainController {
  constructor(
    private readonly explainer: PayrollExplainService,
    private readonly differ: PayrollDiffService,
  ) {}

  @Get(':id/cells/:employee/:column/explain')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: "Explain a cell: its rule, inputs with their sources, the script's steps and the rounding",
    description:
      'Computed again from the inputs stored with the run (salary amounts, settings, fields, hook values with their ' +
      'records, the column definitions), so it gives the stored value whatever changed since. depends_on explains the ' +
      'cells it reads. 404 for an employee not in the payroll (or outside a Restricted Admin’s departments) or a column ' +
      'not in it; 409 INVALID_STATE for a payroll not processed since runs kept their inputs.',
  })
  @ApiOkEnvelope(CellExplanationDto)
  @ApiErrors(400, 401, 403, 404, 409)
  explain(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Param('employee', new IdParamPipe('employee')) employee: number,
    @Param('column', new IdParamPipe('column')) column: number,
  ): Promise<CellExplanationDto> {
    return this.explainer.explain(caller, id, employee, column);
  }

  @Get(':id/diff')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: 'What changed against another run, cell by cell, and why',
    description:
      'Rows {employee, column, old, new, difference, causes} for every cell that differs, employees by name and columns ' +
      'in order; causes: salary (component amounts), input (hook values with the records added and removed, employee ' +
      'fields), column (definition changes), edit (grid edits), joined, left, rounding, table (a payroll table version), ' +
      "calendar (the employee's working days or calendars); salary, column and edit causes " +
      'name who changed them and when (audit log). against defaults to the previous Processed or Completed payroll of ' +
      'the same pay frequency and department (404 without one). Filters employee, column, cause; format=csv|xlsx ' +
      'exports. 409 INVALID_STATE when either run was computed before runs kept their inputs.',
  })
  @ApiListEnvelope(PayrollDiffRowDto)
  @Exportable('payroll-diff', PayrollDiffRowDto)
  @ApiErrors(400, 401, 403, 404, 409, 429)
  diff(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: PayrollDiffQueryDto,
  ): Promise<Page<PayrollDiffRowDto>> {
    return this.differ.diff(caller, id, query);
  }

  @Get(':id/diff/summary')
  @Levels('Admin', 'Restricted Admin')
  @ApiOperation({
    summary: 'The diff per column: cells changed, the sum of the differences, changed cells per cause kind',
    description: 'The same filters as .../diff; columns with a changed cell only.',
  })
  @ApiArrayEnvelope(PayrollDiffColumnDto)
  @ApiErrors(400, 401, 403, 404, 409, 429)
  summary(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Query() query: PayrollDiffFilterDto,
  ): Promise<PayrollDiffColumnDto[]> {
    return this.differ.summary(caller, id, query);
  }
}

@ApiTags('Payroll configuration')
@ApiBearerAuth()
@Controller('payroll_config/payroll-columns')
export class PayrollColumnPreviewController {
  constructor(private readonly previews: PayrollPreviewService) {}

  @Post('preview-change')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({
    summary: 'The diff a column change would make on a processed run, without saving it',
    description:
      'The body is a column save (POST /payroll_config/payroll-columns; checked as a save is: 400, 404, 409). The run ' +
      '(payroll, default the newest Processed or Completed one) is computed again from its stored inputs with the ' +
      'change, and compared with what it stored: rows as GET .../payrolls/{id}/diff, column causes without an author. ' +
      'Nothing is saved. 404 without a processed run; 409 INVALID_STATE when its columns cannot be computed with the change.',
  })
  @ApiListEnvelope(PayrollDiffRowDto)
  @ApiErrors(400, 401, 403, 404, 409)
  preview(
    @CurrentUser() caller: AuthUser,
    @Body() dto: SavePayrollColumnDto,
    @Query() query: PreviewChangeQueryDto,
  ): Promise<Page<PayrollDiffRowDto>> {
    return this.previews.preview(caller, dto, query);
  }
}
