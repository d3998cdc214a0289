import { DocumentPatches } from './common/openapi/document-patches';
import { ModuleMetadata } from '@nestjs/common';
import { bodyTypesOf } from './common/http/route-config';
import { apiTags, isApiTag } from './common/openapi/api-tags';
import { CompanyClock } from './common/time/company-clock';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { finishDocument } from './common/openapi/finish-document';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import { version } from '../package.json';
import { AppModule } from './app.module';
import { registerEnvelope } from './common/envelope/envelope.hook';
import { registerBodyEtags } from './common/http/body-etag';
import { registerDeepObjectFilters } from './common/paging/deep-object-filters';
import { DataSource } from 'typeorm';
import { registerExports } from './common/export/exportable';
import { Authenticator, AUTHENTICATOR } from './common/auth/authenticator';
import { HandlersInFlight } from './common/http/handlers-in-flight';
import { Metrics } from './common/metrics/metrics';
import { ReadReplicas } from './common/database/read-replicas';
import { SlowClients } from './common/http/slow-clients';
import { DOCUMENTATION_ROUTE, securityHeaders } from './common/http/security-headers';
import { RAW_RESPONSE } from './common/envelope/raw-response.decorator';
import { runAs } from './common/audit/audit-context';
import { DEPENDENCY_RETRY_AFTER_S } from './common/errors/db-errors';
import { XLSX_TYPE } from './common/export/sheet-writers';
import { DomainException } from './common/errors/domain.exception';
import { createValidationPipe } from './common/validation/validation-pipe';
import { errorEnvelope } from './common/errors/error-envelope';
import { parseJsonBody } from './common/validation/json-body';
import { createRootLogger, PinoNestLogger } from './common/logging/logger';
import { lazyChildLogger } from './common/logging/request-logger';
import { AppConfig } from './config/config';
import { scimRoot, scimUrlRouter } from './scim/scim-url';
import { SettingsService } from './settings/settings.service';

export interface CreateAppOptions {
  /** Where JSON log lines go (default stdout); tests capture them here. */
  logDestination?: DestinationStream;
  /** Extra modules mounted in the application. */
  imports?: NonNullable<ModuleMetadata['imports']>;
  /**
   * Nest's own SIGTERM/SIGINT handling (default true). main.ts handles the signals itself: it stops
   * the listener first, then the application, and exits 0.
   */
  shutdownHooks?: boolean;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;
/**
 * Builds the HTTP application: Fastify, the /app/api prefix, body parsing and limits, the error
 * envelope for framework errors, request ids, the REST-enabled gate, CORS, security headers and
 * the OpenAPI document. Used by main.ts, the demo and the tests; the caller decides to listen.
 */
export async function createApp(config: AppConfig, opts: CreateAppOptions = {}): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config.logLevel, opts.logDestination);
  const scimUrl = scimUrlRouter(config.apiPrefix);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    childLoggerFactory: lazyChildLogger,
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy,
    rewriteUrl: (req: { url?: string }) => scimUrl(req.url ?? '/'),
    // Slow clients (issue 41): headers within HTTP_HEADERS_TIMEOUT (checked each second, not Node's
    // 30 s), an idle socket closed after HTTP_IDLE_TIMEOUT; bodies are SlowClients' (below).
    http: { headersTimeout: config.http.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    connectionTimeout: config.http.idleTimeoutMs,
    requestIdHeader: false,
    // No Nest middleware anywhere (hooks and guards instead): without @fastify/middie every request
    // skips its onRequest hook.
    skipMiddie: true,
    // While the listener closes, a request arriving on an open keep-alive connection is served
    // (with Connection: close), not refused with Fastify's bare 503 outside the error envelope.
    return503OnClosing: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const sent = req.headers['x-request-id'];
      return typeof sent === 'string' && REQUEST_ID_RE.test(sent) ? sent : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, opts.imports), adapter, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.setGlobalPrefix(config.apiPrefix);
  app.useGlobalPipes(createValidationPipe());
  if (opts.shutdownHooks !== false) app.enableShutdownHooks();

  const fastify = app.getHttpAdapter().getInstance();
  // Body-parser, not-found and other Fastify errors reach the global AllExceptionsFilter through
  // the error handler Nest installs, so they get the same envelope as everything else.
  registerBodyParsers(fastify, config);
  const settings = app.get(SettingsService);
  const headers = securityHeaders(config);
  fastify.addHook('onRequest', (request, reply, done) => {
    const documentation =
      (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[DOCUMENTATION_ROUTE] === true;
    void reply.headers(documentation ? headers.documentation : headers.api).header('X-Request-Id', request.id);
    restGate(config, settings, request, reply, done);
  });
  app.enableCors({
    origin: config.corsOrigins.includes('*') ? true : config.corsOrigins.length ? config.corsOrigins : false,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'If-Match'],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'WWW-Authenticate', 'ETag'],
    maxAge: 600,
  });

  // The audit log's context: each request's changes are recorded under its request id, as the
  // service until the access guard names the user. (preHandler: after the body is parsed, so the
  // handler and everything it awaits run inside it.)
  fastify.addHook('preHandler', (request, _reply, done) => runAs('system', request.id, done));
  new SlowClients({
    requestTimeoutMs: config.http.requestTimeoutMs,
    uploadMinBytesPerSec: config.http.uploadMinBytesPerSec,
    uploadWindowMs: config.http.uploadWindowMs,
  }).register(fastify);
  registerRequestMetrics(fastify, app.get(Metrics), config.apiPrefix);
  registerReadYourWrites(fastify, app.get(ReadReplicas));
  const handlers = new HandlersInFlight();
  handlers.register(fastify);
  HANDLERS.set(app, handlers);
  registerEnvelope(fastify);
  registerBodyEtags(fastify);
  registerDeepObjectFilters(fastify);
  registerExports(fastify, {
    dataSource: app.get(DataSource),
    authenticator: app.get<Authenticator>(AUTHENTICATOR),
    clock: app.get(CompanyClock),
  });
  // The documentation's routes answer as they are, with the headers of an HTML page: flag every route Swagger adds.
  let documentationRoutes = true;
  fastify.addHook('onRoute', (route) => {
    if (documentationRoutes)
      route.config = { ...(route.config as object), [RAW_RESPONSE]: true, [DOCUMENTATION_ROUTE]: true } as typeof route.config;
  });
  // Built at the first request for it (a third of a second at boot, for every process).
  // The document as its reader sees it: with a bearer token, the custom fields that user sees, typed.
  const patches = app.get(DocumentPatches);
  const authenticator = app.get<Authenticator>(AUTHENTICATOR);
  SwaggerModule.setup(`${config.apiPrefix}/docs`, app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: `${config.apiPrefix}/openapi.json`,
    yamlDocumentUrl: `${config.apiPrefix}/openapi.yaml`,
    useGlobalPrefix: false,
    patchDocumentOnRequest: async <TRequest>(req: TRequest, _res: unknown, document: OpenAPIObject) => {
      const token = /^Bearer\s+(\S+)$/i.exec((req as FastifyRequest).headers.authorization ?? '')?.[1];
      return patches.apply(document, token ? await authenticator.authenticate(token) : null);
    },
  });
  documentationRoutes = false;

  await app.init();
  await fastify.ready();
  return app;
}

