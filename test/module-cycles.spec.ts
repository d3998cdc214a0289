import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** scripts/module-cycles.mjs, run by `npm run lint`, on a source tree. */
function check(srcDir: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [join(__dirname, '..', 'scripts', 'module-cycles.mjs'), srcDir, ...args], {
    encoding: 'utf8',
  });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('no import cycle between the modules of src/ (scripts/module-cycles.mjs)', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cycles-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('src/ has none, and the kudos fixture imports only what the modules of src/ declare public', () => {
    expect(check(join(__dirname, '..', 'src'), '--module', join(__dirname, 'fixtures', 'kudos'))).toMatchObject({ status: 0 });
  });

  it('holds a module kept outside src/ (--module) to what the modules of src/ declare public', () => {
    write('src/a/public.json', '{ "public": ["a.service"] }');
    write('src/a/a.service.ts', 'export const A = 1;\n');
    write('src/a/a.repository.ts', 'export const R = 1;\n');
    write('kudos/kudos.module.ts', "import { A } from '../src/a/a.service';\nimport { R } from '../src/a/a.repository';\n");
    const r = check(join(dir, 'src'), '--module', join(dir, 'kudos'));
    expect(r.status).toBe(1);
    expect(r.out).toContain('imports a/a.repository, which a does not declare public');
    expect(r.out).not.toContain('a/a.service,');
  });

  it('refuses a planted cycle through three modules, naming a file per edge; neither the composition root nor a module importing itself counts', () => {
    write('app.module.ts', "import { A } from './a/a';\nimport { C } from './c/c';\n");
    write('a/a.ts', "import { B } from '../b/b.service';\nimport { X } from './x';\n");
    write('a/x.ts', "import { A } from './a';\n");
    write('b/b.service.ts', "export { C } from '../c/c';\n");
    write('c/c.ts', "const a = () => import('../a/x');\n");
    write('d/d.ts', "import { A } from '../a/a';\n");
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('import cycle between modules: a, b, c');
    expect(r.out).toContain('a -> b (a/a.ts)');
    expect(r.out).toContain('c -> a (c/c.ts)');
    expect(r.out).not.toContain('d -> a');
  });

  it('refuses a subscriber of the outbox (notifications, tasks) importing a producing module, even without a cycle', () => {
    write('notifications/n.ts', "import { L } from '../leave/leave.service';\nimport { U } from '../users/users.service';\n");
    write('leave/leave.service.ts', 'export const L = 1;\n');
    write('users/users.service.ts', 'export const U = 1;\n');
    for (const m of ['leave', 'users']) write(`${m}/public.json`, '{ "public": ["**"] }');
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('notifications imports leave (notifications/n.ts)');
    expect(r.out).not.toContain('imports users');
  });

  it('refuses a subscriber importing any module beyond the platform, one listed nowhere included (issue 64: approvals was missing)', () => {
    write(
      'tasks/t.ts',
      "import { A } from '../approvals/approvals.service';\nimport { S } from '../settings/settings.service';\n",
    );
    write('approvals/approvals.service.ts', 'export const A = 1;\n');
    write('settings/settings.service.ts', 'export const S = 1;\n');
    for (const m of ['approvals', 'settings']) write(`${m}/public.json`, '{ "public": ["**"] }');
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('tasks imports approvals (tasks/t.ts)');
    expect(r.out).not.toContain('imports settings');
  });

  it('passes the same tree once the back edge is gone', () => {
    write('a/a.ts', "import { B } from '../b/b';\n");
    write('b/b.ts', "import { C } from '../c/c';\n");
    write('c/c.ts', 'export const c = 1;\n');
    write('b/public.json', '{ "public": ["b"] }');
    write('c/public.json', '{ "public": ["c"] }');
    expect(check(dir)).toMatchObject({ status: 0 });
  });

  it("refuses an import of another module's file it does not declare public (issue 64); its module file, a listed file or folder pass", () => {
    write('a/public.json', '{ "public": ["a.service", "dto/"] }');
    write('a/a.module.ts', 'export class AModule {}\n');
    write('a/a.service.ts', 'export const A = 1;\n');
    write('a/dto/a.dto.ts', 'export class ADto {}\n');
    write('a/internal/x.ts', 'export const X = 1;\n');
    write(
      'b/b.ts',
      "import { AModule } from '../a/a.module';\nimport { A } from '../a/a.service';\nimport { ADto } from '../a/dto/a.dto';\n",
    );
    expect(check(dir)).toMatchObject({ status: 0 });
    write('b/c.ts', "import { X } from '../a/internal/x';\nimport { Y } from '../d/y';\n");
    write('d/y.ts', 'export const Y = 1;\n');
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('b/c.ts imports a/internal/x, which a does not declare public');
    // A module without public.json declares nothing public.
    expect(r.out).toContain('b/c.ts imports d/y, which d does not declare public');
    expect(r.out).not.toContain('b/b.ts');
  });

  it('refuses two folders of one module importing each other both ways (issue 64 item 5); the module file and one-way imports pass', () => {
    write('pay/pay.module.ts', "import { R } from './runs/r';\nimport { C } from './config/c';\n");
    write('pay/pay.lists.ts', 'export const L = 1;\n');
    write('pay/config/c.ts', "import { T } from '../runs/types';\n");
    write('pay/runs/types.ts', 'export type T = 1;\n');
    write('pay/runs/r.ts', "import { C } from '../config/c';\nimport { L } from '../pay.lists';\n");
    write('pay/engine/e.ts', 'export const E = 1;\n');
    write('pay/entities/x.ts', "import { E } from '../engine/e';\n");
    const r = check(dir);
    expect(r.status).toBe(1);
    expect(r.out).toContain('folders importing each other both ways: pay:config<->runs (pay/config/c.ts; pay/runs/r.ts)');
    expect(r.out).not.toContain('pay:.<->');
    expect(r.out).not.toContain('engine');
  });
});
