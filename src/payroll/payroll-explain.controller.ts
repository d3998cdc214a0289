import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { CellExplanationDto } from './dto/payroll-explain.dto';
import { PayrollExplainService } from './payroll-explain.service';

/** Why a run's cells have their values (API.md §18). */
@ApiTags('Payroll runs')
@ApiBearerAuth()
@Controller('payroll_config/payrolls')
export class PayrollExplainController {
  constructor(private readonly explainer: PayrollExplainService) {}

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
}