/**
 * Every answered request in the metrics: its route template relative to the base ("/employees/:id",
 * never the URL: ids must not make series), "unmatched" for none, and its time until the response
 * was sent.
 */
function registerRequestMetrics(fastify: FastifyInstance, metrics: Metrics, prefix: string): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    const route = url === undefined ? 'unmatched' : url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url;
    metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** With read replicas: a user's successful write keeps its reads on the primary a few seconds (READ_YOUR_WRITES_MS). */
function registerReadYourWrites(fastify: FastifyInstance, replicas: ReadReplicas): void {
  if (!replicas.configured) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    const user = (request as { user?: { id?: unknown } }).user;
    if (!SAFE_METHODS.has(request.method) && reply.statusCode < 400 && typeof user?.id === 'number') replicas.markWrite(user.id);
    done();
  });
}
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const HANDLERS = new WeakMap<NestFastifyApplication, HandlersInFlight>();

/**
 * Waits, at most `timeoutMs`, for the route handlers still running (their clients may have gone
 * away); false when some were left. Between closing the listener and closing the application.
 */
export function handlersDone(app: NestFastifyApplication, timeoutMs: number): Promise<boolean> {
  return HANDLERS.get(app)?.idle(timeoutMs) ?? Promise.resolve(true);
}

export function buildOpenApiDocument(app: NestFastifyApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('HR service API')
    .setDescription(
      [
        `Every path is relative to the server \`${config.apiPrefix}\` (BASE_PATH + /app/api). Bodies are JSON.`,
        'Success: `{"status":"SUCCESS","data":...}`; lists add `total`, `page`, `limit`, `nextPage`.',
        'Errors: `{"status":"ERROR","error":{"code","message","details?"}}` with a stable `code`.',
        'Lists take `page` (1-based), `limit` (1-500, default 50), `sortField` (documented per endpoint), `sortOrder` (ascend|descend) and `filters[field]=value` (several values as `filters[field]=a,b`, any of them).',
        'Obtain a token with POST /oauth/token and send `Authorization: Bearer <token>`.',
        'While the setting "Enable Rest Api" is No, every route except /health/* answers 503 API_DISABLED.',
      ].join('\n\n'),
    )
    .setVersion(version)
    .addServer(config.apiPrefix, 'this installation: BASE_PATH + /app/api, on the host that serves the document')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Access token from POST /oauth/token' })
    .addSecurity('scim', {
      type: 'http',
      scheme: 'bearer',
      description: 'A SCIM token from POST /scim-tokens (good for /scim/v2 only)',
    })
    .addSecurity('metrics', { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN (GET /metrics only)' });
  // Each module declares its tags beside it (declareApiTag), in the order a reader meets them.
  for (const [name, description] of apiTags()) builder.addTag(name, description);
  // Paths relative to the server entry, so that a generated client fits any installation; an
  // operation id reads as a client method: EmployeesController.list → listEmployees.
  const document = SwaggerModule.createDocument(app, builder.build(), {
    ignoreGlobalPrefix: true,
    operationIdFactory: (controller, method) => `${method}${controller.replace(/Controller$/, '')}`,
  });
  const undeclared = Object.values(document.paths)
    .flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>))
    .flatMap((op) => op?.tags ?? [])
    .filter((tag) => !isApiTag(tag));
  if (undeclared.length)
    throw new Error(`operations tagged ${[...new Set(undeclared)].join(', ')}: declare each tag in its module (declareApiTag)`);
  return finishDocument(document);
}

