import { totpCode } from '../src/auth/mfa/totp';
import { SettingsService } from '../src/settings/settings.service';
import { apiCaller, createTestApp, createUser, TestApp } from './helpers/test-app';

/** TOTP second factor (docs/api/decisions.md §23): enrolment, sign-in in two steps, replay, limits, Require MFA. */
describe('Two-factor sign-in (TOTP)', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_USERNAME: '6', LOGIN_RATE_LIMIT_PER_ADDRESS: '1000', TOKEN_CACHE_MS: '2000' });
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  const token = (payload: Record<string, unknown>) => t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload });
  const password = (u: { user: { username: string }; password: string }) =>
    token({ grant_type: 'password', username: u.user.username, password: u.password });
  /** A code of the next step: the one enrolment used is then not a replay. */
  const codeAt = (secret: string, stepsAhead: number) => totpCode(secret, Date.now() + stepsAhead * 30_000);

  async function enrolled(level: 'Admin' | 'Employee' = 'Employee') {
    const u = await createUser(t.app, level);
    const start = await call('POST', '/users/me/mfa/totp', u.token);
    expect(start.statusCode).toBe(200);
    const { secret, otpauth_url } = start.json().data;
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\//);
    const confirm = await call('POST', '/users/me/mfa/totp/confirm', u.token, { code: codeAt(secret, -1) });
    expect(confirm.statusCode).toBe(200);
    const codes: string[] = confirm.json().data.recovery_codes;
    return { ...u, secret, codes };
  }

  it('enrols with a first code, gives ten distinct recovery codes, then asks for a code at sign-in', async () => {
    const u = await enrolled();
    expect(new Set(u.codes).size).toBe(10);
    expect((await call('GET', '/users/me/mfa', u.token)).json().data).toEqual({
      totp: 'enabled',
      confirmed_at: expect.any(String),
      recovery_codes_left: 10,
      required: false,
    });
    const first = await password(u);
    expect(first.statusCode).toBe(401);
    const error = first.json().error;
    expect(error.code).toBe('MFA_REQUIRED');
    const mfaToken = error.details[0].mfa_token;
    expect(mfaToken).toMatch(/^hrm_/);
    // The challenge is not an access token.
    expect((await call('GET', '/users/me/mfa', mfaToken)).statusCode).toBe(401);
    const second = await token({ grant_type: 'mfa_otp', mfa_token: mfaToken, otp: codeAt(u.secret, 0) });
    expect(second.statusCode).toBe(200);
    expect((await call('GET', '/users/me/mfa', second.json().access_token)).statusCode).toBe(200);
    // The challenge is used up.
    const again = await token({ grant_type: 'mfa_otp', mfa_token: mfaToken, otp: codeAt(u.secret, 1) });
    expect(again.json().error.code).toBe('INVALID_GRANT');
  });

  it('accepts a code once: the same code on a second sign-in is refused', async () => {
    const u = await enrolled();
    const code = codeAt(u.secret, 0);
    const one = (await password(u)).json().error.details[0].mfa_token;
    const two = (await password(u)).json().error.details[0].mfa_token;
    expect((await token({ grant_type: 'mfa_otp', mfa_token: one, otp: code })).statusCode).toBe(200);
    const replay = await token({ grant_type: 'mfa_otp', mfa_token: two, otp: code });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('INVALID_CREDENTIALS');
    // The enrolment's own code (an earlier step) is no good either.
    expect((await token({ grant_type: 'mfa_otp', mfa_token: two, otp: codeAt(u.secret, -1) })).statusCode).toBe(401);
  });

  it('takes a recovery code once, in place of a code', async () => {
    const u = await enrolled();
    const challenge = (await password(u)).json().error.details[0].mfa_token;
    expect(
      (await token({ grant_type: 'mfa_otp', mfa_token: challenge, recovery_code: u.codes[3].toUpperCase() })).statusCode,
    ).toBe(200);
    const next = (await password(u)).json().error.details[0].mfa_token;
    expect((await token({ grant_type: 'mfa_otp', mfa_token: next, recovery_code: u.codes[3] })).statusCode).toBe(401);
    expect(
      (
        await call(
          'GET',
          '/users/me/mfa',
          (await token({ grant_type: 'mfa_otp', mfa_token: next, recovery_code: u.codes[4] })).json().access_token,
        )
      ).json().data.recovery_codes_left,
    ).toBe(8);
  });

  it('counts wrong codes against the same per-user limit as wrong passwords', async () => {
    const u = await enrolled();
    // The confirmation code (1 of 6), two sign-ins with the right password (3), two wrong codes (5), one wrong password (6).
    const challenge = (await password(u)).json().error.details[0].mfa_token;
    expect((await password(u)).statusCode).toBe(401);
    for (let i = 0; i < 2; i += 1)
      expect((await token({ grant_type: 'mfa_otp', mfa_token: challenge, otp: '000000' })).json().error.code).toBe(
        'INVALID_CREDENTIALS',
      );
    expect((await token({ grant_type: 'password', username: u.user.username, password: 'wrong-password' })).statusCode).toBe(401);
    // Now the right code is refused too: the user's allowance is spent.
    const limited = await token({ grant_type: 'mfa_otp', mfa_token: challenge, otp: codeAt(u.secret, 0) });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await password(u)).statusCode).toBe(429);
  });

  it('refuses malformed second steps with 400 and a forged challenge with INVALID_GRANT', async () => {
    const u = await enrolled();
    const challenge = (await password(u)).json().error.details[0].mfa_token;
    expect((await token({ grant_type: 'mfa_otp', otp: '123456' })).json().error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: [{ field: 'mfa_token' }],
    });
    expect((await token({ grant_type: 'mfa_otp', mfa_token: challenge })).statusCode).toBe(400);
    expect((await token({ grant_type: 'mfa_otp', mfa_token: challenge, otp: '12345' })).statusCode).toBe(400);
    expect((await token({ grant_type: 'mfa_otp', mfa_token: 'hrm_forged', otp: '123456' })).json().error.code).toBe(
      'INVALID_GRANT',
    );
  });

  it('refuses a wrong confirmation code, a second enrolment, and removal without a valid code', async () => {
    const u = await createUser(t.app, 'Employee');
    const { secret } = (await call('POST', '/users/me/mfa/totp', u.token)).json().data;
    const wrong = await call('POST', '/users/me/mfa/totp/confirm', u.token, { code: '000000' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('INVALID_CODE');
    expect((await call('GET', '/users/me/mfa', u.token)).json().data.totp).toBe('pending');
    // Pending: the password alone still signs in.
    expect((await password(u)).statusCode).toBe(200);
    expect((await call('POST', '/users/me/mfa/totp/confirm', u.token, { code: codeAt(secret, 0) })).statusCode).toBe(200);
    expect((await call('POST', '/users/me/mfa/totp', u.token)).json().error.code).toBe('MFA_ALREADY_ENROLLED');
    expect((await call('DELETE', '/users/me/mfa', u.token, { code: 'nope-nope1' })).json().error.code).toBe('INVALID_CODE');
    const removed = await call('DELETE', '/users/me/mfa', u.token, { code: codeAt(secret, 1) });
    expect(removed.json()).toEqual({ status: 'SUCCESS', data: { removed: true } });
    expect((await password(u)).statusCode).toBe(200);
  });

  it('Require MFA: a user of the level without a factor reaches only enrolment until it has one', async () => {
    const admin = await createUser(t.app, 'Admin');
    const manager = await createUser(t.app, 'Manager');
    await t.app.get(SettingsService).set('Require MFA', 'Manager');
    try {
      await new Promise((r) => setTimeout(r, 2100)); // the token cache (TOKEN_CACHE_MS) of the earlier requests
      const session = (await password(manager)).json().access_token;
      const refused = await call('GET', '/employees', session);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('MFA_ENROLMENT_REQUIRED');
      expect((await call('GET', '/users/me/mfa', session)).json().data).toMatchObject({ totp: 'none', required: true });
      const { secret } = (await call('POST', '/users/me/mfa/totp', session)).json().data;
      expect((await call('POST', '/users/me/mfa/totp/confirm', session, { code: codeAt(secret, 0) })).statusCode).toBe(200);
      expect((await call('GET', '/employees', session)).statusCode).toBe(200);
      // Admins are not named: unaffected.
      expect((await call('GET', '/employees', admin.token)).statusCode).toBe(200);
      // An Admin resets the lost factor: the Manager is back to enrolment only.
      expect((await call('DELETE', `/users/${manager.user.id}/mfa`, admin.token)).statusCode).toBe(200);
      expect((await call('GET', '/employees', session)).json().error.code).toBe('MFA_ENROLMENT_REQUIRED');
      expect((await call('DELETE', `/users/${manager.user.id}/mfa`, admin.token)).statusCode).toBe(404);
      expect((await call('DELETE', `/users/${admin.user.id}/mfa`, manager.token)).statusCode).toBe(403);
    } finally {
      await t.app.get(SettingsService).set('Require MFA', '');
    }
  });

  it('Require SSO: the password grant of a named level answers 401 SSO_REQUIRED, after the password is checked', async () => {
    const manager = await createUser(t.app, 'Manager');
    const employee = await createUser(t.app, 'Employee');
    await t.app.get(SettingsService).set('Require SSO', 'Manager,Admin');
    try {
      const refused = await password(manager);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('SSO_REQUIRED');
      // A wrong password says nothing about the level.
      expect(
        (await token({ grant_type: 'password', username: manager.user.username, password: 'wrong-one1' })).json().error.code,
      ).toBe('INVALID_CREDENTIALS');
      expect((await password(employee)).statusCode).toBe(200);
    } finally {
      await t.app.get(SettingsService).set('Require SSO', '');
    }
  });

  it('keeps the audit log of enrolment and removal without the secret', async () => {
    const admin = await createUser(t.app, 'Admin');
    const u = await enrolled();
    const entries = (
      await call(
        'GET',
        `/audit-log?filters=${encodeURIComponent(JSON.stringify({ resource: 'users', resource_id: String(u.user.id) }))}`,
        admin.token,
      )
    ).json().data;
    expect(entries.map((e: { action: string }) => e.action)).toContain('mfa_enrol');
    expect(JSON.stringify(entries)).not.toContain(u.secret);
  });
});
