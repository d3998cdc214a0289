import { buildOpenApiDocument } from '../src/app.factory';
import { ContractCheck } from './helpers/contract';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * The contract check every suite's responses go through (test/helpers/test-app.ts), shown failing
 * on planted mismatches; and the rules the document post-processor adds to every operation (issue 25).
 */
describe('the OpenAPI contract', () => {
  let t: TestApp;
  let doc: ReturnType<typeof buildOpenApiDocument>;
  beforeAll(async () => {
    t = await createTestApp();
    doc = buildOpenApiDocument(t.app, t.config);
  });
  afterAll(() => t.close());

  it('finds a planted mismatch of body, status and header, and passes the real response', async () => {
    const check = new ContractCheck(doc as never);
    const real = await t.app.inject({ method: 'GET', url: '/app/api/echo' });
    expect(check.problems('GET', '/app/api/echo', real.statusCode, real.headers, real.body)).toEqual([]);
    const body = JSON.stringify({ status: 'SUCCESS', data: { echo: 5, random: 'x' } });
    expect(check.problems('GET', '/app/api/echo', 200, real.headers, body)).toEqual([
      expect.stringMatching(/^GET \/echo → 200: \/data\/echo must be string/),
      expect.stringMatching(/\/data\/random must be integer/),
    ]);
    expect(check.problems('GET', '/app/api/echo', 201, real.headers, real.body)).toEqual([
      'GET /echo → 201: status 201 is not documented',
    ]);
    const { ['x-request-id']: _, ...withoutId } = real.headers;
    expect(check.problems('GET', '/app/api/echo', 200, withoutId, real.body)).toEqual([
      'GET /echo → 200: header X-Request-Id missing',
    ]);
    // A literal path segment wins over a parameter: /employees/me is not /employees/{id}.
    const me = await t.app.inject({ method: 'GET', url: '/app/api/employees/me' });
    expect(check.problems('GET', '/app/api/employees/me', me.statusCode, me.headers, me.body)).toEqual([]);
    expect(check.checked).toBe(5);
  });

  it('every operation documents 404, 500 and 503, the request id on every response, and 401 with WWW-Authenticate where a token is needed', () => {
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(
        methods as Record<string, { responses: Record<string, { headers?: object }>; security?: unknown[] }>,
      )) {
        for (const status of ['404', '500', '503', ...(op.security?.length ? ['401', '403'] : [])])
          if (!op.responses[status]) missing.push(`${method} ${path} ${status}`);
        for (const [status, response] of Object.entries(op.responses))
          if (!(response.headers && 'X-Request-Id' in response.headers)) missing.push(`${method} ${path} ${status} X-Request-Id`);
        if (op.responses['401'] && !('WWW-Authenticate' in (op.responses['401'].headers ?? {})))
          missing.push(`${method} ${path} 401 WWW-Authenticate`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('nullable enums list null; DELETE /webhooks/{id} documents its 200; the bearer scheme is no JWT', () => {
    const enums: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (node === null || typeof node !== 'object') return;
      const s = node as { nullable?: boolean; enum?: unknown[] };
      if (s.nullable && s.enum && !s.enum.includes(null)) enums.push(where);
      for (const [k, v] of Object.entries(node)) walk(v, `${where}.${k}`);
    };
    walk(doc.components?.schemas, 'schemas');
    expect(enums).toEqual([]);
    expect(JSON.stringify(doc.components?.schemas?.EmployeeDto)).toContain('"enum":["Male","Female","Other",null]');
    expect(doc.paths['/webhooks/{id}'].delete?.responses['200']).toBeDefined();
    expect(doc.components?.securitySchemes?.bearer).not.toHaveProperty('bearerFormat');
    // Ids and counts are integers; path ids too.
    const employee = doc.components?.schemas?.EmployeeDto as { properties: Record<string, { type?: string }> };
    for (const field of ['id', 'department', 'job_title', 'supervisor']) expect(employee.properties[field].type).toBe('integer');
    const idParam = doc.paths['/employees/{id}'].get?.parameters?.find((p) => 'name' in p && p.name === 'id') as {
      schema: object;
    };
    expect(idParam.schema).toEqual({ type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647 });
  });

  it('a list documented from its spec: sortField is the enum of its sort fields, filters a typed JSON object', () => {
    const params = doc.paths['/employees'].get?.parameters as Array<{
      name: string;
      schema?: { enum?: string[] };
      content?: Record<string, { schema: { properties: object } }>;
    }>;
    expect(params.find((p) => p.name === 'sortField')?.schema?.enum).toEqual([
      'id',
      'employee_id',
      'first_name',
      'last_name',
      'joined_date',
      'department',
    ]);
    const filters = params.find((p) => p.name === 'filters');
    expect(Object.keys(filters?.content?.['application/json'].schema.properties ?? {})).toEqual([
      'status',
      'department',
      'job_title',
      'employment_status',
      'supervisor',
    ]);
  });

  it('response schemas require every field the server always sends; maps are typed', () => {
    type S = { properties: Record<string, { additionalProperties?: unknown; items?: unknown }>; required?: string[] };
    const schemas = doc.components?.schemas as Record<string, S>;
    const employee = schemas.EmployeeDto;
    expect(Object.keys(employee.properties).length).toBeGreaterThanOrEqual(36);
    expect([...(employee.required ?? [])].sort()).toEqual(Object.keys(employee.properties).sort());
    // A request DTO keeps its optional fields.
    expect(schemas.UpdateEmployeeDto.required ?? []).toEqual([]);
    expect(schemas.LeaveSummaryDto.properties.by_status.additionalProperties).toMatchObject({ type: 'integer' });
    expect(schemas.HealthDto.properties.checks.additionalProperties).toEqual({ type: 'string' });
    expect(schemas.PayrollColumnDto.properties.calculation_hook_args.additionalProperties).toBeDefined();
    expect((schemas.AuditEntryDto.properties.changes.additionalProperties as { items?: unknown }).items).toBeDefined();
  });
});
