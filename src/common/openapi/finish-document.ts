import { EXPORT_EXTENSION } from '../export/exportable';
import { RESPONSE_OPTIONAL } from './response-optional';
import { XLSX_TYPE } from '../export/sheet-writers';
import type { OpenAPIObject } from '@nestjs/swagger';
import { LEVELS_EXTENSION } from '../auth/access.decorators';
import { USER_LEVELS, UserLevel } from '../auth/user-level';
import { LIST_QUERY_EXTENSION, ListQueryDoc } from '../paging/api-list-query.decorator';
import { errorExamples, filterExamples } from './examples';
import { declaredSchemaNames, declaredSchemas, ERROR_CONTENT_EXTENSION, replacedSchemas } from './declared-schemas';

/**
 * What @nestjs/swagger's generator cannot say from decorators, added to the document once it is
 * built (issue 25). Every change here is a rule over the whole document, so that no route can miss it:
 *
 * - the responses any route can give, with the error envelope: 401 and 403 where a token is needed
 *   (invalid token; a level not allowed or a temporary password to change), 404 (an unknown id, a
 *   record out of scope, a path no route serves), 400 (every route refuses query parameters it does
 *   not take), 413 and 415 where there is a body, 500, 503;
 * - the headers of responses: `X-Request-Id` on every one, `WWW-Authenticate` on 401,
 *   `Retry-After` on 429, `Idempotent-Replayed` where an `Idempotency-Key` is taken;
 * - an enum of a nullable property lists `null`, as strict OpenAPI 3.0 validators require;
 * - numeric path parameters, `page` and `limit` are integers (ids, references and counts in
 *   schemas are declared so by their DTOs: ApiInt, IsRefId);
 * - the bearer scheme names no format: tokens are opaque, not JWTs;
 * - a schema only responses use lists every property as required (many response DTOs extend
 *   their create DTO, whose fields are optional: a generated client made all 36 fields of an
 *   employee optional), but for the fields some responses leave out, marked @ResponseOptional on their DTO.
 */
export function finishDocument(doc: OpenAPIObject): OpenAPIObject {
  const envelope = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelopeDto' } } };
  const requestId = {
    'X-Request-Id': {
      description: 'the request id: the one sent, or one made for the request; in every log line of it',
      required: true,
      schema: { type: 'string' },
    },
  };
  const commonErrors: Record<string, string> = {
    '404': "Unknown route or record (also records outside the caller's scope)",
    '500': 'A bug: INTERNAL_ERROR, logged with the request id',
    '503': 'REST API disabled (API_DISABLED) or a dependency down (DEPENDENCY_UNAVAILABLE)',
  };
  for (const methods of Object.values(doc.paths)) {
    for (const [method, operation] of Object.entries(methods) as Array<[string, OperationLike]>) {
      if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
      listQuery(operation);
      exportAnswer(operation);
      optionalBody(operation);
      const responses = (operation.responses ??= {});
      const secured = (operation.security ?? doc.security ?? []).length > 0;
      whoMayCall(operation, secured);
      const errors = { ...commonErrors };
      if (secured) {
        errors['401'] = 'Missing, invalid, expired or revoked token';
        errors['403'] = 'Not allowed for the caller, or its temporary password must be changed first (PASSWORD_CHANGE_REQUIRED)';
      }
      // Every route refuses query parameters it does not read (issue 41), so every route may answer 400.
      errors['400'] =
        operation.requestBody || operation.parameters?.length
          ? 'Invalid input (bad JSON, failed validation, bad query or path parameter, a query parameter it does not take)'
          : 'A query parameter this route does not take';
      if (operation.requestBody) {
        errors['413'] = 'Request body too large';
        errors['415'] = 'Content-Type is not application/json';
      }
      // An operation whose errors are not the envelope (SCIM's) says what they are.
      const errorContent = (operation as Record<string, unknown>)[ERROR_CONTENT_EXTENSION] ?? envelope;
      delete (operation as Record<string, unknown>)[ERROR_CONTENT_EXTENSION];
      for (const [status, description] of Object.entries(errors))
        // 503 API_DISABLED comes from the gate in front of every route, as the envelope.
        responses[status] ??= {
          description,
          content: status === '503' ? { ...errorContent, ...envelope } : errorContent,
        };
      const idempotent = (operation.parameters ?? []).some((p) => 'name' in p && p.name === 'Idempotency-Key');
      for (const [status, response] of Object.entries(responses)) {
        if ('$ref' in response) continue;
        response.headers = { ...requestId, ...response.headers };
        if (status === '401')
          response.headers['WWW-Authenticate'] = { description: 'Bearer', required: true, schema: { type: 'string' } };
        if (status === '429')
          response.headers['Retry-After'] = { description: 'seconds to wait', required: true, schema: { type: 'integer' } };
        if (status === '503')
          response.headers['Retry-After'] = {
            description: 'seconds to wait, when a dependency is down',
            schema: { type: 'integer' },
          };
        if (idempotent && status.startsWith('2'))
          response.headers['Idempotent-Replayed'] = {
            description: '"true" when this is the stored response of an earlier request with the same key',
            schema: { type: 'string', enum: ['true'] },
          };
      }
    }
  }
  doc.components ??= {};
  doc.components.schemas ??= {};
  for (const [name, schema] of declaredSchemas()) doc.components.schemas[name] ??= schema;
  for (const [name, schema] of replacedSchemas()) doc.components.schemas[name] = schema;
  for (const schema of Object.values(doc.components?.schemas ?? {})) {
    nullableEnums(schema);
    nullableReferences(schema);
  }
  for (const methods of Object.values(doc.paths))
    for (const operation of Object.values(methods) as OperationLike[])
      for (const parameter of operation.parameters ?? []) {
        if ('$ref' in parameter) continue;
        const p = parameter as { in?: string; name?: string; schema?: { type?: string; format?: string } };
        if (p.schema?.type === 'number' && (p.in === 'path' || p.name === 'page' || p.name === 'limit'))
          Object.assign(p.schema, INTEGER);
      }
  versionHeaders(doc);
  noDefaultsOnUpdates(doc);
  requireResponseFields(doc);
  boundIntegers(doc);
  errorExamples(doc);
  filterExamples(doc);
  for (const server of doc.servers ?? []) (server as { 'x-internal'?: boolean })['x-internal'] = false;
  const bearer = doc.components?.securitySchemes?.bearer as { bearerFormat?: string; description?: string } | undefined;
  if (bearer) {
    delete bearer.bearerFormat;
    bearer.description = 'An opaque access token from POST /oauth/token (not a JWT)';
  }
  return doc;
}

