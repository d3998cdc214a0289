import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowPendingPasswordChange, Authenticated, CurrentUser } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ChangePasswordDto, PasswordChangedDto } from './dto/change-password.dto';
import { UsersService } from './users.service';

@ApiTags('Users')
@ApiBearerAuth()
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post('me/password')
  @HttpCode(200)
  @Authenticated()
  @AllowPendingPasswordChange()
  @ApiOperation({
    summary: "Change the caller's password",
    description: 'Every other token of the user stops working; the token used for this call keeps working.',
  })
  @ApiOkEnvelope(PasswordChangedDto)
  @ApiErrors(400, 401)
  async changePassword(@CurrentUser() caller: AuthUser, @Body() dto: ChangePasswordDto): Promise<PasswordChangedDto> {
    await this.users.changePassword(caller, dto.current_password, dto.new_password);
    return { changed: true };
  }
}
