import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { apiCaller, createTestApp, createUser, TestApp } from './helpers/test-app';

/**
 * OpenID Connect sign-in (docs/api/decisions.md §23) against a real provider (oidc-provider) on loopback: the
 * authorization code flow with PKCE, state and nonce, a browser simulated by following redirects,
 * and the refusals of the issue: a forged ID token, a wrong audience, a replayed code, a state
 * that was not issued, a state issued to another browser; an unknown user.
 */
describe('OpenID Connect sign-in', () => {
  const PUBLIC_URL = 'http://hr.test';
  const CALLBACK = `${PUBLIC_URL}/app/api/auth/oidc/callback`;
  let provider: ChildProcess;
  let issuer: string;
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;

  /** The provider at its defaults (the e-mail at UserInfo only), or with the claims in the ID token too. */
  async function start(variant: string[]): Promise<void> {
    provider = spawn(
      process.execPath,
      [join(__dirname, 'helpers', 'oidc-provider.mjs'), CALLBACK, 'hr', 'hr-secret', ...variant],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    issuer = await new Promise<string>((resolve, reject) => {
      provider.stdout!.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { issuer: string }).issuer));
      provider.once('exit', (code) => reject(new Error(`the provider exited with ${code}`)));
    });
    t = await createTestApp({
      PUBLIC_URL,
      CORS_ORIGINS: 'https://spa.example',
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'hr',
      OIDC_CLIENT_SECRET: 'hr-secret',
      OIDC_ALLOW_HTTP: 'true',
      LOGIN_RATE_LIMIT_PER_ADDRESS: '1000',
    });
    call = apiCaller(t.app);
  }
  async function stop(): Promise<void> {
    await t?.close();
    provider?.kill();
  }
  beforeAll(() => start([]));
  afterAll(() => stop());

  const control = (path: string, body: object) =>
    fetch(`${issuer}/__test/${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  const cookieOf = (setCookie: string | string[] | undefined) => String([setCookie].flat()[0] ?? '').split(';')[0];

  /** The browser: our login, then the provider's redirects (its cookies kept) until it sends it back to us. */
  async function toCallback(sub: string, claims: object, query = '') {
    await control('login-as', { sub, claims });
    const start = await t.app.inject({ method: 'GET', url: `/app/api/auth/oidc/login${query}` });
    expect(start.statusCode).toBe(302);
    const browser = cookieOf(start.headers['set-cookie']);
    expect(browser).toMatch(/^hr_oidc=.{20,}/);
    const jar = new Map<string, string>();
    let location = String(start.headers.location);
    expect(location.startsWith(`${issuer}/auth?`)).toBe(true);
    expect(new URL(location).searchParams.get('code_challenge_method')).toBe('S256');
    for (let hops = 0; !location.startsWith(PUBLIC_URL); hops += 1) {
      if (hops > 10) throw new Error(`the provider never came back: ${location}`);
      const res = await fetch(new URL(location, issuer), {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
      location = res.headers.get('location') ?? '';
      if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
    }
    return { url: location.slice(PUBLIC_URL.length), browser };
  }
  const callback = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const tokenRows = async (userId: number) =>
    Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM oauth_tokens WHERE user_id = ?', [userId]))[0].n);

  const userinfoCalls = async () => ((await (await control('userinfo-calls', {})).json()) as { calls: number }).calls;

  it('signs in the user whose verified e-mail UserInfo gives (the provider at its defaults), then by its subject', async () => {
    const u = await createUser(t.app, 'Manager');
    const asked = await userinfoCalls();
    const back = await toCallback('sub-ada', { email: u.user.email.toUpperCase(), email_verified: true });
    const res = await callback(back.url, back.browser);
    expect([res.statusCode, res.statusCode === 200 ? null : res.json()]).toEqual([200, null]);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^hra_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^hrr_/),
      scope: 'manager',
    });
    expect((await call('GET', '/users/me/mfa', body.access_token)).statusCode).toBe(200);
    expect(await userinfoCalls()).toBe(asked + 1); // the ID token had no e-mail: UserInfo was asked
    // Linked: the next sign-in finds the user by its subject, whatever e-mail the provider sends now.
    const again = await toCallback('sub-ada', { email: 'someone.else@example.com', email_verified: true });
    expect((await callback(again.url, again.browser)).json().scope).toBe('manager');
  });

  it('refuses a user it does not know, and an e-mail the provider has not verified: nobody is created', async () => {
    const u = await createUser(t.app, 'Employee');
    const unknown = await toCallback('sub-nobody', { email: 'nobody@example.com', email_verified: true });
    const res = await callback(unknown.url, unknown.browser);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('UNKNOWN_USER');
    const unverified = await toCallback('sub-unverified', { email: u.user.email, email_verified: false });
    expect((await callback(unverified.url, unverified.browser)).json().error.code).toBe('UNKNOWN_USER');
    expect(await tokenRows(u.user.id)).toBe(2); // the pair createUser issued
  });

  it('finds a user SCIM provisioned from Entra ID by the oid claim (its externalId)', async () => {
    const u = await createUser(t.app, 'Employee');
    await t.app.get(DataSource).query('UPDATE users SET external_id = ? WHERE id = ?', ['aad-object-7', u.user.id]);
    const back = await toCallback('pairwise-sub-7', { oid: 'aad-object-7' });
    expect((await callback(back.url, back.browser)).json().scope).toBe('employee');
  });

  it('refuses a forged ID token and one for another audience: 401, nothing signed in', async () => {
    const u = await createUser(t.app, 'Employee');
    try {
      for (const mode of ['forge', 'audience']) {
        await control('mode', { mode });
        const back = await toCallback(`sub-${mode}`, { email: u.user.email, email_verified: true });
        const res = await callback(back.url, back.browser);
        expect({
          mode,
          status: res.statusCode,
          code: res.json().error?.code,
          body: res.statusCode === 401 ? null : res.body,
        }).toEqual({
          mode,
          status: 401,
          code: 'OIDC_REJECTED',
          body: null,
        });
      }
    } finally {
      await control('mode', { mode: null });
    }
    expect(await tokenRows(u.user.id)).toBe(2);
  });

  it('refuses a replayed callback, a state it did not issue and a state issued to another browser: 400', async () => {
    const u = await createUser(t.app, 'Employee');
    const back = await toCallback('sub-replay', { email: u.user.email, email_verified: true });
    const other = await toCallback('sub-replay', { email: u.user.email, email_verified: true });
    // Another browser: this browser's cookie with the other sign-in's callback, or no cookie at all.
    const foreign = await callback(other.url, back.browser);
    expect([foreign.statusCode, foreign.json().error.details[0].message]).toEqual([
      400,
      'the sign-in was started in another browser',
    ]);
    expect((await callback(other.url)).statusCode).toBe(400);
    // A state nobody issued.
    const forgedState = back.url.replace(/state=[^&]+/, 'state=not-issued-by-us');
    expect((await callback(forgedState, back.browser)).statusCode).toBe(400);
    expect((await callback(back.url, back.browser)).statusCode).toBe(200);
    // The same code and state again.
    const replay = await callback(back.url, back.browser);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('INVALID_REQUEST');
    expect(await tokenRows(u.user.id)).toBe(4); // createUser's pair, the one sign-in's pair
  });

  it('sends the browser to return_to with the tokens in the fragment; refuses another origin', async () => {
    const u = await createUser(t.app, 'Employee');
    const back = await toCallback(
      'sub-spa',
      { email: u.user.email, email_verified: true },
      `?return_to=${encodeURIComponent('https://spa.example/signed-in')}`,
    );
    const res = await callback(back.url, back.browser);
    expect(res.statusCode).toBe(302);
    const location = new URL(String(res.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe('https://spa.example/signed-in');
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('access_token')).toMatch(/^hra_/);
    expect((await call('GET', '/users/me/mfa', fragment.get('access_token')!)).statusCode).toBe(200);
    for (const bad of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)']) {
      const refused = await t.app.inject({ method: 'GET', url: `/app/api/auth/oidc/login?return_to=${encodeURIComponent(bad)}` });
      expect({ bad, status: refused.statusCode }).toEqual({ bad, status: 400 });
    }
  });

  describe('a provider that puts the claims in the ID token (Entra ID, Okta)', () => {
    beforeAll(async () => {
      await stop();
      await start(['--claims-in-id-token']);
    });

    it('signs in by the ID token’s e-mail without asking UserInfo', async () => {
      const u = await createUser(t.app, 'Employee');
      const back = await toCallback('sub-entra', { email: u.user.email, email_verified: true });
      const res = await callback(back.url, back.browser);
      expect([res.statusCode, res.json().scope]).toEqual([200, 'employee']);
      expect(await userinfoCalls()).toBe(0);
    });
  });
});
