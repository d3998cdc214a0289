// The documents' namespace is theirs (documents.config.ts): loaded here as the application loads it.
import '../documents/documents.config';
import '../webhooks/webhooks.config';
import { availableParallelism } from 'node:os';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../database/data-source';
import { ConfigError, defaultHashConcurrency, loadConfig, parseByteSize, parseDatabaseUrl, parseDuration } from './config';

describe('configuration', () => {
  it('TRUST_PROXY takes a hop count or proxy addresses/CIDRs, never "every hop"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: true would trust every hop/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/8,proxy.example' })).toThrow(
      /TRUST_PROXY: not an address or CIDR: proxy.example/,
    );
    expect(() => loadConfig({ TRUST_PROXY: '99' })).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('FILE_STORAGE: local disk by default, or an S3 bucket with its prefix, endpoint and credentials', () => {
    expect(loadConfig({}).fileStorage).toEqual({ type: 'local', dir: './data/files' });
    expect(loadConfig({ FILE_STORAGE: 'local:/var/lib/hr/files' }).fileStorage).toEqual({
      type: 'local',
      dir: '/var/lib/hr/files',
    });
    expect(
      loadConfig({
        FILE_STORAGE: 's3://hr-files/prod/',
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'id',
        AWS_SECRET_ACCESS_KEY: 'secret',
      }).fileStorage,
    ).toEqual({
      type: 's3',
      bucket: 'hr-files',
      prefix: 'prod/',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ FILE_STORAGE: 's3://hr-files', S3_REGION: 'eu-west-1' }).fileStorage).toMatchObject({
      prefix: '',
      region: 'eu-west-1',
      credentials: null,
    });
    expect(() => loadConfig({ FILE_STORAGE: 'ftp://files' })).toThrow(/FILE_STORAGE: must be local:<directory> or s3:/);
    expect(() => loadConfig({ FILE_STORAGE: 's3://hr-files', AWS_ACCESS_KEY_ID: 'id' })).toThrow(/set both or neither/);
  });

  it('DOCUMENT_MAX_BYTES and DOCUMENT_ALLOWED_TYPES: 20 MiB and the seven safe kinds by default, a list of known kinds', () => {
    expect(loadConfig({}).documents).toEqual({
      maxBytes: 20 * 1024 * 1024,
      allowedTypes: ['pdf', 'png', 'jpeg', 'webp', 'docx', 'xlsx', 'text'],
    });
    expect(loadConfig({ DOCUMENT_MAX_BYTES: '5mb', DOCUMENT_ALLOWED_TYPES: 'PDF, jpeg,pdf' }).documents).toEqual({
      maxBytes: 5 * 1024 * 1024,
      allowedTypes: ['pdf', 'jpeg'],
    });
    expect(() => loadConfig({ DOCUMENT_ALLOWED_TYPES: 'pdf,html' })).toThrow(/DOCUMENT_ALLOWED_TYPES: a list of pdf, png/);
    expect(() => loadConfig({ DOCUMENT_ALLOWED_TYPES: ' , ' })).toThrow(/DOCUMENT_ALLOWED_TYPES/);
  });

  it('PASSWORD_HASH_CONCURRENCY: by default the cores shared among the API processes, 1 to 2 a process', () => {
    // Two cores: two hashes at once on the machine, whether one process runs them or two do.
    expect(defaultHashConcurrency(1, 2)).toBe(2);
    expect(defaultHashConcurrency(2, 2)).toBe(1);
    expect(defaultHashConcurrency(4, 2)).toBe(1);
    expect(defaultHashConcurrency(1, 1)).toBe(1);
    // Never more than half of libuv's four threads in one process.
    expect(defaultHashConcurrency(1, 16)).toBe(2);
    expect(defaultHashConcurrency(4, 16)).toBe(2);
    const cores = availableParallelism();
    expect(loadConfig({ API_PROCESSES: '2' }).passwordHashConcurrency).toBe(defaultHashConcurrency(2, cores));
    expect(loadConfig({ API_PROCESSES: '2', PASSWORD_HASH_CONCURRENCY: '3' }).passwordHashConcurrency).toBe(3);
  });

  it("SQLITE_CACHE_MB: SQLite's page cache, its own 2 MiB by default, applied to the connection", async () => {
    expect(loadConfig({}).database).toMatchObject({ type: 'sqlite', cacheMb: 2 });
    expect(loadConfig({ SQLITE_CACHE_MB: '256' }).database).toMatchObject({ cacheMb: 256 });
    expect(() => loadConfig({ SQLITE_CACHE_MB: '1' })).toThrow(/SQLITE_CACHE_MB/);
    expect(loadConfig({ DATABASE_URL: 'mysql://u:p@h:3306/db' }).database).not.toHaveProperty('cacheMb');
    const ds = await new DataSource(dataSourceOptions({ type: 'sqlite', path: ':memory:', cacheMb: 96 })).initialize();
    try {
      expect(await ds.query('PRAGMA cache_size')).toEqual([{ cache_size: -96 * 1024 }]);
    } finally {
      await ds.destroy();
    }
  });

  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      basePath: '',
      apiPrefix: '/app/api',
      database: { type: 'sqlite', path: './data/hr.sqlite' },
      redisUrl: null,
      smtpUrl: null,
      accessTokenTtlSec: 3600,
      refreshTokenTtlSec: 30 * 86400,
      corsOrigins: [],
      bodyLimit: 1024 * 1024,
      logLevel: 'info',
      migrationsRun: true,
      queueConsumer: true,
      queueLockMs: 30_000,
      queueStalledCheckMs: 30_000,
      queueDashboardPort: null,
    });
  });

  it('reads every variable', () => {
    const c = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      BASE_PATH: '/hr/',
      DATABASE_URL: 'mysql://u:p@db:3306/hr',
      REDIS_URL: 'redis://cache:6379/1',
      SMTP_URL: 'smtp://mail:25',
      MAIL_FROM: 'HR <hr@example.com>',
      ACCESS_TOKEN_TTL: '15m',
      REFRESH_TOKEN_TTL: '7d',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      BODY_LIMIT: '512kb',
      LOG_LEVEL: 'DEBUG',
      MIGRATIONS_RUN: 'false',
      QUEUE_CONSUMER: 'false',
      QUEUE_LOCK_MS: '2000',
      QUEUE_STALLED_CHECK_MS: '1000',
      QUEUE_DASHBOARD_PORT: '3001',
    });
    expect(c).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      basePath: '/hr',
      apiPrefix: '/hr/app/api',
      database: { type: 'mysql', url: 'mysql://u:p@db:3306/hr' },
      redisUrl: 'redis://cache:6379/1',
      smtpUrl: 'smtp://mail:25',
      mailFrom: 'HR <hr@example.com>',
      accessTokenTtlSec: 900,
      refreshTokenTtlSec: 7 * 86400,
      corsOrigins: ['https://a.example', 'https://b.example'],
      bodyLimit: 512 * 1024,
      logLevel: 'debug',
      migrationsRun: false,
      queueConsumer: false,
      queueLockMs: 2000,
      queueStalledCheckMs: 1000,
      queueDashboardPort: 3001,
    });
    expect(loadConfig({ QUEUE_DASHBOARD_PORT: '0' }).queueDashboardPort).toBe(0);
    expect(loadConfig({}).apiProcesses).toBe(1);
    expect(loadConfig({ API_PROCESSES: '2' }).apiProcesses).toBe(2);
    expect(loadConfig({ API_PROCESSES: 'auto' }).apiProcesses).toBe(availableParallelism());
    expect(() => loadConfig({ API_PROCESSES: '0' })).toThrow(/API_PROCESSES: must be an integer from 1 to 64/);
    expect(() => loadConfig({ QUEUE_DASHBOARD_PORT: '70000' })).toThrow(/QUEUE_DASHBOARD_PORT: must be an integer/);
  });

  it('fails at boot with one line per bad variable, naming it', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'postgres://x/y',
        ACCESS_TOKEN_TTL: '1 week',
        REDIS_URL: 'http://x',
        BASE_PATH: 'hr',
      });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems.map((p) => p.split(':')[0]).sort()).toEqual(
      ['ACCESS_TOKEN_TTL', 'BASE_PATH', 'DATABASE_URL', 'PORT', 'REDIS_URL'].sort(),
    );
    expect(error!.message).toContain('PORT: must be an integer from 0 to 65535, got "eighty"');
  });

  it('parses durations, sizes and database URLs', () => {
    expect(parseDuration('90')).toBe(90);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('0s')).toBeNull();
    expect(parseDuration('1w')).toBeNull();
    expect(parseByteSize('1mb')).toBe(1048576);
    expect(parseByteSize('2 KB')).toBe(2048);
    expect(parseByteSize('lots')).toBeNull();
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ type: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('sqlite:./data/x.sqlite')).toEqual({ type: 'sqlite', path: './data/x.sqlite' });
    expect(parseDatabaseUrl('mariadb://root:@127.0.0.1:3306/hr')).toEqual({
      type: 'mysql',
      url: 'mysql://root:@127.0.0.1:3306/hr',
    });
    expect(parseDatabaseUrl('sqlite:')).toBeNull();
  });

  it('a module declares and validates its own namespace; its bad values fail the start beside the platform’s, each by name (issue 64 item 6)', () => {
    expect(loadConfig({ WEBHOOK_ATTEMPTS: '3' }).webhooks).toMatchObject({ attempts: 3, allowPrivate: false });
    let error: unknown;
    try {
      loadConfig({ WEBHOOK_ATTEMPTS: '0', WEBHOOK_DISABLE_AFTER: 'soon', PORT: 'x' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.filter((l) => /^(PORT|WEBHOOK_)/.test(l))).toEqual([
      'PORT: must be an integer from 0 to 65535, got "x"',
      'WEBHOOK_ATTEMPTS: must be an integer from 1 to 50, got "0"',
      expect.stringMatching(/^WEBHOOK_DISABLE_AFTER: must be a duration such as 90s/),
    ]);
  });
});
