import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describeIf, NEEDS_LINT } from './helpers/skip';

/** The project's lint rules (eslint.config.mjs) on planted code: each refuses what it is for. */
function lint(texts: Array<{ filePath: string; code: string }>): Array<Array<[string | null, string]>> {
  const r = spawnSync(process.execPath, [join(__dirname, 'helpers', 'lint-text.mjs')], {
    input: JSON.stringify(texts),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Array<Array<[string | null, string]>>;
}

// ESLint with type information takes 7-13 s of CPU: .ci/run's lint step runs it, npm test does not.
describeIf(process.env.HR_TEST_LINT === '1', NEEDS_LINT)('lint rules (eslint.config.mjs)', () => {
  it('refuses SQL of any statement kind in a service, and a UTC slice of now for today in src/ (issue 64)', () => {
    const service = (body: string) => ({
      filePath: 'src/approvals/zz-fixture.service.ts',
      code: `export class Fixture {\n  run(): string {\n    ${body}\n  }\n}\n`,
    });
    const [pragma, truncate, update, message, today, stamp] = lint([
      service("return 'PRAGMA foreign_keys = ON';"),
      service('return `TRUNCATE TABLE approvals`;'),
      service("return 'UPDATE approvals SET status = ?';"),
      service("return 'Create a policy first';"),
      service('return new Date().toISOString().slice(0, 10);'),
      service('return new Date().toISOString().slice(0, 19);'),
    ]);
    const sql = "SQL text in a service: put the statement in this module's repository (*.repository.ts).";
    expect(pragma).toEqual([['no-restricted-syntax', sql]]);
    expect(truncate).toEqual([['no-restricted-syntax', sql]]);
    expect(update.map(([rule]) => rule)).toContain('no-restricted-syntax');
    expect(message).toEqual([]);
    expect(today).toEqual([
      [
        'no-restricted-syntax',
        "Today is the company's day: CompanyClock.today() (src/common/time/company-clock.ts), not a UTC slice of new Date().",
      ],
    ]);
    expect(stamp).toEqual([]); // an instant's text, not a day
  }, 60_000);
});
