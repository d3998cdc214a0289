import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { ApiInt } from '../../common/openapi/api-int';

export class MfaCodeDto {
  @ApiProperty({
    description: 'six digits of the authenticator app, or (to remove the factor) an unused recovery code',
    example: '123456',
  })
  @IsString()
  @Length(6, 40)
  code: string;
}

export class MfaStatusDto {
  @ApiProperty({ enum: ['none', 'pending', 'enabled'], description: 'pending: enrolled, waiting for the first code' })
  totp: 'none' | 'pending' | 'enabled';
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) confirmed_at: string | null;
  @ApiInt({ description: 'unused recovery codes' }) recovery_codes_left: number;
  @ApiProperty({ description: 'the "Require MFA" setting names the caller\'s level' }) required: boolean;
}

export class TotpEnrolmentDto {
  @ApiProperty({ description: 'Base32, for typing into an authenticator app; shown this once' }) secret: string;
  @ApiProperty({
    description: 'the otpauth:// URL to show as a QR code',
    example: 'otpauth://totp/HR:ada%40example.com?issuer=HR&secret=...',
  })
  otpauth_url: string;
}

export class RecoveryCodesDto {
  @ApiProperty({ type: [String], description: 'ten single-use codes, shown this once' }) recovery_codes: string[];
}

export class MfaRemovedDto {
  @ApiProperty({ example: true }) removed: boolean;
}
