import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { DataSource, In } from 'typeorm';
import { createApp } from '../app.factory';
import { AppModule } from '../app.module';
import { TokenService } from '../auth/token.service';
import { DomainException } from '../common/errors/domain.exception';
import { createRootLogger, PinoNestLogger } from '../common/logging/logger';
import { AppConfig, ConfigError, loadConfig, parseDuration } from '../config/config';
import { dataSourceOptions, runMigrations } from '../database/data-source';
import { rebuildInsightRollups } from '../database/insight-rollups';
import { seedDemo } from '../database/seeds/demo.seed';
import { LeaveAccrualsService } from '../leave/ledger/leave-accruals.service';
import { SettingsService } from '../settings/settings.service';
import { Employee } from '../employees/entities/employee.entity';
import { Department } from '../reference/entities/reference.entities';
import { USER_LEVELS, UserLevel } from '../common/auth/user-level';
import { ScimTokensService } from '../scim/scim-tokens.service';
import { UsersService } from '../users/users.service';
import { MaintenanceService } from '../maintenance/maintenance.service';
import { ParsedArgs, parseArgs, required, UsageError } from './args';
import { USAGE } from './usage';
import { CliIo, preflight } from './preflight';
import { backupDatabase, restoreDatabase } from '../database/backup';
import { checkDatabase, DatabaseSetupError } from '../database/reachable';
import { runAs } from '../common/audit/audit-context';

export type { CliIo } from './preflight';

type Handler = (args: string[], ctx: { config: AppConfig; io: CliIo }) => Promise<void>;

