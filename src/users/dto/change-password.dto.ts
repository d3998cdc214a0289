import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { PasswordHasher } from '../../auth/password-hasher';

export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(PasswordHasher.MAX_LENGTH)
  current_password: string;

  @ApiProperty({ minLength: PasswordHasher.MIN_LENGTH })
  @IsString()
  @MinLength(PasswordHasher.MIN_LENGTH)
  @MaxLength(PasswordHasher.MAX_LENGTH)
  new_password: string;
}

export class PasswordChangedDto {
  @ApiProperty({ example: true }) changed: boolean;
}
