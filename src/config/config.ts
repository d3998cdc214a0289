import { availableParallelism } from 'node:os';
import { ConfigReader, Env, parseByteSize } from './config-reader';

export { parseByteSize, parseDuration } from './config-reader';

/**
 * Typed configuration. This is the only module that reads process.env (through loadConfig's
 * argument): everything else receives an AppConfig. The platform's variables are read here; each
 * module declares its own namespace in its `<module>.config.ts` (declareConfig, ModuleConfig).
 * Invalid values fail at boot with one line per bad variable, naming it.
 */

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** SQLITE_CACHE_MB's default: SQLite's own page cache, about 2 MiB. */
export const SQLITE_CACHE_MB = 2;

export type DatabaseConfig =
  /**
   * ':memory:' for an in-memory database; `snapshot` (never from the environment): an in-memory
   * database starts as a copy of these bytes (a serialized SQLite database, the tests' migrated one).
   */
  | {
      type: 'sqlite';
      path: string;
      snapshot?: Buffer;
      /** SQLITE_CACHE_MB: the connection's page cache (SQLite's own default is 2 MiB). */
      cacheMb?: number;
    }
  | { type: 'mysql'; url: string };

/** The kinds of document file the service can recognise by their bytes (never HTML or SVG: they run script in a browser). */
export interface S3Settings {
  bucket: string;
  /** Key prefix, '' or ending in '/'. */
  prefix: string;
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  /** From AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN; null: the SDK's own chain (instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } | null;
}

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** OIDC_ALLOW_HTTP=true: an http:// issuer (a provider on loopback in tests); https otherwise. */
  allowHttp: boolean;
}

/** MariaDB/MySQL read replicas (docs/api/decisions.md §24). */
export interface ReplicaSettings {
  /** DATABASE_READ_URLS: mysql:// URLs of replicas of DATABASE_URL's database. */
  urls: string[];
  /** A replica further behind than this (READ_REPLICA_MAX_LAG_S), or not replicating, is skipped. */
  maxLagSec: number;
  /** A caller's reads go to the primary this long after it wrote (READ_YOUR_WRITES_MS). */
  readYourWritesMs: number;
  /** How often each replica's state is read (READ_REPLICA_CHECK_MS). */
  checkMs: number;
}

/** Prometheus metrics (docs/api/decisions.md §24). */
export interface MetricsSettings {
  /** METRICS_TOKEN: a bearer that may read /metrics from anywhere; null: loopback only. */
  token: string | null;
  /** The worker's metrics listener (WORKER_METRICS_PORT, default 9464; 0 any free port; null: off). */
  workerPort: number | null;
  /** WORKER_METRICS_PORT was not set: a second worker on the host, finding 9464 taken, takes any free port. */
  workerPortDefault: boolean;
  /** Where the worker's listener binds (WORKER_METRICS_HOST, loopback by default). */
  workerHost: string;
}