/**
 * An update's body has no defaults: a property left out keeps its value (PUT /document-types/5
 * {"name"} keeps visible_to_manager), while a `default` inherited from the create DTO (PartialType)
 * says it would be reset, and makes generated clients require it (openapi-typescript). The
 * schemas named Update* and those a PUT or PATCH takes as its body lose their properties' defaults.
 */
function noDefaultsOnUpdates(doc: OpenAPIObject): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, { properties?: Record<string, { default?: unknown }> }>;
  const names = new Set(Object.keys(schemas).filter((n) => n.startsWith('Update')));
  for (const methods of Object.values(doc.paths))
    for (const [method, operation] of Object.entries(methods) as Array<[string, OperationLike]>) {
      if (method !== 'put' && method !== 'patch') continue;
      const body = operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
      for (const media of Object.values(body?.content ?? {})) {
        const ref = media.schema?.$ref;
        if (ref?.startsWith('#/components/schemas/')) names.add(ref.slice('#/components/schemas/'.length));
      }
    }
  for (const name of names) for (const property of Object.values(schemas[name]?.properties ?? {})) delete property.default;
}

/**
 * If-Match as the server reads it: optional (a write without it applies to any version), named
 * as HTTP spells it (Nest documents `@Headers('if-match')` as a required `if-match`). The GET of a
 * path whose writes take it documents the ETag it sends (the value for If-Match).
 */
function versionHeaders(doc: OpenAPIObject): void {
  for (const methods of Object.values(doc.paths)) {
    let versioned = false;
    for (const operation of Object.values(methods) as OperationLike[]) {
      for (const parameter of operation.parameters ?? []) {
        const p = parameter as { in?: string; name?: string };
        if ('$ref' in parameter || p.in !== 'header' || p.name?.toLowerCase() !== 'if-match') continue;
        Object.assign(parameter, {
          name: 'If-Match',
          required: false,
          description:
            'An ETag of GET /employees/{id} (or *): the write applies only to that version, else 412 PRECONDITION_FAILED',
        });
        versioned = true;
      }
    }
    const read = (methods as Record<string, OperationLike | undefined>).get?.responses?.['200'];
    if (versioned && read && !('$ref' in read)) {
      read.headers = {
        ...read.headers,
        ETag: {
          description: 'the version read (not sent with as_of): send it as If-Match with a write',
          schema: { type: 'string' },
        },
      };
    }
  }
}

/**
 * A list documented with @ApiListQuery: `sortField` is the enum of its sort fields, `filters` an
 * object of its filter fields in the deepObject style (filters[status]=Active); the JSON form is
 * described beside it.
 */
