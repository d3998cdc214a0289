import { describeIf, NEEDS_SQLITE } from './helpers/skip';
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/run-cli';
import { transaction } from '../src/common/database/transaction';
import { MIGRATIONS } from '../src/database/migrations';
import { buildCompany, employeeBody } from './helpers/company';
import { apiCaller, captureIo, createTestApp, INTEGRATION, TestApp } from './helpers/test-app';

/** The newest migration's name: a backup names the migration it is at. */
const LATEST = MIGRATIONS[MIGRATIONS.length - 1].name;

/**
 * hr db:backup / db:restore (issue 48, docs/api/decisions.md §24): a consistent copy of the SQLite database taken
 * while the API serves a stream of writes, put back into a fresh application.
 */
describeIf(!INTEGRATION, NEEDS_SQLITE)('database backup and restore (SQLite)', () => {
  let dir: string;
  let env: Record<string, string>;
  let t: TestApp | null = null;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hr-backup-'));
    env = { DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}`, LOG_LEVEL: 'warn' };
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (...argv: string[]) => {
    const io = captureIo();
    const code = await runCli(argv, io.io, env);
    return { code, out: io.out.join('\n'), err: io.err.join('\n') };
  };

  it('copies while writes go on: every write acknowledged before the copy began is in it, the copy is intact, and it restores', async () => {
    t = await createTestApp({ DATABASE_URL: env.DATABASE_URL });
    const c = await buildCompany(t.app);
    const call = apiCaller(t.app);
    const admin = c.users.admin.token;
    // Enough rows that the copy takes several steps (1 000 pages each) with writes in between.
    const pad = 'x'.repeat(3000);
    const ds = t.app.get(DataSource);
    await ds.query('CREATE TABLE backup_ballast (id INTEGER PRIMARY KEY, pad TEXT)');
    await transaction(ds, async (em) => {
      for (let i = 0; i < 4000; i++) await em.query('INSERT INTO backup_ballast (pad) VALUES (?)', [pad]);
    });

    const acknowledged: number[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const res = await call(
          'POST',
          '/employees',
          admin,
          employeeBody({ department: c.departments.sales, first_name: `W${i}` }),
        );
        expect(res.statusCode).toBe(200);
        acknowledged.push(res.json().data.id as number);
      }
    })();
    while (acknowledged.length < 20) await new Promise((r) => setImmediate(r));
    const before = [...acknowledged];
    const file = join(dir, 'copy.sqlite');
    const backup = await cli('db:backup', file);
    const during = acknowledged.length - before.length;
    writing = false;
    await writer;
    expect(backup).toMatchObject({ code: 0, err: '' });
    expect(backup.out).toMatch(
      new RegExp(`^backed up to .*copy\\.sqlite: \\d+ bytes in \\d+ ms, at migration ${LATEST}; integrity checked$`),
    );
    // The API went on answering writes while the copy ran (it yields between steps).
    expect(during).toBeGreaterThan(0);

    // A second backup onto the same name is refused; the first is untouched.
    expect(await cli('db:backup', file)).toMatchObject({ code: 1, err: expect.stringContaining('exists') });

    // While the API holds the database, a restore is refused and changes nothing.
    const refused = await cli('db:restore', file);
    expect(refused).toMatchObject({ code: 1, err: expect.stringContaining('in use') });
    expect((await call('GET', `/employees/${acknowledged[acknowledged.length - 1]}`, admin)).statusCode).toBe(200);
    await t.close();
    t = null;

    const restored = await cli('db:restore', file);
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(
      new RegExp(`^restored, at migration ${LATEST}; the database it replaced is .*hr\\.sqlite\\.before-restore-`),
    );

    // A fresh application on the restored database: every write acknowledged before the copy began
    // is there, each employee with the history its transaction wrote, nothing corrupt.
    t = await createTestApp({ DATABASE_URL: env.DATABASE_URL }, { keepDatabase: true });
    const rds = t.app.get(DataSource);
    expect(await rds.query('PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const ids = new Set((await rds.query<Array<{ id: number }>>('SELECT id FROM employees')).map((r) => Number(r.id)));
    expect(before.filter((id) => !ids.has(id))).toEqual([]);
    // A snapshot: no employee without the history written in its own transaction.
    expect(
      await rds.query(
        'SELECT e.id FROM employees e WHERE NOT EXISTS (SELECT 1 FROM employment_changes h WHERE h.employee_id = e.id)',
      ),
    ).toEqual([]);
    // Writes after the copy's end are not in it.
    expect(ids.has(acknowledged[acknowledged.length - 1])).toBe(false);
    expect((await apiCaller(t.app)('GET', `/employees/${before[0]}`, admin)).statusCode).toBe(200);
  }, 120_000);

  it('refuses a damaged file, a newer release, MariaDB and an in-memory database, and says what to do', async () => {
    await t?.close();
    t = null;
    // The live database itself, by its name or through a link: refused, and the database stays whole.
    const live = join(dir, 'hr.sqlite');
    const link = join(dir, 'link-to-live.sqlite');
    symlinkSync(live, link);
    const sizeBefore = statSync(live).size;
    const kept = () => readdirSync(dir).filter((f) => f.includes('before-restore') || /\.restore-\d+$/.test(f));
    const keptBefore = kept();
    for (const self of [live, link, `./${relative(process.cwd(), live)}`]) {
      const r = await cli('db:restore', self);
      expect({ self, code: r.code, err: r.err }).toEqual({
        self,
        code: 1,
        err: expect.stringContaining('is the database itself'),
      });
    }
    expect(statSync(live).size).toBe(sizeBefore);
    expect(kept()).toEqual(keptBefore);
    expect((await cli('db:backup', join(dir, 'after-self.sqlite'))).code).toBe(0);
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'not a database at all'.repeat(400));
    expect(await cli('db:restore', junk)).toMatchObject({ code: 1 });
    expect((await cli('db:restore', join(dir, 'missing.sqlite'))).err).toContain('no file');

    const newer = join(dir, 'newer.sqlite');
    expect((await cli('db:backup', newer)).code).toBe(0);
    const conn = new Database(newer);
    conn.prepare('INSERT INTO migrations (timestamp, name) VALUES (?, ?)').run(1999999999999, 'FromTheFuture1999999999999');
    conn.close();
    const before = existsSync(join(dir, 'hr.sqlite'));
    expect(await cli('db:restore', newer)).toMatchObject({ code: 1, err: expect.stringContaining('newer release') });
    expect(existsSync(join(dir, 'hr.sqlite'))).toBe(before);

    const maria = captureIo();
    expect(await runCli(['db:backup', join(dir, 'm.sql')], maria.io, { DATABASE_URL: 'mysql://u:p@127.0.0.1:3306/hr' })).toBe(1);
    expect(maria.err.join('\n')).toContain('mariadb-dump --single-transaction');
    const memory = captureIo();
    expect(await runCli(['db:backup', join(dir, 'x.sqlite')], memory.io, { DATABASE_URL: 'sqlite::memory:' })).toBe(1);
    expect(memory.err.join('\n')).toContain('in-memory');
    expect((await cli('db:backup')).code).toBe(2);
  });
});
