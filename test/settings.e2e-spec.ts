import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../src/cli/run-cli';
import { transaction } from '../src/common/database/transaction';
import { TIME_ZONE } from '../src/settings/settings.registry';
import { SettingsService } from '../src/settings/settings.service';
import { INTEGRATION, TestApp, bearer, captureIo, createTestApp, createUser, until } from './helpers/test-app';

describe('the "Enable Rest Api" gate', () => {
  let dir: string;
  let t: TestApp;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'hr-gate-'));
    // A database file shared by the running app and the CLI, as in production.
    const db = INTEGRATION ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'hr.sqlite')}`;
    env = { DATABASE_URL: db, LOG_LEVEL: 'warn' };
    t = await createTestApp({ DATABASE_URL: db, SETTINGS_CACHE_MS: '2000' }, { enableApi: false });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('answers 503 API_DISABLED on every route under the base, known or not, with how to enable it', async () => {
    for (const url of ['/app/api/echo', '/app/api/employees', '/app/api/settings', '/app/api/openapi.json']) {
      const res = await get(url);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('API_DISABLED');
      expect(res.json().error.message).toContain('hr settings:set "Enable Rest Api" Yes');
    }
    const token = await t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload: { grant_type: 'password' } });
    expect(token.statusCode).toBe(503);
  });

  it('keeps the health probes answering', async () => {
    expect((await get('/app/api/health/live')).statusCode).toBe(200);
    expect((await get('/app/api/health/ready')).statusCode).toBe(200);
  });

  it('opens within the cache time after the CLI enables it in another connection, without a restart', async () => {
    const c = captureIo();
    expect(await runCli(['settings:set', 'Enable Rest Api', 'Yes'], c.io, env)).toBe(0);
    expect(c.out).toEqual(['Enable Rest Api = Yes']);
    const waited = await until(async () => (await get('/app/api/echo')).statusCode === 200, 5000);
    expect(waited).toBeLessThanOrEqual(5000);

    const g = captureIo();
    expect(await runCli(['settings:get', 'enable rest api'], g.io, env)).toBe(0);
    expect(g.out).toEqual(['Yes']);
  });

  it('lets an Admin read and change settings, and nobody else', async () => {
    const admin = await createUser(t.app, 'Admin');
    const manager = await createUser(t.app, 'Manager');
    const list = await t.app.inject({ method: 'GET', url: '/app/api/settings', headers: bearer(admin.token) });
    expect(list.json().data).toEqual(
      expect.arrayContaining([
        { name: 'Enable Rest Api', value: 'Yes', group: 'Other', description: expect.any(String), allowed_values: ['Yes', 'No'] },
      ]),
    );
    const put = (token: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: '/app/api/settings', headers: bearer(token), payload: payload as object });
    const ok = await put(admin.token, { name: 'Company Name', value: 'Acme' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toMatchObject({ name: 'Company Name', value: 'Acme' });
    expect((await put(manager.token, { name: 'Company Name', value: 'Evil' })).statusCode).toBe(403);

    const badValue = await put(admin.token, { name: 'Enable Rest Api', value: 'Maybe' });
    expect(badValue.statusCode).toBe(400);
    expect(badValue.json().error.details[0].field).toBe('value');
    const unknown = await put(admin.token, { name: 'Make Coffee', value: 'Yes' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.details[0].field).toBe('name');
    // Nothing changed by the rejected calls.
    const after = await t.app.inject({ method: 'GET', url: '/app/api/settings', headers: bearer(admin.token) });
    expect(after.json().data.find((s: { name: string }) => s.name === 'Company Name').value).toBe('Acme');
  });

  it('closes again when an Admin turns it off through the API', async () => {
    const admin = await createUser(t.app, 'Admin');
    const off = await t.app.inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: bearer(admin.token),
      payload: { name: 'Enable Rest Api', value: 'No' },
    });
    expect(off.statusCode).toBe(200);
    // The change clears this process's cache at once.
    expect((await get('/app/api/echo')).statusCode).toBe(503);
  });
});

describe('settings read inside a transaction', () => {
  it('do not wait for a load begun outside it, which waits for the transaction (SQLite: it never ended)', async () => {
    const t = await createTestApp({ SETTINGS_CACHE_MS: '0' });
    try {
      const settings = t.app.get(SettingsService);
      const ds = t.app.get(DataSource);
      let opened!: () => void;
      const open = new Promise<void>((r) => (opened = r));
      let outside: Promise<string> | null = null;
      const inside = transaction(ds, async (em) => {
        await em.query('SELECT 1');
        opened();
        // A request outside the transaction reloads the settings meanwhile (on SQLite its read waits for this transaction).
        await new Promise((r) => setTimeout(r, 20));
        return settings.get(TIME_ZONE);
      });
      await open;
      outside = settings.get(TIME_ZONE);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((r) => (timer = setTimeout(() => r('timed out'), 3000)));
      expect(await Promise.race([inside, timeout]).finally(() => clearTimeout(timer))).toBe('UTC');
      expect(await outside).toBe('UTC');
    } finally {
      await t.close();
    }
  });
});