function listQuery(operation: OperationLike): void {
  const list = (operation as Record<string, unknown>)[LIST_QUERY_EXTENSION] as ListQueryDoc | undefined;
  if (!list) return;
  delete (operation as Record<string, unknown>)[LIST_QUERY_EXTENSION];
  for (const parameter of operation.parameters ?? []) {
    if ('$ref' in parameter) continue;
    const p = parameter as {
      name?: string;
      in?: string;
      schema?: object;
      content?: object;
      description?: string;
      style?: string;
      explode?: boolean;
    };
    if (p.in !== 'query') continue;
    if (p.name === 'sortField') p.schema = { type: 'string', enum: list.sortFields };
    if (p.name === 'filters') {
      // deepObject, so that generated clients send filters[status]=Active (issue 41: with content
      // application/json they sent ?status=Active or nothing the server took).
      delete p.content;
      p.schema = { type: 'object', additionalProperties: false, properties: list.filters };
      p.style = 'deepObject';
      p.explode = true;
      p.description =
        'filters[field]=value; several values of a field as filters[field]=a,b (any of them; free text: repeat the ' +
        'parameter, filters[name]=a&filters[name]=b); or, as one parameter, a JSON object filters={"field": value} or ' +
        '{"field": [value, ...]}; over these fields';
    }
  }
}

/** A list marked @Exportable also answers `text/csv` and XLSX (every matching row, as an attachment). */
function exportAnswer(operation: OperationLike): void {
  const resource = (operation as Record<string, unknown>)[EXPORT_EXTENSION] as string | undefined;
  if (resource === undefined) return;
  delete (operation as Record<string, unknown>)[EXPORT_EXTENSION];
  const ok = operation.responses?.['200'] as ResponseLike | undefined;
  if (!ok) return;
  ok.content = {
    ...(ok.content as object),
    'text/csv': {
      schema: {
        type: 'string',
        description: `with format=csv or Accept: text/csv: every matching row, RFC 4180, a header row of the item's fields; cells that begin with = + - @, tab or CR are prefixed with an apostrophe`,
      },
    },
    [XLSX_TYPE]: {
      schema: {
        type: 'string',
        format: 'binary',
        description:
          'with format=xlsx or Accept: the XLSX type: every matching row, typed cells (numbers, dates), a header row, frozen panes',
      },
    },
  };
  ok.headers = {
    ...ok.headers,
    'Content-Disposition': {
      description: `on an export: attachment; filename="${resource}-<date>.csv" (or .xlsx)`,
      required: false,
      schema: { type: 'string' },
    },
  };
}

/**
 * Every operation's description opens with who may call it, from the level gate the route declares
 * (@Levels, kept as the operation's x-levels for a front end to hide what its user may not do).
 */
function whoMayCall(operation: OperationLike, secured: boolean): void {
  const levels = (operation as Record<string, unknown>)[LEVELS_EXTENSION] as readonly UserLevel[] | undefined;
  const scim = (operation.security ?? []).some((s) => typeof s === 'object' && s !== null && 'scim' in s);
  const metrics = (operation.security ?? []).some((s) => typeof s === 'object' && s !== null && 'metrics' in s);
  const who = scim
    ? 'Who may call: an identity provider with a SCIM token (POST /scim-tokens), no other token.'
    : metrics
      ? 'Who may call: a scraper on loopback, or one with METRICS_TOKEN as a bearer token; no user token.'
      : !secured
        ? 'No token needed.'
        : !levels || levels.length === USER_LEVELS.length
          ? 'Who may call: any signed-in user.'
          : `Who may call: ${levels.join(', ')}.`;
  operation.description = operation.description ? `${who}\n\n${operation.description}` : who;
}

interface OperationLike {
  description?: string;
  responses?: Record<string, ResponseLike | { $ref: string }>;
  requestBody?: unknown;
  security?: unknown[];
  parameters?: Array<{ name?: string } | { $ref: string }>;
}

interface ResponseLike {
  description: string;
  content?: unknown;
  headers?: Record<string, unknown>;
}

/** Stored as INT: ids and references; and counts. Fractional numbers (days, hours, values) are not here. */
const INTEGER = { type: 'integer', format: 'int32' };

/** Component names a node refers to, directly or through the schemas it refers to. */
function referenced(node: unknown, schemas: Record<string, unknown>, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const n of node) referenced(n, schemas, into);
    return into;
  }
  if (node === null || typeof node !== 'object') return into;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (!into.has(name)) {
      into.add(name);
      referenced(schemas[name], schemas, into);
    }
  }
  for (const value of Object.values(node)) referenced(value, schemas, into);
  return into;
}

