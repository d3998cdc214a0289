import { ApiInt } from '../common/openapi/api-int';
import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { randomInt } from 'node:crypto';
import { Public } from '../common/auth/access.decorators';
import { ApiErrors, ApiOkEnvelope } from '../common/envelope/api-envelope.decorators';

export class EchoDto {
  @ApiProperty({ example: 'Echo 1804289383' }) echo: string;
  @ApiInt({ example: 1804289383 }) random: number;
}

@ApiTags('Echo')
@Controller('echo')
export class EchoController {
  @Get()
  @Public()
  @ApiOperation({ summary: 'Health check: answers when the API is enabled and routed', description: 'No token needed.' })
  @ApiOkEnvelope(EchoDto)
  @ApiErrors()
  echo(): EchoDto {
    const random = randomInt(0, 2 ** 31 - 1);
    return { echo: `Echo ${random}`, random };
  }
}
