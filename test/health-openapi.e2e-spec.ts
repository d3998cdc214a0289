import { version } from '../package.json';
import { createTestApp, TestApp } from './helpers/test-app';

describe('health probes and the OpenAPI document', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('GET /health/live and /health/ready answer without a token', async () => {
    const live = await t.app.inject({ method: 'GET', url: '/app/api/health/live' });
    expect(live.json()).toEqual({ status: 'SUCCESS', data: { status: 'ok' } });
    const ready = await t.app.inject({ method: 'GET', url: '/app/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data.checks.database).toBe('ok');
    if (t.config.redisUrl) expect(ready.json().data.checks.redis).toBe('ok');
  });

  it('serves an OpenAPI 3 document with the bearer scheme, the error envelope and every route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe(version);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.ErrorEnvelopeDto.properties.error).toBeDefined();
    for (const path of ['/echo', '/oauth/token', '/oauth/revoke', '/users/me/password', '/settings', '/health/ready']) {
      expect(doc.paths[path]).toBeDefined();
    }
    const settings = doc.paths['/settings'].get;
    expect(settings.security).toEqual([{ bearer: [] }]);
    expect(settings.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelopeDto');
    // A fixed-order list takes paging only; a list with sort fields takes the rest (issue 25 item 8).
    expect(settings.parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'limit', 'sortOrder']);
    expect(doc.paths['/users'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'sortField', 'sortOrder', 'filters', 'search']),
    );
  });

  it('documents every employee and reference route once, with unique operation ids', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/app/api/openapi.json' })).json();
    const paths = Object.keys(doc.paths);
    for (const path of [
      '/employees',
      '/employees/me',
      '/employees/{id}',
      '/employees/{id}/skills',
      '/employees/{id}/educations/{itemId}',
      '/employees/{id}/certifications',
      '/employees/{id}/languages',
      '/employees/{id}/status',
      '/employees/{id}/status/history',
      '/departments/{id}',
      '/pay-grades',
      '/education-levels',
    ]) {
      expect(paths).toContain(path);
    }
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops as Record<string, { operationId: string }>).map((o) => o.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/employees'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    expect(doc.paths['/pay-grades'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/CreatePayGradeDto',
    );
  });

  it('serves the Swagger UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
