import { ApiListQuery } from '../common/paging/api-list-query.decorator';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowPendingPasswordChange, Authenticated, CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { Exportable } from '../common/export/exportable';
import { ApiErrors, ApiListEnvelope, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { SyncedSearchableListQueryDto } from '../common/paging/list-query.dto';
import { Page } from '../common/paging/page';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { ChangePasswordDto, PasswordChangedDto } from './dto/change-password.dto';
import { UpdateUserDto, UserDeletedDto, UserDto } from './dto/user-account.dto';
import { UserAccountsService, USER_LIST_SPEC } from './user-accounts.service';
import { UsersService } from './users.service';

@ApiTags('Users')
@ApiBearerAuth()
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly accounts: UserAccountsService,
  ) {}

  @Get()
  @Levels('Admin')
  @ApiOperation({
    summary: 'List users (Admin)',
    description: 'sortField: id, username, email, user_level; filters: user_level, active, employee; search: username, email.',
  })
  @ApiListEnvelope(UserDto)
  @Exportable('users', UserDto)
  @ApiListQuery(USER_LIST_SPEC)
  @ApiErrors(400, 401, 403)
  list(@Query() query: SyncedSearchableListQueryDto): Promise<Page<UserDto>> {
    return this.accounts.list(query);
  }

  @Get(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'One user (Admin)' })
  @ApiOkEnvelope(UserDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<UserDto> {
    return this.accounts.get(id);
  }

  @Put(':id')
  @Levels('Admin')
  @ApiOperation({
    summary: "Change a user's e-mail, level, active flag, Restricted Admin departments, roles, language or start module (Admin)",
    description:
      "Deactivating ends the user's tokens at once. Manager and Employee need a linked employee. " +
      'The last active Admin cannot be demoted or deactivated: 409 LAST_ADMIN.',
  })
  @ApiOkEnvelope(UserDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(@Param('id', new IdParamPipe()) id: number, @Body() dto: UpdateUserDto): Promise<UserDto> {
    return this.accounts.update(id, dto);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Delete a user (Admin); its tokens stop working at once; not the last active Admin (409 LAST_ADMIN)' })
  @ApiOkEnvelope(UserDeletedDto)
  @ApiErrors(400, 401, 403, 404, 409)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<UserDeletedDto> {
    return this.accounts.remove(id);
  }

  @Post('me/password')
  @HttpCode(200)
  @Authenticated()
  @AllowPendingPasswordChange()
  @ApiOperation({
    summary: "Change the caller's password",
    description:
      'Every other token of the user stops working; the token used for this call keeps working. ' +
      'Limited per user (PASSWORD_CHANGE_RATE_LIMIT attempts per PASSWORD_CHANGE_RATE_LIMIT_WINDOW, default 5 per 15 min): 429 with Retry-After.',
  })
  @ApiOkEnvelope(PasswordChangedDto)
  @ApiErrors(400, 401, 429)
  async changePassword(@CurrentUser() caller: AuthUser, @Body() dto: ChangePasswordDto): Promise<PasswordChangedDto> {
    await this.users.changePassword(caller, dto.current_password, dto.new_password);
    return { changed: true };
  }
}