const SCIM_JSON = 'application/scim+json';

function registerBodyParsers(fastify: FastifyInstance, config: AppConfig): void {
  fastify.removeAllContentTypeParsers();
  const scimRoutes = scimRoot(config.apiPrefix);
  fastify.addContentTypeParser(
    ['application/json', SCIM_JSON],
    { parseAs: 'string', bodyLimit: config.bodyLimit },
    (req, body, done) => {
      // application/scim+json (RFC 7644 §3.1) is JSON on the SCIM routes only.
      if (
        !(req.headers['content-type'] ?? '').startsWith('application/json') &&
        !(req.routeOptions.url ?? '').startsWith(scimRoutes)
      ) {
        return done(new DomainException('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json'), undefined);
      }
      const text = (body as string).trim();
      if (text === '') return done(null, undefined);
      try {
        done(null, parseJsonBody(text));
      } catch (err) {
        done(err as DomainException, undefined);
      }
    },
  );
  // A body other than JSON goes to a route that declares its type beside its handler (@BodyTypes):
  // the OAuth endpoints' form, the imports' file, the document uploads' multipart form.
  const refuse = (req: FastifyRequest, type: string): DomainException | null => {
    const { types, refusal } = bodyTypesOf(req);
    if (types.includes(type)) return null;
    return new DomainException('UNSUPPORTED_MEDIA_TYPE', refusal ?? 'Unsupported Content-Type: send application/json');
  };
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: config.bodyLimit },
    (req, body, done) => {
      const refused = refuse(req, 'application/x-www-form-urlencoded');
      if (refused) return done(refused, undefined);
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
  // A file to import, or a document's multipart form: handed over as the request's stream (the
  // module bounds its size while it reads it).
  fastify.addContentTypeParser(['text/csv', XLSX_TYPE, 'multipart/form-data'], (req, payload, done) => {
    const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    const refused = refuse(req, type);
    if (refused) return done(refused, undefined);
    done(null, payload);
  });
}

/**
 * The path as a router could understand it: percent-decoded (repeatedly, so %2561 is "a"), empty
 * and "." segments dropped, ".." applied, no trailing slash, no query string.
 */
export function normalizedPath(url: string): string {
  let path = url.split('?')[0];
  for (let i = 0; i < 3; i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      break;
    }
    if (decoded === path) break;
    path = decoded;
  }
  const segments: string[] = [];
  for (const segment of path.split(/[/\\]/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/**
 * Whether the gate applies: decided on the route the router matched, or for a request that matched
 * none on the normalized path, so "/app/%61pi/echo" or "/app/api//echo" are gated like "/app/api/echo".
 * The health probes and the metrics are the only exceptions.
 */
function underGate(prefix: string, request: FastifyRequest): boolean {
  const matched = request.routeOptions.url;
  const path = (matched ?? normalizedPath(request.url)).toLowerCase();
  const base = prefix.toLowerCase();
  if (path !== base && !path.startsWith(`${base}/`)) return false;
  return !path.startsWith(`${base}/health/`) && path !== `${base}/metrics`;
}

/**
 * docs/api/decisions.md §3: while "Enable Rest Api" is No, everything under the base answers 503 except the health
 * probes and the metrics (§24). Answered from the settings cache without a promise when it is fresh (every request but
 * one in SETTINGS_CACHE_MS); `done` lets the request through, a refusal is sent instead.
 */
function restGate(
  config: AppConfig,
  settings: SettingsService,
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
): void {
  if (request.method === 'OPTIONS' || !underGate(config.apiPrefix, request)) return done();
  const cached = settings.cachedRestEnabled();
  if (cached !== undefined) return gate(cached, reply, done);
  settings.isRestEnabled().then(
    (enabled) => gate(enabled, reply, done),
    (err: unknown) => {
      request.log.error({ err }, 'cannot read the REST API setting');
      void reply
        .status(503)
        .header('Retry-After', String(DEPENDENCY_RETRY_AFTER_S))
        .send(errorEnvelope('DEPENDENCY_UNAVAILABLE', 'The database is not reachable'));
    },
  );
}

function gate(enabled: boolean, reply: FastifyReply, done: () => void): void {
  if (enabled) return done();
  void reply
    .status(503)
    .send(
      errorEnvelope(
        'API_DISABLED',
        'The REST API is disabled. An administrator enables it under Settings -> Other -> Enable Rest Api, ' +
          'or with the command line: hr settings:set "Enable Rest Api" Yes',
      ),
    );
}
