import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, NodeProcess } from './helpers/node-process';
import { freePort } from './helpers/private-services';
import { INTEGRATION, sleep } from './helpers/test-app';

/**
 * `API_PROCESSES=2` as `npm start` runs it (the built service; in test:integration, after its
 * build). node:cluster hands each new connection to the next process; a client keeps its
 * keep-alive connections, so those opened while the first process was alone stayed on it (the
 * soak's 100 sign-ins right after readiness: one process at 140 % CPU, the other idle). Readiness
 * now waits for every process.
 */
describeIf(INTEGRATION, NEEDS_SERVERS)('API_PROCESSES=2', () => {
  let dir: string;
  let api: NodeProcess | null = null;
  beforeAll(() => {
    if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/src/main.js is missing: npm run build');
    dir = mkdtempSync(join(tmpdir(), 'hr-cluster-'));
  });
  afterAll(async () => {
    await api?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('/health/ready answers 200 only once every HTTP process listens', async () => {
    const port = await freePort();
    api = new NodeProcess('main', {
      DATABASE_URL: `sqlite:${join(dir, 'hr.sqlite')}`,
      MIGRATIONS_RUN: 'true',
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PROCESSES: '2',
    });
    const answers: number[] = [];
    let readyAt = 0;
    for (const started = Date.now(); !readyAt && Date.now() - started < 60_000;) {
      const res = await fetch(`http://127.0.0.1:${port}/app/api/health/ready`, { headers: { connection: 'close' } }).catch(
        () => null,
      );
      if (res) answers.push(res.status);
      if (res?.status === 200) readyAt = Date.now();
      else await sleep(20);
    }
    expect(readyAt).toBeGreaterThan(0);
    await api.logged('HTTP processes listening');
    const line = api.lines.find((l) => l.includes('"HTTP processes listening"')) as string;
    const allListening = Date.parse((JSON.parse(line) as { time: string }).time);
    // The first process answered meanwhile, not ready while the second was starting.
    expect(answers).toContain(503);
    expect(readyAt).toBeGreaterThanOrEqual(allListening);
  }, 90_000);
});
