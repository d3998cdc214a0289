import {
  Body,
  Controller,
  Delete,
  Get,
  Header,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExcludeEndpoint,
  ApiExtension,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../common/auth/access.decorators';
import { RawResponse } from '../common/envelope/raw-response.decorator';
import { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { asList, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { ScimGroupsService } from './scim-groups.service';
import { ScimQuery } from './scim-query';
import { Json } from './scim-schema';
import { ScimTokenGuard } from './scim-token.guard';
import { ScimUsersService } from './scim-users.service';
import { DomainException, NotFoundException } from '../common/errors/domain.exception';
import { ScimError } from './scim.error';
import { scimSchema } from './scim-openapi';
import { ERROR_CONTENT_EXTENSION } from '../common/openapi/declared-schemas';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
const SEARCH_REQUEST = 'urn:ietf:params:scim:api:messages:2.0:SearchRequest';

/** A SearchRequest's body (RFC 7644 §3.4.3) as the query parameters a GET list takes. */
function searchQuery(body: unknown): ScimQuery {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new ScimError('invalidSyntax', 'Send a SearchRequest as a JSON object');
  const b = body as Record<string, unknown>;
  if (b.schemas !== undefined && !(Array.isArray(b.schemas) && b.schemas.includes(SEARCH_REQUEST)))
    throw new ScimError('invalidSyntax', `schemas must be ["${SEARCH_REQUEST}"]`);
  const list = (v: unknown, name: string): string | undefined => {
    if (v === undefined) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v.join(',');
    throw new ScimError('invalidValue', `${name} must be a list of attribute names`);
  };
  const text = (v: unknown, name: string): string | undefined => {
    if (v === undefined) return undefined;
    if (typeof v === 'string' || typeof v === 'number') return String(v);
    throw new ScimError('invalidValue', `${name} must be a ${name === 'filter' ? 'string' : 'number'}`);
  };
  return {
    filter: text(b.filter, 'filter'),
    startIndex: text(b.startIndex, 'startIndex'),
    count: text(b.count, 'count'),
    attributes: list(b.attributes, 'attributes'),
    excludedAttributes: list(b.excludedAttributes, 'excludedAttributes'),
  };
}
const RESOURCE = { schema: { type: 'object', additionalProperties: true } };

const ListQuery = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiQuery({
    name: 'filter',
    required: false,
    description: 'RFC 7644 §3.4.2.2: eq ne co sw ew gt ge lt le pr, and or not, value paths (emails[type eq "work"])',
  })(target, key, descriptor);
  ApiQuery({ name: 'startIndex', required: false, schema: { type: 'integer', minimum: 1 }, description: '1-based' })(
    target,
    key,
    descriptor,
  );
  ApiQuery({
    name: 'count',
    required: false,
    schema: { type: 'integer', minimum: 0, maximum: 1000 },
    description: 'page size, default 100',
  })(target, key, descriptor);
  Projection()(target, key, descriptor);
};
const Projection = () => (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
  ApiQuery({ name: 'attributes', required: false, description: 'comma-separated attributes to return (id and schemas always)' })(
    target,
    key,
    descriptor,
  );
  ApiQuery({ name: 'excludedAttributes', required: false, description: 'comma-separated attributes to leave out' })(
    target,
    key,
    descriptor,
  );
};
type ScimSchemaName = Parameters<typeof scimSchema>[0];
/** The exception filter answers SCIM's routes with SCIM error bodies, as application/scim+json. */
const SCIM_ERROR_CONTENT = { 'application/scim+json': { schema: scimSchema('ScimError') } };
/** A SCIM operation: no envelope; its body and answer the schemas of scim-openapi.ts (an open object otherwise), its errors SCIM error bodies. */
const Scim =
  (summary: string, opts: { status?: number; body?: ScimSchemaName | true; answer?: ScimSchemaName } = {}) =>
  (target: object, key: string | symbol, descriptor: PropertyDescriptor) => {
    const status = opts.status ?? 200;
    Public()(target, key, descriptor);
    RawResponse()(target, key, descriptor);
    ApiOperation({ summary })(target, key, descriptor);
    ApiProduces('application/scim+json', 'application/json')(target, key, descriptor);
    ApiExtension(ERROR_CONTENT_EXTENSION, SCIM_ERROR_CONTENT)(target, key, descriptor);
    if (status !== 204) Header('Content-Type', SCIM_CONTENT_TYPE)(target, key, descriptor);
    if (opts.body) {
      ApiConsumes('application/scim+json', 'application/json')(target, key, descriptor);
      ApiBody({ schema: opts.body === true ? { type: 'object', additionalProperties: true } : scimSchema(opts.body) })(
        target,
        key,
        descriptor,
      );
    }
    const answer = opts.answer ? { schema: scimSchema(opts.answer) } : RESOURCE;
    ApiResponse(status === 204 ? { status, description: 'Done' } : { status, ...answer })(target, key, descriptor);
    for (const s of [400, 401, 404, 409])
      ApiResponse({
        status: s,
        description: 'SCIM error body (RFC 7644 §3.12) with scimType where one applies',
        content: SCIM_ERROR_CONTENT,
      })(target, key, descriptor);
  };

/**
 * SCIM 2.0 (RFC 7643/7644) for identity providers (Entra ID, Okta): discovery, Users, Groups.
 * A SCIM token only; bodies and errors are application/scim+json without the REST envelope.
 */
@ApiTags('SCIM')
@ApiSecurity('scim')
@UseGuards(ScimTokenGuard)
@Controller('scim/v2')
export class ScimController {
  private readonly base: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly users: ScimUsersService,
    private readonly groups: ScimGroupsService,
  ) {
    this.base = `${config.publicUrl}/app/api/scim/v2`;
  }

  @Get('ServiceProviderConfig')
  @Scim('What this SCIM service supports (RFC 7643 §5)')
  config(): Json {
    return serviceProviderConfig(this.base, `${this.base.replace(/\/scim\/v2$/, '')}/docs`);
  }

  /** The path Microsoft's test collection asks. */
  @Get('serviceConfiguration')
  @ApiExcludeEndpoint()
  @Public()
  @RawResponse()
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  configAlias(): Json {
    return this.config();
  }

  @Get('ResourceTypes')
  @Scim('The resource types: User (with the enterprise extension) and Group')
  resourceTypes(): Json {
    return asList(resourceTypes(this.base));
  }

  @Get('ResourceTypes/:name')
  @Scim('One resource type')
  @ApiParam({ name: 'name', enum: ['User', 'Group'] })
  resourceType(@Param('name') name: string): Json {
    const found = resourceTypes(this.base).find((r) => r.id === name);
    if (!found) throw new NotFoundException('Resource type');
    return found;
  }

  @Get('Schemas')
  @Scim('The schemas: User, EnterpriseUser, Group')
  schemas(): Json {
    return asList(schemas(this.base));
  }

  @Get('Schemas/:id')
  @Scim('One schema by its URN')
  schema(@Param('id') id: string): Json {
    const found = schemas(this.base).find((s) => s.id === id);
    if (!found) throw new NotFoundException('Schema');
    return found;
  }

  /** RFC 7644 §3.11: /Me needs the subject a token stands for; a SCIM token is an identity provider's, no user's. */
  @Get('Me')
  @ApiExcludeEndpoint()
  @Public()
  @RawResponse()
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  me(): never {
    throw new DomainException(
      'NOT_IMPLEMENTED',
      '/Me is not supported: a SCIM token belongs to an identity provider, not to a user',
    );
  }

  /** RFC 7644 §3.7: bulk is not supported (ServiceProviderConfig says so): 501, as §3.7 has it. */
  @Post('Bulk')
  @ApiExcludeEndpoint()
  @Public()
  @RawResponse()
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  bulk(): never {
    throw new DomainException(
      'NOT_IMPLEMENTED',
      'Bulk operations are not supported (ServiceProviderConfig bulk.supported is false)',
    );
  }

  /** RFC 7644 §3.4.3 at the root (every resource type at once): not supported; /Users/.search and /Groups/.search are. */
  @Post('.search')
  @ApiExcludeEndpoint()
  @Public()
  @RawResponse()
  @Header('Content-Type', SCIM_CONTENT_TYPE)
  searchAll(): never {
    throw new DomainException('NOT_IMPLEMENTED', 'Search at the root is not supported: POST /Users/.search or /Groups/.search');
  }

  @Post('Users/.search')
  @HttpCode(200)
  @Scim('Search users with a SearchRequest body (RFC 7644 §3.4.3): the same answer as GET /Users', {
    body: 'ScimSearchRequest',
    answer: 'ScimUserList',
  })
  searchUsers(@Body() body: unknown): Promise<Json> {
    return this.users.list(searchQuery(body), this.base);
  }

  @Post('Groups/.search')
  @HttpCode(200)
  @Scim('Search groups with a SearchRequest body (RFC 7644 §3.4.3): the same answer as GET /Groups', {
    body: 'ScimSearchRequest',
    answer: 'ScimGroupList',
  })
  searchGroups(@Body() body: unknown): Promise<Json> {
    return this.groups.list(searchQuery(body), this.base);
  }

  @Get('Users')
  @Scim('List or search users (ListResponse)', { answer: 'ScimUserList' })
  @ListQuery()
  listUsers(@Query() query: ScimQuery): Promise<Json> {
    return this.users.list(query, this.base);
  }

  @Post('Users')
  @HttpCode(201)
  @Scim('Provision a user (201); 409 uniqueness for a userName in use', { status: 201, body: 'ScimUser', answer: 'ScimUser' })
  async createUser(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<Json> {
    const user = await this.users.create(body, this.base);
    void reply.header('Location', (user.meta as Json).location);
    return user;
  }

  @Get('Users/:id')
  @Scim('One user', { answer: 'ScimUser' })
  @Projection()
  getUser(@Param('id') id: string, @Query() query: ScimQuery): Promise<Json> {
    return this.users.get(id, this.base, query);
  }

  @Put('Users/:id')
  @Scim('Replace a user; active false deactivates it and ends its tokens', { body: 'ScimUser', answer: 'ScimUser' })
  replaceUser(@Param('id') id: string, @Body() body: unknown): Promise<Json> {
    return this.users.replace(id, body, this.base);
  }

  @Patch('Users/:id')
  @HttpCode(204)
  @Scim('Change a user with PatchOp operations (the forms Entra ID and Okta send); 204', { status: 204, body: 'ScimPatchOp' })
  async patchUser(@Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.users.patch(id, body, this.base);
  }

  @Delete('Users/:id')
  @HttpCode(204)
  @Scim('Delete a user (204); its tokens end', { status: 204 })
  async deleteUser(@Param('id') id: string): Promise<void> {
    await this.users.remove(id);
  }

  @Get('Groups')
  @Scim('List or search groups (ListResponse)', { answer: 'ScimGroupList' })
  @ListQuery()
  listGroups(@Query() query: ScimQuery): Promise<Json> {
    return this.groups.list(query, this.base);
  }

  @Post('Groups')
  @HttpCode(201)
  @Scim('Create a group with its members (201)', { status: 201, body: 'ScimGroup', answer: 'ScimGroup' })
  async createGroup(@Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<Json> {
    const group = await this.groups.create(body, this.base);
    void reply.header('Location', (group.meta as Json).location);
    return group;
  }

  @Get('Groups/:id')
  @Scim('One group', { answer: 'ScimGroup' })
  @Projection()
  getGroup(@Param('id') id: string, @Query() query: ScimQuery): Promise<Json> {
    return this.groups.get(id, this.base, query);
  }

  @Put('Groups/:id')
  @Scim('Replace a group and its members', { body: 'ScimGroup', answer: 'ScimGroup' })
  replaceGroup(@Param('id') id: string, @Body() body: unknown): Promise<Json> {
    return this.groups.replace(id, body, this.base);
  }

  @Patch('Groups/:id')
  @HttpCode(204)
  @Scim('Change a group: add or remove members, rename (204)', { status: 204, body: 'ScimPatchOp' })
  async patchGroup(@Param('id') id: string, @Body() body: unknown): Promise<void> {
    await this.groups.patch(id, body, this.base);
  }

  @Delete('Groups/:id')
  @HttpCode(204)
  @Scim('Delete a group (204); levels it gave are recomputed', { status: 204 })
  async deleteGroup(@Param('id') id: string): Promise<void> {
    await this.groups.remove(id);
  }
}