function requireResponseFields(doc: OpenAPIObject): void {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, { properties?: object; required?: string[] }>;
  const requests = new Set<string>();
  const responses = new Set<string>();
  for (const methods of Object.values(doc.paths))
    for (const operation of Object.values(methods) as OperationLike[]) {
      referenced(operation.requestBody, schemas, requests);
      for (const [status, response] of Object.entries(operation.responses ?? {}))
        if (status.startsWith('2')) referenced(response, schemas, responses);
    }
  // A schema written by hand says itself what is required (declared-schemas.ts).
  const byHand = declaredSchemaNames();
  // A property marked @ResponseOptional on its DTO is left out of `required`.
  const optional = (p: unknown) => (p as Record<string, unknown>)[RESPONSE_OPTIONAL] === true;
  for (const name of responses) {
    const schema = schemas[name];
    if (requests.has(name) || byHand.has(name) || !schema?.properties) continue;
    const required = Object.entries(schema.properties)
      .filter(([, p]) => !optional(p))
      .map(([property]) => property);
    // OpenAPI refuses an empty `required`: a schema whose properties are all optional has none.
    if (required.length) schema.required = required;
    else delete schema.required;
  }
  // The marks leave the document.
  for (const schema of Object.values(schemas))
    for (const p of Object.values(schema.properties ?? {})) delete (p as Record<string, unknown>)[RESPONSE_OPTIONAL];
}

/**
 * Every integer, in schemas and parameters, states its format and range (int32, as stored; ids,
 * references and counts are never negative), so that a client and a validator know its bounds; one
 * without an example, default or enum of its own shows 1 or its minimum (it showed 2147483647).
 */
function boundIntegers(doc: OpenAPIObject): void {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== 'object') return;
    const schema = node as {
      type?: string;
      format?: string;
      minimum?: number;
      maximum?: number;
      example?: unknown;
      default?: unknown;
      enum?: unknown;
    };
    if (schema.type === 'integer') {
      schema.format ??= 'int32';
      schema.minimum ??= 0;
      schema.maximum ??= 2_147_483_647;
      if (schema.example === undefined && schema.default === undefined && !schema.enum)
        schema.example = Math.max(1, schema.minimum);
    }
    for (const value of Object.values(node)) visit(value);
  };
  visit(doc.paths);
  visit(doc.components?.schemas);
}

/**
 * A nullable reference (`{type: object, nullable: true, allOf: [{$ref}]}`, as @nestjs/swagger
 * writes a DTO property typed `X | null`) rejects null under OpenAPI 3.0.3, where `nullable` adds
 * null to its own `type` only and the `allOf` still applies (Redocly's nullable-type-sibling): it
 * becomes `anyOf` the reference and a schema that admits null only; a nullable `oneOf` without a
 * type gets that schema as one more choice.
 */
function nullableReferences(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableReferences);
  if (node === null || typeof node !== 'object') return;
  const schema = node as { nullable?: boolean; type?: unknown; allOf?: unknown[]; oneOf?: unknown[]; anyOf?: unknown[] };
  if (schema.nullable === true && schema.allOf?.length === 1) {
    schema.anyOf = [schema.allOf[0], NULL_ONLY];
    delete schema.allOf;
    delete schema.type;
    delete schema.nullable;
  } else if (schema.nullable === true && schema.type === undefined && (schema.oneOf || schema.anyOf)) {
    // A nullable choice (`oneOf` a string and a number, say): null is one more choice.
    const key = schema.oneOf ? 'oneOf' : 'anyOf';
    schema[key] = [...(schema[key] ?? []), NULL_ONLY];
    delete schema.nullable;
  }
  for (const value of Object.values(node)) nullableReferences(value);
}

/** The schema that admits null and nothing else, in OpenAPI 3.0.3's terms. */
const NULL_ONLY = { type: 'string', nullable: true, enum: [null] };

/** `nullable: true` beside an `enum`: the enum lists null too. */
function nullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullableEnums);
  if (node === null || typeof node !== 'object') return;
  const schema = node as { nullable?: boolean; enum?: unknown[] };
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  for (const value of Object.values(node)) nullableEnums(value);
}

/** The extension an operation whose body may be left out carries (OPTIONAL_BODY); the document says so with `required: false`. */
export const OPTIONAL_BODY = 'x-optional-body';

/**
 * @nestjs/swagger documents every @Body() as required, @ApiBody({ required: false }) or not: an
 * operation marked with ApiExtension(OPTIONAL_BODY, true) gets `requestBody.required: false` (the
 * approve and reject routes take an optional comment), so a typed client may call it without one.
 */
function optionalBody(operation: OperationLike): void {
  const marked = operation as OperationLike & Record<string, unknown>;
  if (!marked[OPTIONAL_BODY]) return;
  delete marked[OPTIONAL_BODY];
  if (operation.requestBody && typeof operation.requestBody === 'object')
    (operation.requestBody as { required?: boolean }).required = false;
}
