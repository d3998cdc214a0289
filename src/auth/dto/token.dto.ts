import { ApiInt } from '../../common/openapi/api-int';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documentation of POST /oauth/token; the body is checked by AuthService (RFC 6749 error codes). */
export class TokenRequestDto {
  @ApiProperty({ enum: ['password', 'refresh_token', 'mfa_otp'] })
  grant_type: string;

  @ApiPropertyOptional({ description: 'username or e-mail (password grant)' })
  username?: string;

  @ApiPropertyOptional({ description: 'password grant' })
  password?: string;

  @ApiPropertyOptional({ description: 'refresh_token grant' })
  refresh_token?: string;

  @ApiPropertyOptional({
    description: 'mfa_otp grant: the challenge of the 401 MFA_REQUIRED answer (error.details[0].mfa_token)',
  })
  mfa_token?: string;

  @ApiPropertyOptional({ description: 'mfa_otp grant: the six digits of the authenticator app (or send recovery_code)' })
  otp?: string;

  @ApiPropertyOptional({ description: 'mfa_otp grant: one of the recovery codes, used up by this sign-in (instead of otp)' })
  recovery_code?: string;

  @ApiPropertyOptional({ description: 'accepted and ignored' })
  client_id?: string;

  @ApiPropertyOptional({ description: 'accepted and ignored' })
  client_secret?: string;
}

export class TokenResponseDto {
  @ApiProperty() access_token: string;
  @ApiProperty({ example: 'Bearer' }) token_type: string;
  @ApiInt({ description: 'seconds', example: 3600 }) expires_in: number;
  @ApiProperty() refresh_token: string;
  @ApiProperty({
    description: 'the user level in lower case, one scope token (RFC 6749 §3.3): admin, restricted_admin, manager or employee',
    enum: ['admin', 'restricted_admin', 'manager', 'employee'],
    example: 'admin',
  })
  scope: string;
}

export class RevokeRequestDto {
  @ApiProperty({ description: 'an access or refresh token' })
  token: string;

  @ApiPropertyOptional({ enum: ['access_token', 'refresh_token'], description: 'accepted and ignored' })
  token_type_hint?: string;
}

export class RevokeResponseDto {
  @ApiProperty({ example: true }) revoked: boolean;
}
