import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { AnonymisedDto } from './dto/privacy.dto';
import { PrivacyService } from './privacy.service';

/** Anonymisation of a leaver (issue 69, docs/api/privacy.md). */
@ApiTags('Privacy')
@ApiBearerAuth()
@Controller('employees/:id')
export class PrivacyController {
  constructor(private readonly privacy: PrivacyService) {}

  @Post('anonymise')
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({
    summary: 'Anonymise a Terminated employee (Admin): its personal data cleared everywhere, its payroll results kept',
    description:
      'Names become "Former employee <id>"; contact, identity, address, birth date and personal custom fields cleared; bank accounts, ' +
      'documents (their files removed from the store) and users deleted; audit entries, events, notifications and tasks about it keep ' +
      'what happened and lose the personal values. Payroll grids, payslip amounts, journals, insights counts and leave totals stay. ' +
      'All or nothing, in one transaction. 409 when the employee is not Terminated (INVALID_STATE), is under legal hold or was ' +
      'anonymised already (CONFLICT, naming the field). Emits employee.anonymised.',
  })
  @ApiOkEnvelope(AnonymisedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  anonymise(@CurrentUser() caller: AuthUser, @Param('id', new IdParamPipe()) id: number): Promise<AnonymisedDto> {
    return this.privacy.anonymise(caller, id);
  }
}
