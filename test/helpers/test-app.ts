import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { JobDefinition, QueueName, RetryPolicy } from '../../src/common/queue/queue.constants';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { buildOpenApiDocument, createApp, CreateAppOptions } from '../../src/app.factory';
import { TokenService } from '../../src/auth/token.service';
import { AppConfig, loadConfig } from '../../src/config/config';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { SettingsService } from '../../src/settings/settings.service';
import { UserLevel } from '../../src/common/auth/user-level';
import { User } from '../../src/users/entities/user.entity';
import { UsersService } from '../../src/users/users.service';
import { ContractCheck } from './contract';
import { createDatabases, resetToMigrated, workerDatabaseUrl } from './mysql-baseline';
import { writeWhole } from './write-whole';
import { SOURCES_STAMP } from './sources-stamp';
import { itIf } from './skip';
import { scaled } from './time-scale';

/** True under `npm run test:integration`: suites use DATABASE_URL / REDIS_URL from the environment. */
export const INTEGRATION = process.env.HR_TEST_INTEGRATION === '1';

/**
 * Integration suites run in parallel jest workers, each on a database of its own: DATABASE_URL's
 * name with `_w<worker>` appended (created when first used; `.ci/run` drops them at the end). Set
 * here, once per worker process, so a suite that reads process.env.DATABASE_URL (the CLI's, a
 * spawned server's) gets its worker's database too.
 */
if (INTEGRATION && process.env.DATABASE_URL && !process.env.HR_TEST_BASE_DATABASE_URL) {
  const base = process.env.DATABASE_URL;
  process.env.HR_TEST_BASE_DATABASE_URL = base;
  process.env.DATABASE_URL = workerDatabaseUrl(base, process.env.JEST_WORKER_ID ?? '1');
}
/**
 * Creates this worker's database before the file's suites run (a connection to DATABASE_URL's own
 * database to do it); test/helpers/integration-setup.ts has made and migrated it already unless the
 * worker's number is beyond the run's --maxWorkers.
 */
if (process.env.HR_TEST_BASE_DATABASE_URL) {
  const base = process.env.HR_TEST_BASE_DATABASE_URL;
  beforeAll(() => createDatabases(base, [process.env.DATABASE_URL!]));
}

let apps = 0;
/** This test file's load: a fresh module registry per file. */
const RUN = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

/**
 * The migrated embedded database, serialized: made once per jest run and sources (a file shared by
 * the workers and files), so that each of the suites' ~230 apps starts from a copy instead of
 * running the 48 migrations (a fifth of a second each). An app whose test names its own
 * DATABASE_URL gets none.
 */
async function migratedSnapshot(): Promise<Buffer> {
  const key = createHash('sha1').update(SOURCES_STAMP).digest('hex').slice(0, 16);
  const file = join(tmpdir(), `hr-test-sqlite-${process.ppid}`, `${key}.db`);
  try {
    return readFileSync(file);
  } catch {
    const ds = await new DataSource(dataSourceOptions({ type: 'sqlite', path: ':memory:' })).initialize();
    try {
      await runMigrations(ds);
      const bytes = (ds.driver as unknown as { databaseConnection: { serialize(): Buffer } }).databaseConnection.serialize();
      mkdirSync(dirname(file), { recursive: true });
      writeWhole(file, bytes);
      return bytes;
    } finally {
      await ds.destroy();
    }
  }
}