/** Boots the modules without HTTP for one command; nothing consumes jobs, logs go to stderr. */
async function withContext<T>(config: AppConfig, fn: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  await checkDatabase(config.database);
  const logger = createRootLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, pino.destination(2));
  const app = await NestFactory.createApplicationContext(AppModule.forRoot({ ...config, queueConsumer: false }), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

const COMMANDS: Record<string, Handler> = {
  'db:migrate': async (argv, { config, io }) => {
    parseArgs(argv, []);
    await checkDatabase(config.database);
    const ds = await new DataSource(dataSourceOptions(config.database)).initialize();
    try {
      const applied = await runMigrations(ds);
      io.out(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await ds.destroy();
    }
  },

  'db:backup': async (argv, { config, io }) => {
    const r = await backupDatabase(config.database, oneFile(argv, 'db:backup'));
    io.out(`backed up to ${r.file}: ${r.bytes} bytes in ${r.ms} ms, at migration ${r.migration ?? 'none'}; integrity checked`);
  },

  'db:restore': async (argv, { config, io }) => {
    const r = await restoreDatabase(config.database, oneFile(argv, 'db:restore'));
    io.out(`restored, at migration ${r.migration ?? 'none'}${r.previous ? `; the database it replaced is ${r.previous}` : ''}`);
    if (r.pending.length)
      io.out(`the API applies ${r.pending.length} newer migration(s) when it starts: ${r.pending.join(', ')}`);
  },

  'users:create-admin': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['username', 'email', 'password']);
    const input = { username: required(args, 'username'), email: required(args, 'email'), password: await password(args, io) };
    await withContext(config, async (app) => {
      const user = await app.get(UsersService).create({ ...input, level: 'Admin' });
      io.out(`created Admin ${user.username} (id ${user.id})`);
    });
  },

  'users:create': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['username', 'email', 'password', 'level', 'employee', 'departments']);
    const level = required(args, 'level') as UserLevel;
    if (!USER_LEVELS.includes(level)) throw new UsageError(`--level must be one of ${USER_LEVELS.join(', ')}`);
    const ids = (name: string) =>
      (args.options[name] ?? '')
        .split(',')
        .filter(Boolean)
        .map((v) => {
          if (!/^\d+$/.test(v)) throw new UsageError(`--${name} takes numeric ids`);
          return Number(v);
        });
    const [employeeId] = ids('employee');
    const departments = ids('departments');
    if (departments.length && level !== 'Restricted Admin')
      throw new UsageError('--departments applies to a Restricted Admin only');
    await withContext(config, async (app) => {
      const ds = app.get(DataSource);
      if (employeeId !== undefined && !(await ds.getRepository(Employee).exists({ where: { id: employeeId } }))) {
        throw new UsageError(`no employee with id ${employeeId}`);
      }
      const found = departments.length ? await ds.getRepository(Department).count({ where: { id: In(departments) } }) : 0;
      if (found !== departments.length) throw new UsageError('--departments names a department that does not exist');
      const user = await app.get(UsersService).create({
        username: required(args, 'username'),
        email: required(args, 'email'),
        password: await password(args, io),
        level,
        employeeId: employeeId ?? null,
        departmentIds: departments,
      });
      io.out(`created ${level} ${user.username} (id ${user.id})`);
    });
  },

  'users:reset-password': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['username']);
    const username = required(args, 'username');
    await withContext(config, async (app) => {
      const user = await app.get(UsersService).findByUsername(username);
      if (!user) throw new UsageError(`no user named ${username}`);
      io.out(await app.get(UsersService).resetToTemporaryPassword(user.id));
    });
  },

  'tokens:issue': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['username', 'ttl']);
    const username = required(args, 'username');
    const ttl = args.options.ttl === undefined ? undefined : parseDuration(args.options.ttl);
    if (ttl === null) throw new UsageError('--ttl must be a duration such as 15m, 1h or 30d');
    await withContext(config, async (app) => {
      const user = await app.get(UsersService).findByUsername(username);
      if (!user || !user.active) throw new UsageError(`no active user named ${username}`);
      const issued = await app.get(TokenService).issue(user, { accessTtlSec: ttl });
      io.out(issued.access_token);
    });
  },

  'scim-tokens:issue': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['name']);
    const name = required(args, 'name');
    if (name.length > 100) throw new UsageError('--name must be at most 100 characters');
    await withContext(config, async (app) => io.out((await app.get(ScimTokensService).issue(name, null)).token));
  },

  'maintenance:purge': async (argv, { config, io }) => {
    parseArgs(argv, []);
    await withContext(config, async (app) => {
      const n = await app.get(MaintenanceService).purge();
      io.out(
        `deleted ${n.tokens} expired token(s), ${n.idempotencyKeys} expired idempotency key(s) and ${n.auditEntries} audit log entr${n.auditEntries === 1 ? 'y' : 'ies'} older than ${n.auditRetentionDays} days`,
      );
      io.out(
        `deleted ${n.outboxEvents} outbox event(s) every subscriber handled, recorded over 7 days ago, and ${n.webhookDeliveries} webhook delivery attempt(s) over 30 days old`,
      );
      io.out(`deleted the files of ${n.importFiles} dry-run import(s) validated over 7 days ago and not committed`);
    });
  },

  'maintenance:rebuild-insights': async (argv, { config, io }) => {
    parseArgs(argv, []);
    await withContext(config, async (app) => {
      const started = Date.now();
      await rebuildInsightRollups(app.get(DataSource));
      io.out(`rebuilt attendance_days, time_entry_days and leave_day_sums in ${Date.now() - started} ms`);
    });
  },

  'leave:accrue': async (argv, { config, io }) => {
    const args = parseArgs(argv, ['history', 'employees']);
    const history = args.options.history;
    if (history !== undefined && history !== 'all') throw new UsageError('--history takes the value all');
    const employees = args.options.employees?.split(',').map((v) => {
      if (!/^\d+$/.test(v)) throw new UsageError('--employees takes numeric ids');
      return Number(v);
    });
    await withContext(config, async (app) => {
      const started = Date.now();
      const accruals = app.get(LeaveAccrualsService);
      // For everyone it is a run of the job, recorded: the next scheduled run reads what changed after it.
      const written = employees
        ? await accruals.accrue(undefined, history === 'all', employees)
        : (await accruals.full(undefined, history === 'all')).written;
      io.out(`wrote ${written} leave ledger entries in ${Date.now() - started} ms`);
    });
  },

  'settings:get': async (argv, { config, io }) => {
    const { positionals } = parseArgs(argv, []);
    if (positionals.length !== 1) throw new UsageError('settings:get takes one setting name');
    await withContext(config, async (app) => io.out(await app.get(SettingsService).get(positionals[0])));
  },

  'settings:set': async (argv, { config, io }) => {
    const { positionals } = parseArgs(argv, []);
    if (positionals.length !== 2) throw new UsageError('settings:set takes a setting name and a value');
    await withContext(config, async (app) => {
      const s = await app.get(SettingsService).set(positionals[0], positionals[1]);
      io.out(`${s.name} = ${s.value}`);
    });
  },

  demo: async (argv, { io }) => {
    parseArgs(argv, []);
    await runDemo(io);
  },
};

