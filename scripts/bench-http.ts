/**
 * Throughput of the platform's hot path, run by hand: `npm run build && node dist/scripts/bench-http.js`.
 * Serves the built app on a temporary SQLite file at 127.0.0.1:3990 and drives it with autocannon
 * (10 connections, 2 s warm-up then 10 s per route): the public echo (REST gate + envelope) and an authenticated
 * list (bearer lookup through the token cache + level guard + paging). Prints req/s and latency.
 * autocannon runs in the same process, sharing the cores: the figures understate a dedicated server.
 */
import 'reflect-metadata';
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.factory';
import { TokenService } from '../src/auth/token.service';
import { loadConfig } from '../src/config/config';
import { SettingsService } from '../src/settings/settings.service';
import { UsersService } from '../src/users/users.service';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'hr-bench-'));
  const config = loadConfig({ DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`, PORT: '3990', LOG_LEVEL: 'warn' });
  const app = await createApp(config);
  try {
    await app.get(SettingsService).set('Enable Rest Api', 'Yes');
    const admin = await app
      .get(UsersService)
      .create({ username: 'bench', email: 'bench@x.test', password: 'bench-Secret-1', level: 'Admin' });
    const token = (await app.get(TokenService).issue(admin)).access_token;
    await app.listen(config.port, config.host);
    const base = `http://${config.host}:${config.port}${config.apiPrefix}`;
    for (const [name, path, headers] of [
      ['GET /echo (public)', '/echo', {}],
      ['GET /settings (bearer, Admin)', '/settings', { authorization: `Bearer ${token}` }],
    ] as const) {
      await autocannon({ url: base + path, headers, connections: 10, duration: 2 }); // warm-up
      const r = await autocannon({ url: base + path, headers, connections: 10, duration: 10 });
      const non2xx = r.non2xx + r.errors;
      console.log(
        `${name.padEnd(32)} ${Math.round(r.requests.average)} req/s, latency p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, non-2xx ${non2xx}`,
      );
    }
    const mem = process.memoryUsage();
    console.log(`RSS after the run: ${Math.round(mem.rss / 1048576)} MiB, heap ${Math.round(mem.heapUsed / 1048576)} MiB`);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
