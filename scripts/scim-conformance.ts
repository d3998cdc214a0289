/**
 * Microsoft's SCIM test collection (test/standards/scim, from AzureAD/SCIMReferenceCode), run with
 * newman against the built service: every folder and request except "Get Token" (the reference
 * server's own token route); the token is one `hr scim-tokens:issue` printed. A fresh installation
 * on a temporary SQLite file unless SCIM_DATABASE_URL names another (an empty MariaDB database):
 * the collection assumes an empty directory ("Get empty Users", "Results have 2 users").
 *
 *   npm run -s build && node dist/scripts/scim-conformance.js
 *
 * Exits 1 naming each failed request and assertion.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
/** Kept in the repository (test/standards/scim, MIT), so a clean clone runs it. */
const COLLECTION =
  process.env.SCIM_COLLECTION ?? join(ROOT, 'test', 'standards', 'scim', 'microsoft-scim-postman-collection.json');

interface NewmanSummary {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: Array<{ error: { test?: string; message: string }; source?: { name?: string } }>;
  };
}
type Newman = { run(options: object, done: (err: Error | null, summary: NewmanSummary) => void): void };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function main(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'scim-'));
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    TZ: 'UTC',
    DATABASE_URL: process.env.SCIM_DATABASE_URL ?? `sqlite:${join(dir, 'hr.sqlite')}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
  };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [join(ROOT, 'dist', 'src', 'cli.js'), ...args], { env, encoding: 'utf8' }).trim();
  cli('db:migrate');
  cli('settings:set', 'Enable Rest Api', 'Yes');
  const token = cli('scim-tokens:issue', '--name', 'Microsoft SCIM test collection');
  const server = spawn(process.execPath, [join(ROOT, 'dist', 'src', 'main.js')], {
    env: { ...env, MIGRATIONS_RUN: 'false' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const live = await fetch(`http://127.0.0.1:${port}/app/api/health/live`).then(
        (r) => r.ok,
        () => false,
      );
      if (live) break;
      if (Date.now() > deadline) throw new Error('the service did not answer /health/live within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    const collection = JSON.parse(readFileSync(COLLECTION, 'utf8')) as { item: Array<{ name: string }> };
    collection.item = collection.item.filter((i) => i.name !== 'Get Token');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const newman = require('newman') as Newman;
    const summary = await new Promise<NewmanSummary>((resolve, reject) =>
      newman.run(
        {
          collection,
          envVar: [
            { key: 'Protocol', value: 'http' },
            { key: 'Server', value: '127.0.0.1' },
            { key: 'Port', value: `:${port}` },
            { key: 'Api', value: 'app/api/scim/v2' },
            { key: 'token', value: token },
          ],
          reporters: ['cli'],
        },
        (err, result) => (err ? reject(err) : resolve(result)),
      ),
    );
    const { requests, assertions } = summary.run.stats;
    console.log(`SCIM collection: ${requests.total} requests, ${assertions.total} assertions, ${assertions.failed} failed`);
    for (const f of summary.run.failures)
      console.log(`FAILED ${f.source?.name ?? '?'}: ${f.error.test ?? ''}: ${f.error.message}`);
    return summary.run.failures.length || requests.failed ? 1 : 0;
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
