import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { setAuditActor } from '../common/audit/audit-context';
import { ScimTokensService } from './scim-tokens.service';
import { DomainException } from '../common/errors/domain.exception';

const BEARER_RE = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The gate of /scim/v2: a SCIM token and nothing else (a REST access token is refused, as a SCIM
 * token is on the REST API). The routes are @Public() to the REST access guard, which knows only
 * REST tokens; this guard runs after it. Writes are audited as the service (actor "system").
 */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(private readonly tokens: ScimTokensService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const token = typeof header === 'string' ? BEARER_RE.exec(header)?.[1] : undefined;
    if (!token || !(await this.tokens.check(token))) {
      throw new DomainException('UNAUTHORIZED', 'Send a SCIM token (POST /scim-tokens) as Authorization: Bearer <token>');
    }
    setAuditActor('scim');
    return true;
  }
}
