import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { BodyTypes } from '../../common/http/route-config';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/auth/access.decorators';
import { ApiErrors, ApiOkEnvelope } from '../../common/envelope/api-envelope.decorators';
import { RawResponse } from '../../common/envelope/raw-response.decorator';
import { AuthService } from './auth.service';
import { RevokeRequestDto, RevokeResponseDto, TokenRequestDto, TokenResponseDto } from '../dto/token.dto';
import { IssuedTokens } from '../token.service';

@ApiTags('Authentication')
@Controller('oauth')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('token')
  @BodyTypes(['application/x-www-form-urlencoded']) // RFC 6749 and 7009 clients send a form
  @HttpCode(200)
  @Public()
  @RawResponse()
  @ApiOperation({
    summary: 'Obtain tokens (RFC 6749 password and refresh_token grants)',
    description:
      'The success body is the bare RFC 6749 token response, without the envelope. Rate limited per address and per username.',
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({
    type: TokenRequestDto,
    examples: {
      password: { summary: 'Sign in', value: { grant_type: 'password', username: 'admin', password: 'correct horse battery' } },
      refresh: { summary: 'Refresh', value: { grant_type: 'refresh_token', refresh_token: 'r_5dYq8mZl2wNf0sK1' } },
    },
  })
  @ApiResponse({ status: 200, type: TokenResponseDto })
  @ApiErrors(400, 401, 429)
  token(
    @Body() body: unknown,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<IssuedTokens> {
    // RFC 6749 §5.1: token responses are never cached; set first, so error answers carry them too.
    void reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    return this.auth.token(body, req.ip);
  }

  @Post('revoke')
  @BodyTypes(['application/x-www-form-urlencoded']) // RFC 6749 and 7009 clients send a form
  @HttpCode(200)
  @Public()
  @ApiOperation({ summary: 'Revoke an access or refresh token (RFC 7009); a refresh token ends its whole grant' })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: RevokeRequestDto })
  @ApiOkEnvelope(RevokeResponseDto)
  @ApiErrors(400)
  async revoke(@Body() body: unknown): Promise<RevokeResponseDto> {
    await this.auth.revoke(body);
    return { revoked: true };
  }
}