/** The platform's configuration; modules add their namespaces (ModuleConfig, declareConfig). */
export interface PlatformConfig {
  port: number;
  /** HTTP processes sharing the port (node:cluster); API_PROCESSES=auto = the number of cores. */
  apiProcesses: number;
  host: string;
  /** Installation sub-path, '' or '/hr'. */
  basePath: string;
  /** basePath + '/app/api': the root of every route. */
  apiPrefix: string;
  database: DatabaseConfig;
  migrationsRun: boolean;
  redisUrl: string | null;
  /** Prefix of every Bull key in Redis, so several installations (or CI) can share one Redis. */
  queuePrefix: string;
  /** Whether this process consumes jobs (the API does unless QUEUE_CONSUMER=false; the worker always). */
  queueConsumer: boolean;
  /**
   * Bull's job lock (renewed at half this while the job runs) and how often a consumer looks for
   * jobs whose lock expired (their worker died) to run them again.
   */
  queueLockMs: number;
  queueStalledCheckMs: number;
  /** Times a job's process may die while running it before the job fails (JOB_MAX_WORKER_DEATHS). */
  jobMaxDeaths: number;
  /** The worker serves the queue dashboard on 127.0.0.1 at this port; null (unset) = no dashboard, 0 = any free port. */
  queueDashboardPort: number | null;
  smtpUrl: string | null;
  mailFrom: string;
  mailStatusWaitMs: number;
  /** First retry delay of a failed e-mail; doubles each attempt (5 attempts). */
  /** E-mail jobs one process sends at once (MAIL_CONCURRENCY): each waits on the SMTP server, not on the CPU. */
  mailConcurrency: number;
  mailRetryBackoffMs: number;
  publicUrl: string;
  accessTokenTtlSec: number;
  refreshTokenTtlSec: number;
  corsOrigins: string[];
  /** OpenID Connect sign-in (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: all three or none); null: off. */
  oidc: OidcSettings | null;
  bodyLimit: number;
  logLevel: LogLevel;
  /**
   * Which proxies' X-Forwarded-For to believe: false (none), a hop count, or proxy addresses/CIDRs
   * (Fastify's trustProxy). Never "every hop": a client could then name any address it likes.
   */
  trustProxy: false | number | string[];
  /** How long clients may take to send (issue 41): slow ones are cut before they exhaust the process. */
  http: {
    /** The request line and headers (HTTP_HEADERS_TIMEOUT). */
    headersTimeoutMs: number;
    /** A JSON or form body (HTTP_REQUEST_TIMEOUT). */
    requestTimeoutMs: number;
    /** A file's body: at least this many bytes a second (HTTP_UPLOAD_MIN_RATE)... */
    uploadMinBytesPerSec: number;
    /** ...over each window of this (HTTP_UPLOAD_RATE_WINDOW). */
    uploadWindowMs: number;
    /** A connection with no traffic either way (HTTP_IDLE_TIMEOUT); above the notification stream's heartbeat. */
    idleTimeoutMs: number;
  };
  metrics: MetricsSettings;
  replicas: ReplicaSettings;
  /** How long the REST-enabled setting is cached in each process. */
  settingsCacheMs: number;
  /** How long a validated access token is cached in each process. */
  tokenCacheMs: number;
  loginRateLimit: { perAddress: number; perUsername: number; windowSec: number };
  /**
   * log2 of scrypt's cost N for new password hashes (PASSWORD_SCRYPT_COST, 15 by default: about
   * 0.3 s of CPU per hash on the development machine; at least 14 in production, see docs/operations.md). Hashes made
   * with another cost still verify and are re-hashed at the next sign-in.
   */
  passwordScryptCost: number;
  /**
   * Password hashes at once in one process (PASSWORD_HASH_CONCURRENCY; by default the machine's cores
   * shared among the API processes, at most 2: half of libuv's threads, at least 1) and waiting for
   * a turn (PASSWORD_HASH_QUEUE, 32): past them a sign-in answers 503 SIGN_IN_BUSY.
   */
  passwordHashConcurrency: number;
  passwordHashQueue: number;
  /** How long the employee list's `total` is reused for the same scope, filters and search (0: counted on every request). */
  listTotalsCacheMs: number;
  /** Where stored files live (FILE_STORAGE): local disk, or an S3-compatible bucket. */
  fileStorage: { type: 'local'; dir: string } | ({ type: 's3' } & S3Settings);
  /** Payslip PDFs (issue 29): the system's Chromium and qpdf; where they are missing, no PDFs. */
  pdf: {
    /** CHROMIUM_PATH, else the Debian package's /usr/bin/chromium (it may not exist). */
    chromiumPath: string;
    /** Pages one process renders at once (PDF_PAGES). */
    pages: number;
    /** One page's render, from its HTML to its PDF (PDF_TIMEOUT_MS). */
    timeoutMs: number;
    /** QPDF_PATH, else /usr/bin/qpdf: encrypts PDFs when the password setting asks for it. */
    qpdfPath: string;
    /** PDF_SANDBOX: Chromium's sandbox, auto (unless root), on or off. */
    sandbox: 'auto' | 'on' | 'off';
  };
  /** POST /users/me/password attempts per user and window. */
  passwordChangeRateLimit: { perUser: number; windowSec: number };
  /** The outbox relay (issue 42): hands each new event to every subscriber (notifications, tasks, webhooks). */
  outbox: {
    /** How often a consuming process runs the relay, once across all processes (OUTBOX_RELAY_MS). */
    relayMs: number;
    /** Events per subscriber and transaction (OUTBOX_RELAY_BATCH). */
    batch: number;
  };
}

