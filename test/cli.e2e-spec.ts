import { itIf, NEEDS_SERVERS } from './helpers/skip';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { COMMAND_SPECS } from '../src/cli/command-specs';
import { preflight } from '../src/cli/preflight';
import { commandNames, runCli } from '../src/cli/run-cli';
import { nodeVersionProblem, REQUIRED_NODE } from '../src/node-check';
import { dataSourceOptions } from '../src/database/data-source';
import { captureIo, createTestApp, INTEGRATION, resetDatabase, testConfig } from './helpers/test-app';

describe('hr command line', () => {
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hr-cli-'));
    env = { DATABASE_URL: INTEGRATION ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'cli.sqlite')}`, LOG_LEVEL: 'warn' };
    await resetDatabase(testConfig(env));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('db:migrate applies the migrations once', async () => {
    const first = captureIo();
    expect(await runCli(['db:migrate'], first.io, env)).toBe(0);
    expect(first.out[0]).toMatch(/^applied: Platform\d+/);
    const second = captureIo();
    expect(await runCli(['db:migrate'], second.io, env)).toBe(0);
    expect(second.out).toEqual(['database is up to date']);
  });

  it('users:create-admin creates an Admin who can sign in; tokens:issue prints only a working token', async () => {
    const created = captureIo();
    const code = await runCli(
      ['users:create-admin', '--username', 'root', '--email', 'root@example.com', '--password', 'a-long-Secret-1'],
      created.io,
      env,
    );
    expect(created.err).toEqual([]);
    expect(code).toBe(0);
    expect(created.out[0]).toMatch(/^created Admin root \(id \d+\)$/);

    const issued = captureIo();
    expect(await runCli(['tokens:issue', '--username', 'root', '--ttl', '2h'], issued.io, env)).toBe(0);
    expect(issued.out).toHaveLength(1);
    expect(issued.out[0]).toMatch(/^hra_[A-Za-z0-9_-]{43}$/);

    // The token works against an app on the same database.
    const t = await createTestApp({ DATABASE_URL: env.DATABASE_URL }, { keepDatabase: true });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/app/api/settings',
        headers: { authorization: `Bearer ${issued.out[0]}` },
      });
      expect(res.statusCode).toBe(200);
      const login = await t.app.inject({
        method: 'POST',
        url: '/app/api/oauth/token',
        payload: { grant_type: 'password', username: 'root@example.com', password: 'a-long-Secret-1' },
      });
      expect(login.json().scope).toBe('admin');
    } finally {
      await t.close();
    }
  });

  it('maintenance:purge deletes expired tokens, idempotency keys and audit entries past the retention, and nothing else', async () => {
    const ds = await new DataSource(dataSourceOptions(testConfig(env).database)).initialize();
    try {
      const [{ id }] = await ds.query("SELECT id FROM users WHERE username = 'root'");
      const uid = Number(id);
      // The command line's own change is in the audit log, as made by "cli", without the password.
      const created = await ds.query<Array<{ actor: string; actor_user_id: number | null; changes: string }>>(
        "SELECT actor, actor_user_id, changes FROM audit_log WHERE resource = 'users' AND action = 'create' AND resource_id = ?",
        [String(uid)],
      );
      expect(created).toEqual([
        { actor: 'cli', actor_user_id: null, changes: expect.stringContaining('"username":[null,"root"]') },
      ]);
      expect(created[0].changes).not.toMatch(/password|scrypt/i);
      const old = new Date(Date.now() - 731 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      await ds.query(
        `INSERT INTO audit_log (at, actor, action, resource, resource_id, changes) VALUES (?, 'cli', 'update', 'settings', 'x', '{}')`,
        [old],
      );
      // Two old events and a recent one every subscriber has handled, and an old one the webhooks have not.
      const now = new Date().toISOString().slice(0, 19).replace('T', ' ');
      await ds.query(
        `INSERT INTO outbox_events (event_id, event, payload, created_at, seq) VALUES
         ('e-old', 'user.created', '{}', ?, 9000001), ('e-new', 'user.created', '{}', ?, 9000002), ('e-pending', 'user.created', '{}', ?, 9000003)`,
        [old, now, old],
      );
      await ds.query("UPDATE outbox_cursors SET last_seq = 9000003 WHERE subscriber <> 'webhooks'");
      await ds.query("UPDATE outbox_cursors SET last_seq = 9000002 WHERE subscriber = 'webhooks'");
      await ds.query(
        `INSERT INTO oauth_tokens (user_id, kind, token_hash, grant_id, expires_at) VALUES
         (${uid}, 'access', 'old', 'g1', '2001-01-01 00:00:00'), (${uid}, 'access', 'new', 'g2', '2999-01-01 00:00:00')`,
      );
      await ds.query(
        `INSERT INTO idempotency_keys (user_id, idem_key, request_hash, state, expires_at) VALUES
         (${uid}, 'k-old', 'h', 'done', '2001-01-01 00:00:00'), (${uid}, 'k-new', 'h', 'done', '2999-01-01 00:00:00')`,
      );
      const c = captureIo();
      expect(await runCli(['maintenance:purge'], c.io, env)).toBe(0);
      expect(c.out).toEqual([
        'deleted 1 expired token(s), 1 expired idempotency key(s) and 1 audit log entry older than 730 days',
        'deleted 1 outbox event(s) every subscriber handled, recorded over 7 days ago, and 0 webhook delivery attempt(s) over 30 days old',
        'deleted the files of 0 dry-run import(s) validated over 7 days ago and not committed',
      ]);
      // The event a subscriber has not handled and the recent one stay.
      expect(
        (await ds.query('SELECT event_id FROM outbox_events ORDER BY event_id')).map((r: { event_id: string }) => r.event_id),
      ).toEqual(expect.arrayContaining(['e-new', 'e-pending']));
      expect(await ds.query("SELECT event_id FROM outbox_events WHERE event_id = 'e-old'")).toEqual([]);
      expect(await ds.query("SELECT id FROM audit_log WHERE resource = 'users'")).toHaveLength(1);
      expect(
        (await ds.query("SELECT token_hash FROM oauth_tokens WHERE token_hash IN ('old', 'new')")).map(
          (r: { token_hash: string }) => r.token_hash,
        ),
      ).toEqual(['new']);
      expect((await ds.query('SELECT idem_key FROM idempotency_keys')).map((r: { idem_key: string }) => r.idem_key)).toEqual([
        'k-new',
      ]);
    } finally {
      await ds.destroy();
    }
  });

  it('maintenance:rebuild-insights sums attendance loaded with SQL into the insights rollups', async () => {
    const ds = await new DataSource(dataSourceOptions(testConfig(env).database)).initialize();
    try {
      await ds.query(
        "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('R1', 'A', 'B', '2020-01-01')",
      );
      const [{ id }] = await ds.query("SELECT id FROM employees WHERE employee_id = 'R1'");
      await ds.query(
        `INSERT INTO attendance (employee_id, in_time, out_time, duration_seconds) VALUES (?, '2026-02-03 09:00:00', '2026-02-03 11:00:00', 7200)`,
        [Number(id)],
      );
      expect(await ds.query("SELECT * FROM attendance_days WHERE day = '2026-02-03'")).toEqual([]);
      const c = captureIo();
      expect(await runCli(['maintenance:rebuild-insights'], c.io, env)).toBe(0);
      expect(c.out[0]).toMatch(/^rebuilt attendance_days, time_entry_days and leave_day_sums in \d+ ms$/);
      const [row] = await ds.query("SELECT records, seconds FROM attendance_days WHERE day = '2026-02-03'");
      expect([Number(row.records), Number(row.seconds)]).toEqual([1, 7200]);
      await ds.query('DELETE FROM employees WHERE id = ?', [Number(id)]);
    } finally {
      await ds.destroy();
    }
  });

  it('leave:accrue writes what the policies owe: the current and previous leave periods, or with --history all every one begun', async () => {
    const ds = await new DataSource(dataSourceOptions(testConfig(env).database)).initialize();
    try {
      const year = new Date().getUTCFullYear();
      await ds.query(
        "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('L1', 'A', 'B', '2015-01-01')",
      );
      const [{ id }] = await ds.query("SELECT id FROM employees WHERE employee_id = 'L1'");
      for (const y of [year - 3, year - 2, year - 1, year])
        await ds.query('INSERT INTO leave_periods (name, date_start, date_end) VALUES (?, ?, ?)', [
          `CLI ${y}`,
          `${y}-01-01`,
          `${y}-12-31`,
        ]);
      await ds.query("INSERT INTO leave_types (name, default_days) VALUES ('CLI leave', 0)");
      const [{ type }] = await ds.query("SELECT id AS type FROM leave_types WHERE name = 'CLI leave'");
      await ds.query(
        "INSERT INTO leave_policies (name, leave_type_id, accrual, amount, carry_over_max) VALUES ('CLI monthly', ?, 'monthly', 1, 0)",
        [Number(type)],
      );
      const [{ policy }] = await ds.query("SELECT id AS policy FROM leave_policies WHERE name = 'CLI monthly'");
      await ds.query("INSERT INTO leave_policy_assignments (policy_id, employee_id, valid_from) VALUES (?, ?, '2015-01-01')", [
        Number(policy),
        Number(id),
      ]);
      const years = async () =>
        (
          await ds.query<Array<{ date: string | Date }>>('SELECT date FROM leave_ledger WHERE employee_id = ? AND kind = ?', [
            Number(id),
            'accrual',
          ])
        )
          .map((r) => new Date(r.date).getUTCFullYear() || Number(String(r.date).slice(0, 4)))
          .reduce((m, y) => m.set(y, (m.get(y) ?? 0) + 1), new Map<number, number>());
      const current = captureIo();
      expect(await runCli(['leave:accrue', '--employees', String(id)], current.io, env)).toBe(0);
      expect(current.out[0]).toMatch(/^wrote \d+ leave ledger entries in \d+ ms$/);
      expect((await years()).get(year - 1)).toBe(12);
      expect((await years()).has(year - 3)).toBe(false);
      const history = captureIo();
      expect(await runCli(['leave:accrue', '--history', 'all', '--employees', String(id)], history.io, env)).toBe(0);
      expect([(await years()).get(year - 3), (await years()).get(year - 2)]).toEqual([12, 12]);
      const again = captureIo();
      expect(await runCli(['leave:accrue', '--history', 'all', '--employees', String(id)], again.io, env)).toBe(0);
      expect(again.out[0]).toMatch(/^wrote 0 leave ledger entries/);
      for (const bad of [
        ['--history', 'some'],
        ['--employees', 'x'],
      ])
        expect(await runCli(['leave:accrue', ...bad], captureIo().io, env)).toBe(2);
      // For some employees nothing is recorded; for everyone a run of the job is (the next scheduled one starts after it).
      const runs = () =>
        ds.query<Array<{ full_run: number | boolean; employees: number }>>(
          'SELECT full_run, employees FROM leave_accrual_runs ORDER BY id DESC',
        );
      expect(await runs()).toEqual([]);
      const everyone = captureIo();
      expect(await runCli(['leave:accrue'], everyone.io, env)).toBe(0);
      expect(everyone.out[0]).toMatch(/^wrote 0 leave ledger entries in \d+ ms$/);
      const recorded = await runs();
      expect(recorded.map((r) => ({ full: !!Number(r.full_run), employees: Number(r.employees) }))).toEqual([
        { full: true, employees: expect.any(Number) },
      ]);
      expect(Number(recorded[0].employees)).toBeGreaterThan(0);
      await ds.query('DELETE FROM leave_accrual_runs');
      await ds.query('DELETE FROM leave_ledger WHERE employee_id = ?', [Number(id)]);
      await ds.query('DELETE FROM leave_policy_assignments WHERE employee_id = ?', [Number(id)]);
      await ds.query('DELETE FROM employees WHERE id = ?', [Number(id)]);
    } finally {
      await ds.destroy();
    }
  });

  it('fails with exit code 1 and a clear message on a duplicate or a bad value', async () => {
    const dup = captureIo();
    const code = await runCli(
      ['users:create-admin', '--username', 'root', '--email', 'other@example.com', '--password', 'a-long-Secret-1'],
      dup.io,
      env,
    );
    expect(code).toBe(1);
    expect(dup.err[0]).toBe('error: Username is already taken');

    const weak = captureIo();
    expect(
      await runCli(['users:create-admin', '--username', 'x2', '--email', 'x2@example.com', '--password', 'short'], weak.io, env),
    ).toBe(1);
    expect(weak.err[0]).toContain('password must be at least 8 characters');

    const setting = captureIo();
    expect(await runCli(['settings:set', 'Enable Rest Api', 'Maybe'], setting.io, env)).toBe(1);
    expect(setting.err[0]).toContain('must be one of Yes, No');

    const unknownUser = captureIo();
    expect(await runCli(['tokens:issue', '--username', 'ghost'], unknownUser.io, env)).toBe(2);
    expect(unknownUser.err[0]).toContain('no active user named ghost');
  });

  it('users:create makes a user of any level, linked to an employee, with a Restricted Admin scope', async () => {
    const ds = await new DataSource(dataSourceOptions(testConfig(env).database)).initialize();
    try {
      await ds.query("INSERT INTO departments (name) VALUES ('CLI dept')");
      const [{ id: dept }] = await ds.query("SELECT id FROM departments WHERE name = 'CLI dept'");
      await ds.query(
        "INSERT INTO employees (employee_id, first_name, last_name, joined_date) VALUES ('CLI1', 'C', 'L', '2020-01-01')",
      );
      const [{ id: emp }] = await ds.query("SELECT id FROM employees WHERE employee_id = 'CLI1'");
      const run = async (...argv: string[]) => {
        const c = captureIo();
        return { code: await runCli(argv, c.io, env), ...c };
      };
      const pw = ['--password', 'long-enough-1'];
      const ra = await run(
        'users:create',
        '--username',
        'scoped',
        '--email',
        'scoped@x.test',
        ...pw,
        '--level',
        'Restricted Admin',
        '--departments',
        String(dept),
      );
      expect([ra.code, ra.out[0]]).toEqual([0, expect.stringMatching(/^created Restricted Admin scoped \(id \d+\)$/)]);
      const [{ id: raId }] = await ds.query("SELECT id FROM users WHERE username = 'scoped'");
      expect(
        (await ds.query(`SELECT department_id FROM user_departments WHERE user_id = ${Number(raId)}`)).map(
          (r: { department_id: number }) => Number(r.department_id),
        ),
      ).toEqual([Number(dept)]);
      // Its audit entry names the departments it was created with.
      const [created] = await ds.query(
        "SELECT changes FROM audit_log WHERE resource = 'users' AND action = 'create' AND resource_id = ?",
        [String(raId)],
      );
      expect(JSON.parse(created.changes as string).departments).toEqual([null, [Number(dept)]]);
      const mgr = await run(
        'users:create',
        '--username',
        'boss',
        '--email',
        'boss@x.test',
        ...pw,
        '--level',
        'Manager',
        '--employee',
        String(emp),
      );
      expect(mgr.code).toBe(0);
      expect(Number((await ds.query("SELECT employee_id FROM users WHERE username = 'boss'"))[0].employee_id)).toBe(Number(emp));

      expect((await run('users:create', '--username', 'x1', '--email', 'x1@x.test', ...pw, '--level', 'King')).code).toBe(2);
      expect(
        (
          await run(
            'users:create',
            '--username',
            'x2',
            '--email',
            'x2@x.test',
            ...pw,
            '--level',
            'Manager',
            '--departments',
            String(dept),
          )
        ).code,
      ).toBe(2);
      const ghost = await run(
        'users:create',
        '--username',
        'x3',
        '--email',
        'x3@x.test',
        ...pw,
        '--level',
        'Employee',
        '--employee',
        '999999',
      );
      expect([ghost.code, ghost.err[0]]).toEqual([2, expect.stringContaining('no employee with id 999999')]);
      const noDept = await run(
        'users:create',
        '--username',
        'x4',
        '--email',
        'x4@x.test',
        ...pw,
        '--level',
        'Restricted Admin',
        '--departments',
        '999999',
      );
      expect(noDept.code).toBe(2);
      expect(await ds.query("SELECT username FROM users WHERE username IN ('x1', 'x2', 'x3', 'x4')")).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });

  it('users:reset-password prints a temporary password that signs in and must be changed', async () => {
    const c = captureIo();
    expect(await runCli(['users:reset-password', '--username', 'boss'], c.io, env)).toBe(0);
    expect(c.out[0]).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const t = await createTestApp({ DATABASE_URL: env.DATABASE_URL }, { keepDatabase: true });
    try {
      const login = await t.app.inject({
        method: 'POST',
        url: '/app/api/oauth/token',
        payload: { grant_type: 'password', username: 'boss', password: c.out[0] },
      });
      expect(login.statusCode).toBe(200);
      const me = await t.app.inject({
        method: 'GET',
        url: '/app/api/employees/me',
        headers: { authorization: `Bearer ${login.json().access_token}` },
      });
      expect(me.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    } finally {
      await t.close();
    }
    expect(await runCli(['users:reset-password', '--username', 'ghost'], captureIo().io, env)).toBe(2);
  });

  it('fails with exit code 2 and the usage on bad arguments', async () => {
    const cases: string[][] = [
      [],
      ['no:such-command'],
      ['users:create-admin', '--username', 'a'],
      ['users:create-admin', '--username'],
      ['tokens:issue', '--username', 'root', '--ttl', 'forever'],
      ['tokens:issue', '--user', 'root'],
      ['settings:set', 'Enable Rest Api'],
    ];
    for (const argv of cases) {
      const c = captureIo();
      expect(await runCli(argv, c.io, env)).toBe(2);
      expect(c.err.join('\n')).toContain('Usage: hr <command>');
    }
  });

  it('reports an invalid configuration naming the variable', async () => {
    const c = captureIo();
    expect(await runCli(['settings:get', 'Company Name'], c.io, { ...env, ACCESS_TOKEN_TTL: 'soon' })).toBe(2);
    expect(c.err[0]).toContain('ACCESS_TOKEN_TTL');
  });
});

describe('hr command line: what answers without the application', () => {
  it('the help and usage mistakes answer from the light modules only, before any command runs', () => {
    const help = captureIo();
    expect(preflight(['--help'], help.io)).toBe(0);
    expect(help.out[0]).toMatch(/^Usage: hr <command>/);
    const sub = captureIo();
    expect(preflight(['users:create-admin', '--help'], sub.io)).toBe(0);
    for (const [argv, message] of [
      [['users:create-admin', '--username', 'a'], 'error: --email is required'],
      [['db:backup'], 'error: db:backup takes one file name'],
      [['settings:set', 'x'], 'error: settings:set takes a setting name and a value'],
      [['tokens:issue', '--username', 'a', '--bogus', '1'], 'error: unknown option --bogus'],
      [['nope'], 'unknown command: nope'],
    ] as const) {
      const c = captureIo();
      expect({ argv, code: preflight(argv, c.io), first: c.err[0]?.split('\n')[0] }).toEqual({ argv, code: 2, first: message });
    }
    expect(preflight(['db:migrate'], captureIo().io)).toBeNull();
    // Every command has its spec, and nothing else has one.
    expect(Object.keys(COMMAND_SPECS).sort()).toEqual(commandNames().sort());
  });

  it('the entry point loads the application only for a command that runs: its static imports are the light ones', () => {
    const source = readFileSync(join(__dirname, '..', 'src', 'cli.ts'), 'utf8');
    const staticImports = [...source.matchAll(/^import .*?from '([^']+)';|^import '([^']+)';/gm)].map((m) => m[1] ?? m[2]);
    expect(staticImports).toEqual(['./node-check', './cli/preflight', './cli/read-secret']);
    for (const light of ['preflight', 'command-specs', 'args', 'usage', 'read-secret']) {
      const text = readFileSync(join(__dirname, '..', 'src', 'cli', `${light}.ts`), 'utf8');
      const imported = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect({
        light,
        heavy: imported.filter((i) => !['./args', './command-specs', './usage', 'node:util'].includes(i)),
      }).toEqual({
        light,
        heavy: [],
      });
    }
  });

  it('reads a new user’s password from standard input (never on the command line) and refuses none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hr-cli-secret-'));
    const env = {
      DATABASE_URL: INTEGRATION ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'cli.sqlite')}`,
      LOG_LEVEL: 'warn',
    };
    try {
      await resetDatabase(testConfig(env));
      const prompts: string[] = [];
      const c = captureIo();
      const io = { ...c.io, secret: async (prompt: string) => (prompts.push(prompt), 'from-stdin-Secret-9') };
      expect(await runCli(['users:create-admin', '--username', 'piped', '--email', 'piped@example.com'], io, env)).toBe(0);
      expect(prompts).toEqual(['Password for the new user: ']);
      const t = await createTestApp({ DATABASE_URL: env.DATABASE_URL }, { keepDatabase: true });
      try {
        const login = await t.app.inject({
          method: 'POST',
          url: '/app/api/oauth/token',
          payload: { grant_type: 'password', username: 'piped', password: 'from-stdin-Secret-9' },
        });
        expect(login.statusCode).toBe(200);
      } finally {
        await t.close();
      }
      const none = captureIo();
      const empty = { ...none.io, secret: async () => '' };
      expect(
        await runCli(['users:create-admin', '--username', 'x', '--email', 'x@example.com', '--password', '-'], empty, env),
      ).toBe(2);
      expect(none.err[0]).toMatch(/^error: no password was given on standard input/);
      // Without a way to read one (a test's io), the password is required.
      expect(await runCli(['users:create-admin', '--username', 'y', '--email', 'y@example.com'], captureIo().io, env)).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every entry point checks the running Node before it loads anything native', () => {
    expect(nodeVersionProblem('20.20.2')).toMatch(
      /^hr-service needs Node.js 22.15.0 or newer and this is Node.js 20.20.2: run the Node/,
    );
    expect(nodeVersionProblem('22.14.9')).not.toBeNull();
    for (const ok of ['22.15.0', '22.16.1', '24.21.0', '25.0.0']) expect(nodeVersionProblem(ok)).toBeNull();
    const engines = (JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { engines: { node: string } })
      .engines;
    expect(engines.node).toBe(`>=${REQUIRED_NODE}`);
    for (const entry of ['main.ts', 'worker.ts', 'cli.ts']) {
      const lines = readFileSync(join(__dirname, '..', 'src', entry), 'utf8').split('\n');
      const firstImport = lines.find((l) => l.startsWith('import '));
      expect({ entry, firstImport }).toEqual({ entry, firstImport: "import './node-check';" });
    }
  });

  itIf(INTEGRATION, NEEDS_SERVERS)('a database that does not exist is one line naming what to create, exit 1', async () => {
    const base = process.env.HR_TEST_BASE_DATABASE_URL ?? process.env.DATABASE_URL!;
    const missing = base.replace(/\/[^/?]*(\?.*)?$/, '/hr_no_such_database_here');
    const c = captureIo();
    expect(await runCli(['db:migrate'], c.io, { DATABASE_URL: missing, LOG_LEVEL: 'warn' })).toBe(1);
    expect(c.err).toEqual([
      expect.stringMatching(/^error: DATABASE_URL names the database "hr_no_such_database_here", which does not exist on /),
    ]);
  });
});
