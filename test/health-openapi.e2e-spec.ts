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
    for (const path of [
      '/app/api/echo',
      '/app/api/oauth/token',
      '/app/api/oauth/revoke',
      '/app/api/users/me/password',
      '/app/api/settings',
      '/app/api/health/ready',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
    const settings = doc.paths['/app/api/settings'].get;
    expect(settings.security).toEqual([{ bearer: [] }]);
    expect(settings.responses['403'].content['application/json'].schema.$ref).toBe('#/components/schemas/ErrorEnvelopeDto');
    expect(settings.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'sortField', 'sortOrder', 'filters']),
    );
  });

  it('serves the Swagger UI at /docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/app/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('swagger');
  });
});
