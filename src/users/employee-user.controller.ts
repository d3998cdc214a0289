import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { Idempotent } from '../common/idempotency/idempotent.decorator';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { EmployeeAccessService } from '../employees/core/employee-access.service';
import { CreateUserForEmployeeDto, CreateUserResponseDto } from './dto/user-account.dto';
import { UserAccountsService } from './user-accounts.service';

/** Served under /employees/{id} but a use case of the Users module, which depends on Employees (not the other way). */
@ApiTags('Employees')
@ApiBearerAuth()
@Controller('employees/:id/create-user')
export class EmployeeUserController {
  constructor(
    private readonly access: EmployeeAccessService,
    private readonly accounts: UserAccountsService,
  ) {}

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @Idempotent()
  @ApiOperation({
    summary: 'Create the login user of an employee (Admin) and e-mail it a temporary password',
    description:
      'email_status: none when no SMTP_URL is configured; otherwise the request waits up to MAIL_STATUS_WAIT_MS for the ' +
      'first attempt: sent when the SMTP server accepted the e-mail, not_sent when it failed or took longer (it is retried). ' +
      'The temporary password is never in a response; the user must change it before anything else. ' +
      '409: USERNAME_TAKEN, EMAIL_TAKEN, USER_EXISTS (the employee already has a user).',
  })
  @ApiOkEnvelope(CreateUserResponseDto)
  @ApiErrors(400, 401, 403, 404, 409)
  async create(
    @CurrentUser() caller: AuthUser,
    @Param('id', new IdParamPipe()) id: number,
    @Body() dto: CreateUserForEmployeeDto,
  ): Promise<CreateUserResponseDto> {
    await this.access.visible(caller, id);
    return this.accounts.createForEmployee(id, dto);
  }
}
