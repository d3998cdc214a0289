import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AllowPendingMfaEnrolment, Authenticated, CurrentUser, Levels } from '../../common/auth/access.decorators';
import { AuthUser } from '../../common/auth/auth-user';
import { ApiErrors, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { IdParamPipe } from '../../common/validation/id-param.pipe';
import { MfaCodeDto, MfaRemovedDto, MfaStatusDto, RecoveryCodesDto, TotpEnrolmentDto } from './mfa.dto';
import { MfaService } from './mfa.service';

@ApiTags('Users')
@ApiBearerAuth()
@Controller('users')
export class MfaController {
  constructor(private readonly mfa: MfaService) {}

  @Get('me/mfa')
  @Authenticated()
  @AllowPendingMfaEnrolment()
  @ApiOperation({ summary: "The caller's second factor: none, pending or enabled, and whether its level requires one" })
  @ApiOkEnvelope(MfaStatusDto)
  @ApiErrors(401)
  status(@CurrentUser() caller: AuthUser): Promise<MfaStatusDto> {
    return this.mfa.status(caller);
  }

  @Post('me/mfa/totp')
  @HttpCode(200)
  @Authenticated()
  @AllowPendingMfaEnrolment()
  @ApiOperation({
    summary: 'Start enrolling a TOTP factor (RFC 6238: SHA-1, 6 digits, 30 s)',
    description:
      'Answers the secret and its otpauth:// URL; the factor works once confirmed with a first code. Again before confirming: a new secret.',
  })
  @ApiOkEnvelope(TotpEnrolmentDto)
  @ApiErrors(401, 409)
  enrol(@CurrentUser() caller: AuthUser): Promise<TotpEnrolmentDto> {
    return this.mfa.enrol(caller);
  }

  @Post('me/mfa/totp/confirm')
  @HttpCode(200)
  @Authenticated()
  @AllowPendingMfaEnrolment()
  @ApiOperation({
    summary: 'Confirm the TOTP factor with a first code; answers ten recovery codes (shown once)',
    description: "Wrong codes count against the user's sign-in limit (429 with Retry-After).",
  })
  @ApiOkEnvelope(RecoveryCodesDto)
  @ApiErrors(400, 401, 409, 429)
  confirm(@CurrentUser() caller: AuthUser, @Body() dto: MfaCodeDto): Promise<RecoveryCodesDto> {
    return this.mfa.confirm(caller, dto.code);
  }

  @Delete('me/mfa')
  @Authenticated()
  @ApiOperation({
    summary: "Remove the caller's factor, proven by a current code or an unused recovery code",
    description: "Wrong codes count against the user's sign-in limit (429 with Retry-After).",
  })
  @ApiOkEnvelope(MfaRemovedDto)
  @ApiErrors(400, 401, 404, 429)
  async remove(@CurrentUser() caller: AuthUser, @Body() dto: MfaCodeDto): Promise<MfaRemovedDto> {
    await this.mfa.remove(caller, dto.code);
    return { removed: true };
  }

  @Delete(':id/mfa')
  @Levels('Admin')
  @ApiOperation({ summary: "Remove a user's second factor (Admin: a lost phone); the user enrols again" })
  @ApiOkEnvelope(MfaRemovedDto)
  @ApiErrors(400, 401, 403, 404)
  async reset(@Param('id', new IdParamPipe()) id: number): Promise<MfaRemovedDto> {
    await this.mfa.reset(id);
    return { removed: true };
  }
}
