import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { CurrentUser, Levels } from '../common/auth/access.decorators';
import { AuthUser } from '../common/auth/auth-user';
import { ApiArrayEnvelope, ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';
import { ApiInt } from '../common/openapi/api-int';
import { IdParamPipe } from '../common/validation/id-param.pipe';
import { ScimTokensService, ScimTokenView } from './scim-tokens.service';

export class CreateScimTokenDto {
  @ApiProperty({ description: 'what the token is for (Entra ID provisioning)', maxLength: 100 })
  @IsString()
  @Length(1, 100)
  name: string;
}

export class ScimTokenDto implements ScimTokenView {
  @ApiInt() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'to the minute' }) last_used_at: string | null;
}

export class IssuedScimTokenDto extends ScimTokenDto {
  @ApiProperty({ description: 'the bearer token for /scim/v2, shown this once (hrs_...)' }) token: string;
}

export class ScimTokenDeletedDto {
  @ApiInt() id: number;
}

@ApiTags('SCIM')
@ApiBearerAuth()
@Controller('scim-tokens')
export class ScimTokensController {
  constructor(private readonly tokens: ScimTokensService) {}

  @Post()
  @HttpCode(200)
  @Levels('Admin')
  @ApiOperation({ summary: 'Issue a SCIM token (Admin): shown once, stored hashed, good for /scim/v2 only' })
  @ApiOkEnvelope(IssuedScimTokenDto)
  @ApiErrors(400, 401, 403)
  issue(@Body() dto: CreateScimTokenDto, @CurrentUser() caller: AuthUser): Promise<IssuedScimTokenDto> {
    return this.tokens.issue(dto.name, caller.id);
  }

  @Get()
  @Levels('Admin')
  @ApiOperation({ summary: 'The SCIM tokens (Admin), without the tokens themselves' })
  @ApiArrayEnvelope(ScimTokenDto)
  @ApiErrors(401, 403)
  list(): Promise<ScimTokenDto[]> {
    return this.tokens.list();
  }

  @Get(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'One SCIM token (Admin)' })
  @ApiOkEnvelope(ScimTokenDto)
  @ApiErrors(400, 401, 403, 404)
  get(@Param('id', new IdParamPipe()) id: number): Promise<ScimTokenDto> {
    return this.tokens.get(id);
  }

  @Delete(':id')
  @Levels('Admin')
  @ApiOperation({ summary: 'Revoke a SCIM token (Admin): refused from the next request' })
  @ApiOkEnvelope(ScimTokenDeletedDto)
  @ApiErrors(400, 401, 403, 404)
  remove(@Param('id', new IdParamPipe()) id: number): Promise<ScimTokenDeletedDto> {
    return this.tokens.remove(id);
  }
}
