import { ApiInt, ApiIntOptional } from '../../common/openapi/api-int';
import { AcceptsReadOnlyOf } from '../../common/validation/read-only';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { IsRefId, Nullable, Trim } from '../../common/validation/decorators';
import { USER_LEVELS } from '../../common/auth/user-level';

const LANG_RE = /^[a-z]{2,3}(-[A-Z]{2})?$/;
const MODULE_RE = /^[A-Za-z0-9_-]{1,50}$/;

class UserPreferencesDto {
  @ApiIntOptional({ type: [Number], description: 'role ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsRefId({ each: true })
  user_roles?: number[];

  @ApiPropertyOptional({ type: String, nullable: true, example: 'en', description: 'language code (en, de, pt-BR)' })
  @IsOptional()
  @Nullable()
  @Matches(LANG_RE, { message: '$property must be a language code such as en or pt-BR' })
  lang?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'dashboard', description: 'module opened at login' })
  @IsOptional()
  @Nullable()
  @Matches(MODULE_RE, { message: '$property must be 1-50 letters, digits, _ or -' })
  default_module?: string | null;
}

/** POST /employees/{id}/create-user. */
export class CreateUserForEmployeeDto extends UserPreferencesDto {
  @ApiProperty({ example: 'jdoe' })
  @Trim()
  @IsString()
  @Length(2, 100)
  username: string;

  @ApiProperty({ example: 'jdoe@example.com' })
  @Trim()
  @IsEmail({}, { message: '$property must be an email' })
  @MaxLength(255)
  email: string;

  @ApiPropertyOptional({ enum: USER_LEVELS, default: 'Employee' })
  @IsOptional()
  @IsIn(USER_LEVELS)
  user_level?: (typeof USER_LEVELS)[number];
}

export class CreatedUserDto {
  @ApiInt() id: number;
  @ApiProperty() username: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: USER_LEVELS }) user_level: string;
  @ApiProperty({ description: 'the employee id, as a string (seed)', example: '5' }) employee: string;
}

export class CreateUserResponseDto {
  @ApiProperty({ type: CreatedUserDto }) user: CreatedUserDto;
  @ApiProperty({ enum: ['sent', 'not_sent', 'none'] }) email_status: 'sent' | 'not_sent' | 'none';
}

export class UserDto {
  @ApiInt() id: number;
  @ApiProperty() username: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: USER_LEVELS }) user_level: string;
  @ApiProperty({ type: String, nullable: true, description: 'the linked employee id, as a string' }) employee: string | null;
  @ApiProperty() active: boolean;
  @ApiInt({ type: [Number], description: "a Restricted Admin's departments (its scope, with their children)" })
  departments: number[];
  @ApiInt({ type: [Number] }) user_roles: number[];
  @ApiProperty({ type: String, nullable: true }) lang: string | null;
  @ApiProperty({ type: String, nullable: true }) default_module: string | null;
  @ApiProperty({ enum: ['pending', 'sent', 'not_sent', 'none'], nullable: true }) welcome_email_status: string | null;
}

/** PUT /users/{id}. */
@AcceptsReadOnlyOf(() => UserDto)
export class UpdateUserDto extends UserPreferencesDto {
  @ApiPropertyOptional()
  @Trim()
  @IsOptional()
  @IsEmail({}, { message: '$property must be an email' })
  @MaxLength(255)
  email?: string;

  @ApiPropertyOptional({ enum: USER_LEVELS })
  @IsOptional()
  @IsIn(USER_LEVELS)
  user_level?: (typeof USER_LEVELS)[number];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  active?: boolean;

  @ApiIntOptional({ type: [Number], description: 'Restricted Admin only: department ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsRefId({ each: true })
  departments?: number[];
}

export class UserDeletedDto {
  @ApiInt() id: number;
}