/**
 * What modules add to the configuration, each under its own key, by declaration merging in their
 * `<module>.config.ts` (`declare module '../config/config' { interface ModuleConfig { ... } }`),
 * beside the loader they declare with declareConfig.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ModuleConfig {}

export type AppConfig = PlatformConfig & ModuleConfig;

const loaders = new Map<string, (read: ConfigReader) => unknown>();

/**
 * Declares a module's namespace (when its `<module>.config.ts` loads): `load` reads its variables
 * with `read`, whose problems fail the start beside the platform's, each naming its variable.
 */
export function declareConfig<K extends keyof ModuleConfig>(key: K, load: (read: ConfigReader) => ModuleConfig[K]): void {
  if (loaders.has(key) && loaders.get(key) !== load) throw new Error(`configuration ${key} is declared twice`);
  loaders.set(key, load);
}

function moduleConfigs(read: ConfigReader): ModuleConfig {
  return Object.fromEntries([...loaders].map(([key, load]) => [key, load(read)])) as unknown as ModuleConfig;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function parseDatabaseUrl(value: string): DatabaseConfig | null {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\//, '');
    if (!path) return null;
    return { type: 'sqlite', path };
  }
  if (/^(mysql|mariadb):\/\/[^/]+\/[A-Za-z0-9_$-]+/.test(value)) {
    return { type: 'mysql', url: value.replace(/^mariadb:/, 'mysql:') };
  }
  return null;
}

const IPV4_CIDR = /^(\d{1,3})(\.\d{1,3}){3}(\/\d{1,2})?$/;
const IPV6_CIDR = /^[0-9a-f:]+(:\d{1,3}(\.\d{1,3}){3})?(\/\d{1,3})?$/i;

/**
 * TRUST_PROXY: unset/false → trust nobody; a number → that many proxy hops; a comma-separated list
 * of addresses or CIDRs (loopback, 10.0.0.0/8, ...). Returns a message (string) when invalid.
 */
export function parseTrustProxy(raw: string | undefined): false | number | string[] | string {
  if (raw === undefined || /^(false|0|no)$/i.test(raw)) return false;
  if (/^(true|yes)$/i.test(raw)) {
    return 'true would trust every hop, so a client could name any address in X-Forwarded-For; give the number of proxies in front of the service (1) or their addresses/CIDRs';
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    return hops >= 1 && hops <= 10 ? hops : `must be a hop count from 1 to 10, got "${raw}"`;
  }
  const list = raw
    .split(',')
    .map((a) => a.trim())
    .filter(Boolean);
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  const bad = list.filter((a) => !named.includes(a) && !IPV4_CIDR.test(a) && !IPV6_CIDR.test(a));
  return bad.length ? `not an address or CIDR: ${bad.join(', ')}` : list;
}

/**
 * Hashes at once per process unless PASSWORD_HASH_CONCURRENCY says: the machine's cores shared
 * among the API processes, at most 2 (half of libuv's threads) and at least 1. Each process has its
 * own gate, so two processes with 2 each on two cores ran four hashes at once during a sign-in
 * flood, and the reads' p99 went to 2-6× idle (docs/performance.md, "Sign-ins at their real cost").
 */
