// SQL snapshots (issue 26): every repository method marked @RecordSql is called with its sample
// arguments on this run's database (SQLite under `npm test`, MariaDB under the integration run), and
// the statements it sends must equal sql/<dialect>/<Repository>.sql. A changed query fails here
// until its snapshot is rewritten (`npm run sql:update`, and under the integration environment for
// MariaDB), so the change shows in review as SQL.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { RecordedMethod, recordedMethods, recordStatements, SAMPLE_MANAGER } from '../src/common/database/record-sql';
import { createTestApp, TestApp } from './helpers/test-app';

const UPDATE = process.env.UPDATE_SQL === '1';
const ROOT = join(__dirname, '..', 'sql');

/** One statement a line per clause, for a readable diff. */
export function formatStatement(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/ (FROM|WHERE|INNER JOIN|LEFT JOIN|GROUP BY|ORDER BY|LIMIT|VALUES|SET|UNION ALL|UNION) /g, '\n  $1 ');
}

/** The snapshot files' text, by repository class name. */
export async function recordSnapshots(app: TestApp['app'], methods: readonly RecordedMethod[]): Promise<Map<string, string>> {
  const ds = app.get(DataSource);
  const files = new Map<string, string[]>();
  // Writes run on one connection without foreign key checks, on this suite's own database.
  const runner = ds.createQueryRunner();
  await runner.query(ds.options.type === 'mysql' ? 'SET FOREIGN_KEY_CHECKS = 0' : 'PRAGMA foreign_keys = OFF');
  for (const m of methods) {
    const repository = app.get<unknown, Record<string, (...args: unknown[]) => Promise<unknown>>>(m.target, { strict: false });
    const args = m.args.map((a) => (a === SAMPLE_MANAGER ? runner.manager : a));
    // A method given the caller's manager runs in the caller's transaction (a row lock needs one).
    const inTransaction = m.args.includes(SAMPLE_MANAGER);
    if (inTransaction) await runner.startTransaction();
    const statements = await recordStatements(ds, () => repository[m.method](...args));
    if (inTransaction) await runner.commitTransaction();
    if (!statements.length) throw new Error(`${m.target.name}.${m.method} sent no statement with its sample arguments`);
    const name = `${m.target.name}.${m.method}${m.label ? ` (${m.label})` : ''}`;
    // Sorted: statements sent in parallel (a page and its count) reach the log in the order their connections come.
    const text = `-- ${name}\n${statements.map(formatStatement).sort().join(';\n')};\n`;
    files.set(m.target.name, [...(files.get(m.target.name) ?? []), text]);
  }
  await runner.release();
  return new Map([...files].map(([name, parts]) => [name, parts.sort().join('\n')]));
}

describe('SQL snapshots', () => {
  let t: TestApp;
  let dialect: string;
  let recorded: Map<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    dialect = t.config.database.type === 'mysql' ? 'mysql' : 'sqlite';
    recorded = await recordSnapshots(t.app, recordedMethods());
    if (UPDATE) {
      mkdirSync(join(ROOT, dialect), { recursive: true });
      for (const file of readdirSync(join(ROOT, dialect)))
        if (!recorded.has(file.replace(/\.sql$/, ''))) throw new Error(`remove ${file}`);
      for (const [name, text] of recorded) writeFileSync(join(ROOT, dialect, `${name}.sql`), text);
    }
  });
  afterAll(() => t.close());

  it('records the repositories of every module that runs SQL', () => {
    expect([...recorded.keys()].sort()).toEqual(
      expect.arrayContaining([
        'AttendanceRepository',
        'EmployeesRepository',
        'InsightsRepository',
        'LeaveRepository',
        'PayrollRunsRepository',
        'ReferenceRepository',
        'TimesheetsRepository',
        'OutboxRepository',
      ]),
    );
  });

  it('matches every snapshot of this dialect, and no snapshot is left without its repository', () => {
    const dir = join(ROOT, dialect);
    const stale: string[] = [];
    for (const [name, text] of recorded) {
      const file = join(dir, `${name}.sql`);
      const saved = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (saved !== text) stale.push(name);
      // The difference itself, for the one who changed a query.
      expect({ file: `sql/${dialect}/${name}.sql`, text }).toEqual({ file: `sql/${dialect}/${name}.sql`, text: saved });
    }
    const orphans = readdirSync(dir).filter((f) => !recorded.has(f.replace(/\.sql$/, '')));
    expect(orphans).toEqual([]);
    expect(stale).toEqual([]);
  });
});
