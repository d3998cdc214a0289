import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../common/auth/access.decorators';
import { ApiErrors } from '../../common/envelope/api-envelope.decorators';
import { RawResponse } from '../../common/envelope/raw-response.decorator';
import { TokenResponseDto } from '../dto/token.dto';
import { browserOf, OidcService } from './oidc.service';

export class OidcLoginQueryDto {
  @ApiPropertyOptional({
    description:
      "Where the browser goes after signing in, with the tokens in the URL's fragment (#access_token=...): a path or a URL of this service's origin or of CORS_ORIGINS. Without it the callback answers the token response as JSON.",
    maxLength: 2000,
  })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  return_to?: string;
}

/** What providers send back (RFC 6749 §4.1.2, RFC 9207's iss, OpenID session management's session_state). */
export class OidcCallbackQueryDto {
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(4096) code?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(512) state?: string;
  @ApiPropertyOptional({ description: 'RFC 9207' }) @IsOptional() @IsString() @MaxLength(2000) iss?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(200) error?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) error_description?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) error_uri?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(2000) session_state?: string;
}

class OidcRedirectDto {
  @ApiProperty({ description: 'the Location' }) location: string;
}

@ApiTags('Authentication')
@Controller('auth/oidc')
export class OidcController {
  constructor(private readonly oidc: OidcService) {}

  @Get('login')
  @Public()
  @RawResponse()
  @ApiOperation({
    summary: 'Start single sign-on: 302 to the OpenID provider (authorization code with PKCE, state and nonce)',
    description:
      'Sets an HttpOnly cookie binding the sign-in to this browser; the callback must come back to the same browser within 10 minutes. ' +
      'Each start counts against the sign-in attempts of the address (429 RATE_LIMITED past them).',
  })
  @ApiResponse({ status: 302, description: 'To the provider', headers: { Location: { schema: { type: 'string' } } } })
  @ApiErrors(400, 404, 429, 503)
  async login(@Query() query: OidcLoginQueryDto, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const { location, browser } = await this.oidc.start(query.return_to, req.ip);
    await reply
      .status(302)
      .header('Set-Cookie', this.oidc.browserCookie(browser))
      .header('Cache-Control', 'no-store')
      .header('Location', location)
      .send();
  }

  @Get('callback')
  @Public()
  @RawResponse()
  @ApiOperation({
    summary: "The provider's redirect back: the token response of POST /oauth/token for the user it names",
    description:
      'The user linked to the ID token’s subject, else the one SCIM provisioned with Entra ID’s oid as externalId, else the one with its verified e-mail; nobody is created (401 UNKNOWN_USER). A state that was not issued, expired, used, or issued to another browser: 400, nothing signed in; an ID token that does not verify: 401 OIDC_REJECTED. With return_to: 302 there, the tokens in the fragment.',
  })
  @ApiResponse({ status: 200, type: TokenResponseDto })
  @ApiResponse({ status: 302, description: 'To return_to, with the tokens in the fragment', type: OidcRedirectDto })
  @ApiErrors(400, 401, 404, 429, 503)
  async callback(@Query() _query: OidcCallbackQueryDto, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    // Checked by the DTO; handed on as sent, since the library verifies the response as a whole.
    const q = req.url.indexOf('?');
    const { tokens, returnTo } = await this.oidc.finish(q < 0 ? '' : req.url.slice(q + 1), browserOf(req.headers.cookie), req.ip);
    // The sign-in cookie has done its work.
    void reply.header('Set-Cookie', this.oidc.browserCookie('')).header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
    if (!returnTo) return void (await reply.status(200).send(tokens));
    const fragment = new URLSearchParams(Object.entries(tokens).map(([k, v]): [string, string] => [k, String(v)])).toString();
    await reply
      .status(302)
      .header('Location', `${returnTo.split('#')[0]}#${fragment}`)
      .send();
  }
}