export function defaultHashConcurrency(apiProcesses: number, cores = availableParallelism()): number {
  return Math.max(1, Math.min(2, Math.floor(cores / apiProcesses)));
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: Env): AppConfig {
  const read = new ConfigReader(env);
  const { get, int, bool, duration, url, size, oneOf } = read;
  const problems = read.problems;

  const basePath = (get('BASE_PATH') ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(basePath)) {
    problems.push(`BASE_PATH: must be empty or a path such as /hr, got "${basePath}"`);
  }

  const dbRaw = get('DATABASE_URL') ?? 'sqlite:./data/hr.sqlite';
  const database = parseDatabaseUrl(dbRaw);
  if (!database) {
    problems.push('DATABASE_URL: must be sqlite:<file>, sqlite::memory: or mysql://user:pass@host:3306/db');
  }
  // Imports raise it while they run (common/database/sqlite-cache.ts).
  if (database?.type === 'sqlite') database.cacheMb = int('SQLITE_CACHE_MB', SQLITE_CACHE_MB, 2, 4096);

  const bodyRaw = get('BODY_LIMIT') ?? '1mb';
  const bodyLimit = parseByteSize(bodyRaw);
  if (bodyLimit === null) problems.push(`BODY_LIMIT: must be a size such as 1048576, 512kb or 1mb, got "${bodyRaw}"`);

  const fileStorage = (): AppConfig['fileStorage'] => {
    const raw = get('FILE_STORAGE') ?? 'local:./data/files';
    if (raw.startsWith('local:') && raw.length > 'local:'.length) return { type: 'local', dir: raw.slice('local:'.length) };
    const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(raw);
    if (!m) {
      problems.push(`FILE_STORAGE: must be local:<directory> or s3://<bucket>[/<prefix>], got "${raw}"`);
      return { type: 'local', dir: './data/files' };
    }
    const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
    const accessKeyId = get('AWS_ACCESS_KEY_ID');
    const secretAccessKey = get('AWS_SECRET_ACCESS_KEY');
    if (!accessKeyId !== !secretAccessKey) problems.push('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither');
    const sessionToken = get('AWS_SESSION_TOKEN');
    return {
      type: 's3',
      bucket: m[1],
      prefix: prefix ? `${prefix}/` : '',
      endpoint: url('S3_ENDPOINT', ['http:', 'https:']),
      region: get('S3_REGION') ?? get('AWS_REGION') ?? 'us-east-1',
      forcePathStyle: bool('S3_FORCE_PATH_STYLE', false),
      credentials:
        accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) } : null,
    };
  };

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL: must be one of ${LOG_LEVELS.join(', ')}`);

  const corsOrigins = (get('CORS_ORIGINS') ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      problems.push(`CORS_ORIGINS: "${origin}" is not an origin such as https://hr.example.com`);
    }
  }

  const oidc = (): OidcSettings | null => {
    const allowHttp = bool('OIDC_ALLOW_HTTP', false);
    const issuer = url('OIDC_ISSUER', allowHttp ? ['https:', 'http:'] : ['https:']);
    const clientId = get('OIDC_CLIENT_ID');
    const clientSecret = get('OIDC_CLIENT_SECRET');
    const given = [get('OIDC_ISSUER'), clientId, clientSecret].filter((v) => v !== undefined).length;
    if (given > 0 && given < 3) problems.push('OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three or none');
    return issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, allowHttp } : null;
  };

  const metrics = (): MetricsSettings => {
    const token = get('METRICS_TOKEN') ?? null;
    if (token !== null && !/^[\x21-\x7e]{16,}$/.test(token))
      problems.push('METRICS_TOKEN: at least 16 printable characters, no spaces');
    const off = get('WORKER_METRICS_PORT')?.toLowerCase() === 'off';
    return {
      token,
      workerPort: off ? null : int('WORKER_METRICS_PORT', 9464, 0, 65535),
      workerPortDefault: get('WORKER_METRICS_PORT') === undefined,
      workerHost: get('WORKER_METRICS_HOST') ?? '127.0.0.1',
    };
  };

  const replicas = (): ReplicaSettings => {
    const urls = (get('DATABASE_READ_URLS') ?? '')
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    for (const u of urls)
      if (parseDatabaseUrl(u)?.type !== 'mysql')
        problems.push(`DATABASE_READ_URLS: "${u.replace(/\/\/[^@]*@/, '//…@')}" is not a mysql:// URL`);
    if (urls.length && database?.type !== 'mysql')
      problems.push('DATABASE_READ_URLS: replicas need DATABASE_URL to be MariaDB/MySQL');
    return {
      urls,
      maxLagSec: int('READ_REPLICA_MAX_LAG_S', 5, 0, 3600),
      readYourWritesMs: int('READ_YOUR_WRITES_MS', 5000, 0, 600_000),
      checkMs: int('READ_REPLICA_CHECK_MS', 1000, 100, 600_000),
    };
  };

  const trustProxy = parseTrustProxy(get('TRUST_PROXY'));
  if (typeof trustProxy === 'string') problems.push(`TRUST_PROXY: ${trustProxy}`);

  const port = int('PORT', 3000, 0, 65535);
  const apiProcesses = get('API_PROCESSES')?.toLowerCase() === 'auto' ? availableParallelism() : int('API_PROCESSES', 1, 1, 64);
  const host = get('HOST') ?? '127.0.0.1';
  const queuePrefix = get('QUEUE_PREFIX') ?? 'hr';
  if (!/^[A-Za-z0-9_:-]{1,64}$/.test(queuePrefix)) problems.push('QUEUE_PREFIX: letters, digits, _ : - only');

  const mailFrom = get('MAIL_FROM') ?? 'HR <no-reply@localhost>';
  const publicUrl = (get('PUBLIC_URL') ?? `http://${host}:${port}${basePath}`).replace(/\/+$/, '');

  const config = {
    port,
    apiProcesses,
    host,
    basePath,
    apiPrefix: `${basePath}/app/api`,
    database: database ?? { type: 'sqlite', path: ':memory:' },
    migrationsRun: bool('MIGRATIONS_RUN', true),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    queuePrefix,
    queueConsumer: bool('QUEUE_CONSUMER', true),
    queueLockMs: int('QUEUE_LOCK_MS', 30_000, 1000, 600_000),
    queueStalledCheckMs: int('QUEUE_STALLED_CHECK_MS', 30_000, 500, 600_000),
    jobMaxDeaths: int('JOB_MAX_WORKER_DEATHS', 2, 1, 100),
    queueDashboardPort: get('QUEUE_DASHBOARD_PORT') === undefined ? null : int('QUEUE_DASHBOARD_PORT', 0, 0, 65535),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom,
    mailStatusWaitMs: int('MAIL_STATUS_WAIT_MS', 10_000, 0, 120_000),
    mailConcurrency: int('MAIL_CONCURRENCY', 16, 1, 100),
    mailRetryBackoffMs: int('MAIL_RETRY_BACKOFF_MS', 30_000, 10, 3_600_000),
    publicUrl,
    accessTokenTtlSec: duration('ACCESS_TOKEN_TTL', '1h'),
    refreshTokenTtlSec: duration('REFRESH_TOKEN_TTL', '30d'),
    corsOrigins,
    oidc: oidc(),
    bodyLimit: bodyLimit ?? 1024 * 1024,
    logLevel,
    trustProxy: typeof trustProxy === 'string' ? false : trustProxy,
    http: {
      headersTimeoutMs: duration('HTTP_HEADERS_TIMEOUT', '15s') * 1000,
      requestTimeoutMs: duration('HTTP_REQUEST_TIMEOUT', '30s') * 1000,
      uploadMinBytesPerSec: size('HTTP_UPLOAD_MIN_RATE', '10kb'),
      uploadWindowMs: duration('HTTP_UPLOAD_RATE_WINDOW', '10s') * 1000,
      idleTimeoutMs: duration('HTTP_IDLE_TIMEOUT', '2m') * 1000,
    },
    metrics: metrics(),
    replicas: replicas(),
    settingsCacheMs: int('SETTINGS_CACHE_MS', 2000, 0, 5000),
    tokenCacheMs: int('TOKEN_CACHE_MS', 2000, 0, 5000),
    loginRateLimit: {
      perAddress: int('LOGIN_RATE_LIMIT_PER_ADDRESS', 30, 1, 100_000),
      perUsername: int('LOGIN_RATE_LIMIT_PER_USERNAME', 10, 1, 100_000),
      windowSec: duration('LOGIN_RATE_LIMIT_WINDOW', '1m'),
    },
    passwordScryptCost: int('PASSWORD_SCRYPT_COST', 15, 10, 20),
    passwordHashConcurrency: int('PASSWORD_HASH_CONCURRENCY', defaultHashConcurrency(apiProcesses), 1, 64),
    passwordHashQueue: int('PASSWORD_HASH_QUEUE', 32, 0, 10_000),
    listTotalsCacheMs: int('LIST_TOTALS_CACHE_MS', 5_000, 0, 600_000),
    fileStorage: fileStorage(),
    pdf: {
      chromiumPath: get('CHROMIUM_PATH') ?? '/usr/bin/chromium',
      pages: int('PDF_PAGES', 2, 1, 16),
      timeoutMs: int('PDF_TIMEOUT_MS', 15_000, 1000, 120_000),
      qpdfPath: get('QPDF_PATH') ?? '/usr/bin/qpdf',
      sandbox: oneOf('PDF_SANDBOX', ['auto', 'on', 'off'] as const, 'auto'),
    },
    passwordChangeRateLimit: {
      perUser: int('PASSWORD_CHANGE_RATE_LIMIT', 5, 1, 100_000),
      windowSec: duration('PASSWORD_CHANGE_RATE_LIMIT_WINDOW', '15m'),
    },
    outbox: {
      relayMs: int('OUTBOX_RELAY_MS', 250, 10, 600_000),
      batch: int('OUTBOX_RELAY_BATCH', 500, 1, 5000),
    },
    ...moduleConfigs(read),
  } as AppConfig;
  if (problems.length) throw new ConfigError(problems);
  return config;
}