/**
 * The new user's password: --password P, or (better: it stays out of the shell's history and the
 * process list) --password - or no --password at all, read from standard input or a prompt that
 * does not echo it.
 */
async function password(args: ParsedArgs, io: CliIo): Promise<string> {
  const given = args.options.password;
  if (given !== undefined && given !== '-') return given;
  if (!io.secret) throw new UsageError('--password is required');
  const read = await io.secret('Password for the new user: ');
  if (!read) throw new UsageError('no password was given on standard input');
  return read;
}

/** The commands this CLI runs (each has its spec in command-specs.ts). */
export const commandNames = (): string[] => Object.keys(COMMANDS);

function oneFile(argv: string[], command: string): string {
  const { positionals } = parseArgs(argv, []);
  if (positionals.length !== 1) throw new UsageError(`${command} takes one file name`);
  return positionals[0];
}

/** The demo always uses ./data/demo.sqlite, whatever DATABASE_URL says, so it never seeds a real database. */
export function demoConfig(env: Record<string, string | undefined>): AppConfig {
  return loadConfig({
    ...env,
    DATABASE_URL: 'sqlite:./data/demo.sqlite',
    REDIS_URL: '',
    HOST: env.HOST ?? '127.0.0.1',
    PORT: env.PORT ?? '3000',
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
  });
}

async function runDemo(io: CliIo, env: Record<string, string | undefined> = process.env): Promise<void> {
  const config = demoConfig(env);
  const app = await createApp(config);
  const seeded = await seedDemo(app);
  await app.listen(config.port, config.host);
  const base = `http://${config.host}:${config.port}${config.apiPrefix}`;
  io.out(`HR service demo on ${base} (database ./data/demo.sqlite)`);
  for (const u of seeded.users) {
    io.out(
      u.password
        ? `  ${u.level}: username ${u.username}, password ${u.password}   (shown once; keep it)`
        : `  ${u.level}: username ${u.username} (password shown when it was created; delete ./data/demo.sqlite for a new one)`,
    );
  }
  if (seeded.scimToken) io.out(`  SCIM (/scim/v2) token: ${seeded.scimToken}   (shown once; keep it)`);
  io.out(`API documentation: ${base}/docs`);
  io.out(`Metrics (Prometheus; from this machine): ${base}/metrics`);
  io.out('Try it:');
  io.out(`  curl -s -H "Authorization: Bearer ${seeded.accessToken}" "${base}/employees?limit=5"`);
  io.out('Press Ctrl+C to stop.');
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], io: CliIo, env: Record<string, string | undefined>): Promise<number> {
  const answered = preflight(argv, io);
  if (answered !== null) return answered;
  const [command, ...rest] = argv;
  const handler = COMMANDS[command];
  try {
    const config = command === 'demo' ? demoConfig(env) : loadConfig(env);
    // What a command changes is recorded in the audit log as made by "cli".
    await runAs('cli', null, () => handler(rest, { config, io }));
    return 0;
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`error: ${err.message}\n\n${USAGE}`);
      return 2;
    }
    if (err instanceof DatabaseSetupError) {
      io.err(`error: ${err.message}`);
      return 1;
    }
    if (err instanceof ConfigError) {
      io.err(err.message);
      return 2;
    }
    if (err instanceof DomainException) {
      const details = err.details?.map((d) => `  ${d.field}: ${d.message}`).join('\n');
      io.err(`error: ${err.message}${details ? `\n${details}` : ''}`);
      return 1;
    }
    io.err(`error: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
