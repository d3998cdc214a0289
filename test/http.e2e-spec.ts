import { notificationKindSettings } from '../src/notifications/notification-kinds';
import { SETTINGS } from '../src/settings/settings.registry';

/** The platform's settings and those notifications/ registers at start. */
const SETTINGS_COUNT = SETTINGS.length + notificationKindSettings().length;
import { DataSource } from 'typeorm';
import { createTestApp, createUser, bearer, TestApp } from './helpers/test-app';

describe('HTTP layer: envelopes, errors, request ids, limits, headers', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ CORS_ORIGINS: 'https://hr.example.com', BODY_LIMIT: '1mb' });
    admin = (await createUser(t.app, 'Admin')).token;
  });
  afterAll(() => t.close());

  const inject = (opts: Parameters<TestApp['app']['inject']>[0]) => t.app.inject(opts);

  it('GET /echo answers the success envelope with a new random number each call', async () => {
    const a = await inject({ method: 'GET', url: '/app/api/echo' });
    const b = await inject({ method: 'GET', url: '/app/api/echo' });
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
    const body = a.json();
    expect(body).toEqual({ status: 'SUCCESS', data: { echo: `Echo ${body.data.random}`, random: expect.any(Number) } });
    expect(Number.isInteger(body.data.random)).toBe(true);
    expect(b.json().data.random).not.toBe(body.data.random);
  });

  it('lists carry total, page, limit and nextPage beside data', async () => {
    const res = await inject({ method: 'GET', url: '/app/api/settings?limit=1', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'SUCCESS', total: SETTINGS_COUNT, page: 1, limit: 1, nextPage: 2 });
    expect(body.data).toHaveLength(1);
    const lastPage = SETTINGS_COUNT;
    const last = await inject({ method: 'GET', url: `/app/api/settings?limit=1&page=${lastPage}`, headers: bearer(admin) });
    expect(last.json()).toMatchObject({ page: lastPage, nextPage: null });
    expect(last.json().data).toHaveLength(1);
  });

  it('rejects out-of-range paging and unknown sort fields with 400 naming the parameter', async () => {
    const tooBig = await inject({ method: 'GET', url: '/app/api/settings?limit=501', headers: bearer(admin) });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'limit' }] });
    const zero = await inject({ method: 'GET', url: '/app/api/settings?page=0', headers: bearer(admin) });
    expect(zero.json().error.details[0].field).toBe('page');
    const sort = await inject({ method: 'GET', url: '/app/api/settings?sortField=password', headers: bearer(admin) });
    expect(sort.statusCode).toBe(400);
    expect(sort.json().error.details[0].field).toBe('sortField');
    const order = await inject({ method: 'GET', url: '/app/api/settings?sortOrder=up', headers: bearer(admin) });
    expect(order.json().error.details[0].field).toBe('sortOrder');
  });

  it('answers an unknown route with 404 in the error envelope', async () => {
    const res = await inject({ method: 'GET', url: '/app/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ status: 'ERROR', error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('answers outside the base path with 404 too', async () => {
    const res = await inject({ method: 'GET', url: '/echo' });
    expect(res.statusCode).toBe(404);
    expect(res.json().status).toBe('ERROR');
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    const res = await inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      payload: '{"name": "Company Name", ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('INVALID_JSON');
  });

  it('answers a body over BODY_LIMIT with 413', async () => {
    const payload = JSON.stringify({ name: 'Company Name', value: 'x'.repeat(2 * 1024 * 1024) });
    const res = await inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: { ...bearer(admin), 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a non-JSON content type with 415, form bodies included except on /oauth', async () => {
    const text = await inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: { ...bearer(admin), 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: { ...bearer(admin), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Company+Name&value=x',
    });
    expect(form.statusCode).toBe(415);
  });

  it('validates bodies with field-keyed details and rejects unknown fields', async () => {
    const res = await inject({
      method: 'PUT',
      url: '/app/api/settings',
      headers: bearer(admin),
      payload: { name: 5, value: 'x', extra: true },
    });
    expect(res.statusCode).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual(
      expect.arrayContaining([
        { field: 'name', message: expect.stringContaining('string') },
        { field: 'extra', message: 'is not allowed' },
      ]),
    );
  });

  it('returns a generated X-Request-Id, or the one sent when it is well-formed', async () => {
    const gen = await inject({ method: 'GET', url: '/app/api/echo' });
    expect(gen.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const sent = await inject({ method: 'GET', url: '/app/api/echo', headers: { 'x-request-id': 'abc-123' } });
    expect(sent.headers['x-request-id']).toBe('abc-123');
    const bad = await inject({ method: 'GET', url: '/app/api/echo', headers: { 'x-request-id': 'bad id\nforged' } });
    expect(bad.headers['x-request-id']).not.toContain('forged');
    const logged = t.logs.filter((l) => l.includes('"reqId":"abc-123"'));
    expect(logged.length).toBeGreaterThan(0);
    // Errors carry it too.
    const missing = await inject({ method: 'GET', url: '/app/api/nope', headers: { 'x-request-id': 'r-404' } });
    expect(missing.headers['x-request-id']).toBe('r-404');
  });

  it('sends the JSON API security headers and no X-Powered-By, on errors too; the HTML-only headers stay on /docs', async () => {
    const statuses: number[] = [];
    for (const url of ['/app/api/echo', '/app/api/nope', '/app/api/health/live', '/app/api/employees']) {
      const res = await inject({ method: 'GET', url });
      statuses.push(res.statusCode);
      expect(res.headers['x-powered-by']).toBeUndefined();
      // OWASP REST Security Cheat Sheet: these, and nothing only an HTML page reads.
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      for (const htmlOnly of ['x-frame-options', 'referrer-policy', 'cross-origin-opener-policy', 'x-dns-prefetch-control'])
        expect(res.headers[htmlOnly]).toBeUndefined();
      // Plain HTTP (PUBLIC_URL http://...): HSTS would mean nothing.
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect(statuses).toEqual([200, 404, 200, 401]);
    const docs = await inject({ method: 'GET', url: '/app/api/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toContain('text/html');
    expect(docs.headers['content-security-policy']).toContain("default-src 'self'");
    expect(docs.headers['content-security-policy']).toContain("img-src 'self' data: validator.swagger.io");
    expect(docs.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(docs.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(docs.headers['x-content-type-options']).toBe('nosniff');
    expect(docs.headers['referrer-policy']).toBe('no-referrer');
    expect(docs.headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('answers CORS preflight for an allowed origin, listing PUT and DELETE', async () => {
    const res = await inject({
      method: 'OPTIONS',
      url: '/app/api/settings',
      headers: { origin: 'https://hr.example.com', 'access-control-request-method': 'PUT' },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(res.headers['access-control-allow-origin']).toBe('https://hr.example.com');
    expect(res.headers['access-control-allow-methods']).toEqual(expect.stringContaining('PUT'));
    expect(res.headers['access-control-allow-methods']).toEqual(expect.stringContaining('DELETE'));
    const other = await inject({
      method: 'OPTIONS',
      url: '/app/api/settings',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('BASE_PATH', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ BASE_PATH: '/hr' })));
  afterAll(() => t.close());

  it('serves under the sub-path and not at /app/api', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/hr/app/api/echo' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('SUCCESS');
    const old = await t.app.inject({ method: 'GET', url: '/app/api/echo' });
    expect(old.statusCode).toBe(404);
    expect(old.json().error.code).toBe('NOT_FOUND');
  });

  it('documents paths relative to a server entry that carries the base (one generated client fits every installation)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/hr/app/api/openapi.json' })).json();
    expect(doc.servers).toEqual([{ url: '/hr/app/api', description: expect.any(String), 'x-internal': false }]);
    expect(Object.keys(doc.paths)).toContain('/employees/{id}');
    expect(Object.keys(doc.paths).filter((p) => p.includes('/app/api'))).toEqual([]);
    expect(doc.paths['/employees'].get.operationId).toBe('listEmployees');
    expect(doc.paths['/pay-grades'].get.operationId).toBe('listPayGrade');
    expect(doc.tags.map((tag: { name: string }) => tag.name)).toEqual(
      expect.arrayContaining(['Employees', 'Payroll runs', 'Webhooks']),
    );
  });
});

describe('unexpected errors', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('answer a bare 500 INTERNAL_ERROR, log the cause with the request id, and leak no SQL or stack', async () => {
    const { token } = await createUser(t.app, 'Admin');
    // Break the database under the running app: the token lookup now fails with an SQL error.
    await t.app.get(DataSource).query('DROP TABLE oauth_tokens');
    const res = await t.app.inject({
      method: 'GET',
      url: '/app/api/settings',
      headers: { ...bearer(token), 'x-request-id': 'req-500' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ status: 'ERROR', error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(res.body).not.toMatch(/oauth_tokens|SELECT|no such table|\.ts:\d+|node_modules/i);
    const logged = t.logs.find((l) => l.includes('"reqId":"req-500"') && l.includes('unhandled error'));
    expect(logged).toBeDefined();
    expect(logged).toContain('oauth_tokens');
  });
});
