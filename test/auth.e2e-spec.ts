import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { OAuthToken } from '../src/auth/entities/oauth-token.entity';
import { TokenService } from '../src/auth/token.service';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';
import { bearer, createTestApp, createUser, TestApp } from './helpers/test-app';

describe('Authentication: /oauth/token, /oauth/revoke, /users/me/password', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_RATE_LIMIT_PER_USERNAME: '5',
      LOGIN_RATE_LIMIT_PER_ADDRESS: '1000',
      TOKEN_CACHE_MS: '2000',
    });
  });
  afterAll(() => t.close());

  const token = (payload: Record<string, unknown> | string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload, headers });
  const settings = (tok: string) => t.app.inject({ method: 'GET', url: '/app/api/settings', headers: bearer(tok) });

  it('issues an RFC 6749 token pair for username + password, without the envelope', async () => {
    const u = await createUser(t.app, 'Admin');
    const res = await token({ grant_type: 'password', username: u.user.username, password: u.password, client_id: 'x' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      access_token: expect.stringMatching(/^hra_/),
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^hrr_/),
      scope: 'admin',
    });
    expect((await settings(body.access_token)).statusCode).toBe(200);
  });

  it('accepts the e-mail as username, any case, and a form-encoded body', async () => {
    const u = await createUser(t.app, 'Manager');
    const form = `grant_type=password&username=${encodeURIComponent(u.user.email.toUpperCase())}&password=${encodeURIComponent(u.password)}`;
    const res = await token(form, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.statusCode).toBe(200);
    expect(res.json().scope).toBe('manager');
  });

  it('answers unknown user and wrong password alike: 401 INVALID_CREDENTIALS', async () => {
    const u = await createUser(t.app, 'Employee');
    const wrong = await token({ grant_type: 'password', username: u.user.username, password: 'not-the-password' });
    const unknown = await token({ grant_type: 'password', username: 'nobody-here', password: 'whatever1' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().error.code).toBe('INVALID_CREDENTIALS');
  });

  it('rejects malformed requests and unknown grant types with 400', async () => {
    expect((await token({ username: 'a', password: 'b' })).json().error.code).toBe('INVALID_REQUEST');
    expect((await token({ grant_type: 'password', username: 'a' })).json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'password' }],
    });
    const grant = await token({ grant_type: 'client_credentials' });
    expect(grant.statusCode).toBe(400);
    expect(grant.json().error.code).toBe('UNSUPPORTED_GRANT_TYPE');
    expect((await token({ grant_type: 'password', username: 'a', password: 'b', admin: true })).statusCode).toBe(400);
    expect((await token({ grant_type: 5 })).statusCode).toBe(400);
  });

  it('answers 401 with WWW-Authenticate for a missing, unknown or malformed token', async () => {
    for (const headers of [{}, bearer('hra_unknown'), { authorization: 'Basic abc' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/app/api/settings', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
    }
  });

  it('does not accept a token in the query string', async () => {
    const u = await createUser(t.app, 'Admin');
    const res = await t.app.inject({ method: 'GET', url: `/app/api/settings?access_token=${u.token}` });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a level that the route does not allow with 403', async () => {
    const u = await createUser(t.app, 'Employee');
    const res = await settings(u.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
  });

  it('a refresh token works once; reusing it ends the whole grant', async () => {
    const u = await createUser(t.app, 'Admin');
    const first = (await token({ grant_type: 'password', username: u.user.username, password: u.password })).json();
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.statusCode).toBe(200);
    const pair = second.json();
    expect(pair.access_token).not.toBe(first.access_token);
    expect((await settings(pair.access_token)).statusCode).toBe(200);

    const again = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('INVALID_GRANT');
    // The replay revoked the grant: the new pair is dead too.
    expect((await token({ grant_type: 'refresh_token', refresh_token: pair.refresh_token })).statusCode).toBe(400);
    expect((await settings(pair.access_token)).statusCode).toBe(401);
  });

  it('an access token stops working after its TTL', async () => {
    const u = await createUser(t.app, 'Admin');
    const issued = await t.app.get(TokenService).issue(u.user, { accessTtlSec: 1 });
    expect((await settings(issued.access_token)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await settings(issued.access_token)).statusCode).toBe(401);
  });

  it('/oauth/revoke ends an access token at once, and a refresh token with its grant', async () => {
    const u = await createUser(t.app, 'Admin');
    const pair = (await token({ grant_type: 'password', username: u.user.username, password: u.password })).json();
    expect((await settings(pair.access_token)).statusCode).toBe(200); // now cached
    const revoke = await t.app.inject({ method: 'POST', url: '/app/api/oauth/revoke', payload: { token: pair.access_token } });
    expect(revoke.statusCode).toBe(200);
    expect(revoke.json()).toEqual({ status: 'SUCCESS', data: { revoked: true } });
    expect((await settings(pair.access_token)).statusCode).toBe(401);

    const other = (await token({ grant_type: 'password', username: u.user.username, password: u.password })).json();
    await t.app.inject({ method: 'POST', url: '/app/api/oauth/revoke', payload: { token: other.refresh_token } });
    expect((await settings(other.access_token)).statusCode).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: other.refresh_token })).statusCode).toBe(400);
    // Unknown tokens are accepted silently (RFC 7009); a missing token is a 400.
    expect((await t.app.inject({ method: 'POST', url: '/app/api/oauth/revoke', payload: { token: 'nope' } })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ method: 'POST', url: '/app/api/oauth/revoke', payload: {} })).statusCode).toBe(400);
  });

  it('a password change ends every other token of the user; the caller keeps working', async () => {
    const u = await createUser(t.app, 'Admin');
    const other = (await token({ grant_type: 'password', username: u.user.username, password: u.password })).json();
    expect((await settings(other.access_token)).statusCode).toBe(200);
    const change = await t.app.inject({
      method: 'POST',
      url: '/app/api/users/me/password',
      headers: bearer(u.token),
      payload: { current_password: u.password, new_password: 'a-new-Secret-9' },
    });
    expect(change.statusCode).toBe(200);
    expect(change.json()).toEqual({ status: 'SUCCESS', data: { changed: true } });
    expect((await settings(other.access_token)).statusCode).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: other.refresh_token })).statusCode).toBe(400);
    expect((await settings(u.token)).statusCode).toBe(200);
    expect((await token({ grant_type: 'password', username: u.user.username, password: u.password })).statusCode).toBe(401);
    expect((await token({ grant_type: 'password', username: u.user.username, password: 'a-new-Secret-9' })).statusCode).toBe(200);
  });

  it('rejects a wrong current password and a short new one with 400 naming the field', async () => {
    const u = await createUser(t.app, 'Employee');
    const change = (payload: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/app/api/users/me/password', headers: bearer(u.token), payload });
    const wrong = await change({ current_password: 'wrong-one-1', new_password: 'long-enough-1' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.details[0].field).toBe('current_password');
    const short = await change({ current_password: u.password, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details[0].field).toBe('new_password');
  });

  it('requires a temporary password to be changed before anything else works', async () => {
    const u = await createUser(t.app, 'Admin', { mustChangePassword: true });
    const blocked = await settings(u.token);
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const change = await t.app.inject({
      method: 'POST',
      url: '/app/api/users/me/password',
      headers: bearer(u.token),
      payload: { current_password: u.password, new_password: 'my-own-Secret-2' },
    });
    expect(change.statusCode).toBe(200);
    // The cached token still says "must change": the change clears this user's cache entries.
    expect((await settings(u.token)).statusCode).toBe(200);
  });

  it('ends the tokens of a deactivated or deleted user', async () => {
    const users = t.app.get<Repository<User>>(getRepositoryToken(User));
    const a = await createUser(t.app, 'Admin');
    const b = await createUser(t.app, 'Admin');
    await users.update({ id: a.user.id }, { active: false });
    await users.delete({ id: b.user.id });
    await t.app.get(TokenService).forgetUser(a.user.id);
    await t.app.get(TokenService).forgetUser(b.user.id);
    expect((await settings(a.token)).statusCode).toBe(401);
    expect((await settings(b.token)).statusCode).toBe(401);
    expect((await token({ grant_type: 'password', username: a.user.username, password: a.password })).statusCode).toBe(401);
  });

  it('rate limits sign-in per username with 429 and Retry-After', async () => {
    const u = await createUser(t.app, 'Employee');
    const attempts = [];
    for (let i = 0; i < 6; i++)
      attempts.push(await token({ grant_type: 'password', username: u.user.username, password: 'wrong-pass' }));
    expect(attempts.slice(0, 5).every((r) => r.statusCode === 401)).toBe(true);
    const limited = attempts[5];
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right password is refused until the window ends.
    expect((await token({ grant_type: 'password', username: u.user.username, password: u.password })).statusCode).toBe(429);
  });

  it('stores only token hashes, and no response or log line holds a password, hash or token', async () => {
    const u = await createUser(t.app, 'Admin');
    const res = await token({ grant_type: 'password', username: u.user.username, password: u.password });
    const issued = res.json();
    const rows = await t.app.get<Repository<OAuthToken>>(getRepositoryToken(OAuthToken)).find();
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(issued.access_token);
    expect(stored).not.toContain(issued.refresh_token);
    await settings(issued.access_token);
    const logs = t.logs.join('\n');
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(u.password);
    expect(logs).not.toContain(issued.access_token);
    expect(logs).not.toContain(issued.refresh_token);
    expect(logs).not.toContain('scrypt$');
    expect(res.body).not.toContain('scrypt$');
  });
});

describe('sign-in rate limit per address', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS: '3' })));
  afterAll(() => t.close());

  it('limits attempts from one address across usernames', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/app/api/oauth/token',
        payload: { grant_type: 'password', username: `someone${i}`, password: 'whatever-1' },
      });
      codes.push(res.statusCode);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });
});

describe('creating users concurrently', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answers 409 USERNAME_TAKEN to the loser of a race, never a 500', async () => {
    const users = t.app.get(UsersService);
    const make = (email: string) => users.create({ username: 'racer', email, password: 'long-enough-1', level: 'Employee' });
    const results = await Promise.allSettled([make('r1@x.test'), make('r2@x.test'), make('r3@x.test')]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
      expect(r.reason).toMatchObject({ code: 'USERNAME_TAKEN' });
    }
  });
});