/** Test configuration: SQLite in memory and the in-process job runner, or the integration servers. */
export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  const env: Record<string, string | undefined> = {
    DATABASE_URL: 'sqlite::memory:',
    LOG_LEVEL: 'info',
    SETTINGS_CACHE_MS: '200',
    // scrypt at N=2^10 rather than 2^15: the suites hash and verify thousands of passwords, which at
    // the default took most of npm test's CPU. hardening.e2e-spec checks the default and the upgrade.
    PASSWORD_SCRYPT_COST: '10',
    // Stored files and the imports' local copies: never in the checkout's ./data.
    FILE_STORAGE: `local:${join(tmpdir(), `hr-test-files-${RUN}`)}`,
    IMPORT_DIR: join(tmpdir(), `hr-test-imports-${RUN}`),
  };
  if (INTEGRATION) {
    env.DATABASE_URL = process.env.DATABASE_URL;
    env.REDIS_URL = process.env.REDIS_URL;
    // Each app its own keys under the run's prefix: a job left over by one suite (a retry) is never
    // consumed by the next suite's app against a reset database, and rate-limit counters are not
    // shared. Unique across suites: jest loads this module afresh for every test file, so the
    // counter alone restarts at 1 in each (every suite's first app shared `:t1`).
    env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'hr'}:t${RUN}-${++apps}`;
  }
  return loadConfig({ ...env, ...overrides });
}

/** Drops every table of an integration database: for a suite that runs the migrations itself. */
export async function resetDatabase(config: AppConfig): Promise<void> {
  await onIntegrationDatabase(config, (ds) => ds.dropDatabase());
}

/** Puts an integration database back at the migrated state (test/helpers/mysql-baseline.ts): where each app starts. */
function migratedDatabase(config: AppConfig): Promise<void> {
  return onIntegrationDatabase(config, (ds) => resetToMigrated(ds, SOURCES_STAMP));
}

async function onIntegrationDatabase(config: AppConfig, fn: (ds: DataSource) => Promise<void>): Promise<void> {
  if (config.database.type !== 'mysql') return;
  const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
  try {
    await fn(ds);
  } finally {
    await ds.destroy();
  }
}

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  /** Every JSON log line the app wrote. */
  logs: string[];
  close(): Promise<void>;
}

export async function createTestApp(
  overrides: Record<string, string> = {},
  opts: {
    enableApi?: boolean;
    keepDatabase?: boolean;
    imports?: CreateAppOptions['imports'];
    /** The embedded database's bytes to start from (test/helpers/demo-app.ts), instead of the migrated one. */
    database?: Buffer;
  } = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  if (!opts.keepDatabase) await migratedDatabase(config);
  if (config.database.type === 'sqlite' && config.database.path === ':memory:' && overrides.DATABASE_URL === undefined)
    config.database.snapshot = opts.database ?? (await migratedSnapshot());
  const logs: string[] = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(chunk.toString());
      cb();
    },
  });
  const app = await createApp(config, { logDestination, imports: opts.imports });
  checkResponses(app, config, opts.imports !== undefined);
  if (opts.enableApi !== false) await app.get(SettingsService).set('Enable Rest Api', 'Yes');
  return { app, config, logs, close: () => app.close() };
}

/**
 * The contract check of the app's OpenAPI document, one per configuration in a test file (parsing
 * the document and handing it to ajv cost a fifth of a second, and some files create a dozen apps;
 * the validators ajv compiles are kept with it). The document itself is built once in a jest run
 * and shared by its files and workers through a file (building it takes most of a second). Keyed
 * by the run (the workers' parent), the sources' newest change and the configuration but its
 * per-app paths; an app with test-only modules gets its own, uncached.
 */
const contracts = new Map<string, ContractCheck>();
function contractOf(app: NestFastifyApplication, config: AppConfig, custom: boolean): ContractCheck {
  if (custom) return new ContractCheck(buildOpenApiDocument(app, config) as never);
  const shape = JSON.stringify(config, (k, v: unknown) => (['dir', 'queuePrefix', 'snapshot'].includes(k) ? undefined : v));
  const key = createHash('sha1').update(`${SOURCES_STAMP}|${shape}`).digest('hex').slice(0, 16);
  const known = contracts.get(key);
  if (known) return known;
  const dir = join(tmpdir(), `hr-test-openapi-${process.ppid}`);
  const file = join(dir, `${key}.json`);
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    doc = buildOpenApiDocument(app, config);
    mkdirSync(dir, { recursive: true });
    writeWhole(file, JSON.stringify(doc));
  }
  const check = new ContractCheck(doc as never);
  contracts.set(key, check);
  return check;
}

/** Responses of this test file that did not match the document, reported by the test that made them. */
const mismatches: string[] = [];
let responsesChecked = 0;

/**
 * Every response an app of the suites answers through `app.inject` is checked against the
 * app's own OpenAPI document (ContractCheck): a mismatch fails the test that made the request.
 * Set in the shared helper, so that no suite can leave it out.
 */
function checkResponses(app: NestFastifyApplication, config: AppConfig, custom: boolean): void {
  let contract: ContractCheck | null = null;
  type Inject = (opts: Parameters<NestFastifyApplication['inject']>[0]) => Promise<{
    statusCode: number;
    headers: Record<string, unknown>;
    body: string;
  }>;
  // The application is a proxy; its inject() calls the Fastify adapter's, which is patched.
  const adapter = app.getHttpAdapter() as unknown as { inject: Inject };
  const inject = adapter.inject.bind(adapter);
  const checked: Inject = async (opts) => {
    const res = await inject(opts);
    const request = typeof opts === 'string' ? { method: 'GET', url: opts } : (opts as { method?: string; url?: string });
    contract ??= contractOf(app, config, custom);
    const before = contract.checked;
    mismatches.push(...contract.problems(request.method ?? 'GET', request.url ?? '/', res.statusCode, res.headers, res.body));
    responsesChecked += contract.checked - before;
    return res;
  };
  adapter.inject = checked;
}

afterEach(() => {
  const found = mismatches.splice(0);
  if (found.length) throw new Error(`responses that do not match the OpenAPI document:\n${[...new Set(found)].join('\n')}`);
});

afterAll(() => {
  // CONTRACT_COUNT_FILE=path: each test file appends how many responses it had checked.
  if (process.env.CONTRACT_COUNT_FILE) appendFileSync(process.env.CONTRACT_COUNT_FILE, `${responsesChecked}\n`);
});

let counter = 0;

export interface TestUser {
  user: User;
  password: string;
  token: string;
}

/** A user of the given level with a fresh access token. */
export async function createUser(
  app: NestFastifyApplication,
  level: UserLevel,
  opts: { employeeId?: number; mustChangePassword?: boolean; username?: string } = {},
): Promise<TestUser> {
  counter += 1;
  const username = opts.username ?? `${level.replace(' ', '').toLowerCase()}${counter}`;
  const password = `pw-${username}-Secret1`;
  const user = await app.get(UsersService).create({
    username,
    email: `${username}@test.example`,
    password,
    level,
    employeeId: opts.employeeId ?? null,
    mustChangePassword: opts.mustChangePassword,
  });
  const token = (await app.get(TokenService).issue(user)).access_token;
  return { user, password, token };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Captures what a CLI command prints, for runCli(argv, io, env). */
export function captureIo() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** `call(method, '/employees', token, body)` against {base}/app/api with a bearer token. */
export function apiCaller(app: NestFastifyApplication) {
  return (method: Method, url: string, token: string, payload?: object) =>
    app.inject({ method, url: `/app/api${url}`, headers: bearer(token), payload });
}

/**
 * Like apiCaller, but expects 200 and returns the envelope's `data`; a failure shows the URL and the
 * error body.
 */
export function okCaller(app: NestFastifyApplication) {
  const call = apiCaller(app);
  return async (method: Method, url: string, token: string, payload?: object) => {
    const res = await call(method, url, token, payload);
    expect({ url, status: res.statusCode, body: res.statusCode === 200 ? null : res.json() }).toEqual({
      url,
      status: 200,
      body: null,
    });
    return res.json().data;
  };
}

export { writeWhole } from './write-whole';
export { SOURCES_STAMP } from './sources-stamp';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it holds; returns the milliseconds waited, throws after `limit` times HR_TEST_TIME_SCALE. */
export async function until(fn: () => boolean | Promise<boolean>, limit: number): Promise<number> {
  const ms = scaled(limit);
  const start = Date.now();
  while (!(await fn())) {
    if (Date.now() - start > ms) throw new Error(`condition not met within ${ms} ms`);
    await sleep(25);
  }
  return Date.now() - start;
}

/**
 * A job a test registers and adds for itself: a plain definition, not defineJob's, which the
 * application's JobQueue would then require a handler for in every later app of the suite.
 */
export function testJob<T>(queue: QueueName, name: string, retry?: RetryPolicy): JobDefinition<T> {
  return { queue, name, retry };
}

/** Processes a payroll through the API and waits until it leaves Processing: it must end Processed. */
export async function processPayroll(app: NestFastifyApplication, token: string, id: number): Promise<void> {
  const ok = okCaller(app);
  await ok('POST', `/payroll_config/payrolls/${id}/process`, token);
  await until(async () => (await ok('GET', `/payroll_config/payrolls/${id}`, token)).status !== 'Processing', 10_000);
  const { status, error } = await ok('GET', `/payroll_config/payrolls/${id}`, token);
  // A failed run names its error and its first cell errors in the test's failure.
  const errors = status === 'Processed' ? [] : await ok('GET', `/payroll_config/payrolls/${id}/errors?limit=5`, token);
  expect({ status, error, errors }).toEqual({ status: 'Processed', error: null, errors: [] });
}

/**
 * Tests that time the event loop's pauses run under `npm run test:timing` (HR_TEST_TIMING=1, one
 * suite at a time, a step of .ci/run), not in npm test, whose three workers share two cores: a
 * pause measured on the wall clock there is the scheduler's as much as ours (a 6 000-row import
 * "paused" 370 ms beside the other workers, and under the test's 200 ms alone).
 */
const TIMING = process.env.HR_TEST_TIMING === '1' && !INTEGRATION;
const itTimedOrSkipped = itIf(TIMING, 'one suite at a time on the embedded database: npm run test:timing, a step of .ci/run');
/** Named `... [timed]` under test:timing, whose `-t '\[timed\]'` runs these alone of their files. */
export const itTimed: typeof itTimedOrSkipped = (name, fn, timeout) =>
  itTimedOrSkipped(TIMING ? `${name} [timed]` : name, fn, timeout);

/**
 * Runs `work` and measures the longest the event loop went without a turn meanwhile (a 1 ms timer's
 * gaps, and the gap to the end: a loop blocked throughout never ticks). Milliseconds. With
 * --expose-gc (npm run test:timing) the garbage of the suite so far is collected first: a full
 * collection of it was most of a 410 ms "pause" in a 6 000-row import, and it is the test
 * process's, not the work's.
 */
export async function longestPause<T>(work: () => Promise<T>): Promise<{ result: T; longest: number; took: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  let longest = 0;
  let last = performance.now();
  const started = last;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    const result = await work();
    longest = Math.max(longest, performance.now() - last);
    return { result, longest, took: performance.now() - started };
  } finally {
    clearInterval(timer);
  }
}

/** The outbox's events of these names (oldest first), their payloads parsed: what the relay hands its subscribers. */
export async function outboxEvents(
  app: NestFastifyApplication,
  ...names: string[]
): Promise<Array<{ event: string; data: unknown }>> {
  const rows = await app
    .get(DataSource)
    .query<Array<{ event: string; payload: string }>>(
      `SELECT event, payload FROM outbox_events WHERE event IN (${names.map(() => '?').join(', ')}) ORDER BY id`,
      names,
    );
  return rows.map((r) => ({ event: r.event, data: JSON.parse(r.payload) as unknown }));
}
