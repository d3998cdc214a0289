import { buildOpenApiDocument } from '../src/app.factory';
import { ContractCheck } from './helpers/contract';
import { discoverRoutes } from './helpers/routes';
import { createDemoApp } from './helpers/demo-app';
import { bearer, createTestApp, TestApp } from './helpers/test-app';

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
    expect(idParam.schema).toEqual({ type: 'integer', format: 'int32', minimum: 0, maximum: 2_147_483_647, example: 1 });
  });

  it('a list documented from its spec: sortField is the enum of its sort fields, filters a typed deepObject', () => {
    const params = doc.paths['/employees'].get?.parameters as Array<{
      name: string;
      schema?: { enum?: string[]; properties?: object };
      style?: string;
      explode?: boolean;
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
    expect([filters?.style, filters?.explode]).toEqual(['deepObject', true]);
    expect(Object.keys(filters?.schema?.properties ?? {})).toEqual([
      'status',
      'department',
      'job_title',
      'employment_status',
      'supervisor',
    ]);
  });

  it('every operation says who may call it: x-levels is the level gate the route enforces, and the description opens with it', () => {
    const routes = new Map(discoverRoutes(t.app, { streaming: true }).map((r) => [r.key, r.policy]));
    const wrong: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(
        methods as Record<string, { description?: string; 'x-levels'?: string[]; security?: object[] }>,
      )) {
        const policy = routes.get(`${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
        const levels = policy && !policy.public ? [...policy.levels] : undefined;
        // SCIM routes: public to the REST gate, guarded by the SCIM token alone (issue 47).
        const scim = path.startsWith('/scim/v2/') && (op.security ?? []).some((s) => 'scim' in s);
        // The metrics: public to the REST gate, guarded by loopback or METRICS_TOKEN (issue 48).
        const metrics = path === '/metrics' && (op.security ?? []).some((s) => 'metrics' in s);
        const who = scim
          ? 'Who may call: an identity provider with a SCIM token'
          : metrics
            ? 'Who may call: a scraper on loopback, or one with METRICS_TOKEN'
            : !levels
              ? 'No token needed.'
              : levels.length === 4
                ? 'Who may call: any signed-in user.'
                : `Who may call: ${levels.join(', ')}.`;
        if (JSON.stringify(op['x-levels']) !== JSON.stringify(levels) || !op.description?.startsWith(who))
          wrong.push(`${method} ${path}: ${JSON.stringify(op['x-levels'])} ${op.description?.split('\n')[0]}`);
      }
    expect(wrong).toEqual([]);
    expect(doc.paths['/settings'].get?.description).toBe('Who may call: Admin.');
  });

  // Issue 41, item 13: thirty ids and counts were `number`; their DTOs now say integer (ApiInt, IsRefId's composites).
  it('no id, reference or count in any schema is typed number', () => {
    const idOrCount =
      /^(id|.+_id|.+_by|count|total|changed|marked|queued|skipped|no_address|size|version|row|rows_.+|records|added|removed|employees|document|document_type|policy|places|digest_hour|effective_digest_hour|notify_days_before|waiting_days|.+_months|edit|input|joined|left|rounding|salary|page|limit)$/;
    const wrong: string[] = [];
    const walk = (where: string, node: unknown): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(where, n));
      if (node === null || typeof node !== 'object') return;
      const props = (node as { properties?: Record<string, { type?: string; items?: { type?: string }; description?: string }> })
        .properties;
      for (const [name, p] of Object.entries(props ?? {})) {
        const type = p.type === 'array' ? p.items?.type : p.type;
        const named = idOrCount.test(name) || /\bids?\b|\bid of\b/.test(p.description ?? '');
        if (type === 'number' && named) wrong.push(`${where}.${name}`);
      }
      for (const value of Object.values(node)) walk(where, value);
    };
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) walk(name, schema);
    expect(wrong).toEqual([]);
    // Decimals stay decimals.
    const schemas = doc.components?.schemas as Record<string, { properties: Record<string, { type?: string }> }>;
    expect([schemas.LeaveRequestDto.properties.days.type, schemas.AttendanceDto.properties.hours.type]).toEqual([
      'number',
      'number',
    ]);
    expect(schemas.DocumentDto.properties.size.type).toBe('integer');
  });

  // Issue 41, item 13: a diff's causes and a cell's inputs were one flat object with 24 optional fields.
  it("a diff's causes and a cell's inputs are oneOf their shapes with kind as the discriminator", () => {
    type Items = {
      items: { oneOf: Array<{ $ref: string }>; discriminator: { propertyName: string; mapping: Record<string, string> } };
    };
    const schemas = doc.components?.schemas as Record<string, { properties: Record<string, Items>; required?: string[] }>;
    const causes = schemas.PayrollDiffRowDto.properties.causes.items;
    expect([causes.discriminator.propertyName, Object.keys(causes.discriminator.mapping).sort()]).toEqual([
      'kind',
      ['calendar', 'column', 'edit', 'input', 'joined', 'left', 'rounding', 'salary', 'table'],
    ]);
    const inputs = schemas.ExplainedCellDto.properties.inputs.items;
    expect(Object.keys(inputs.discriminator.mapping).sort()).toEqual([
      'column',
      'edit',
      'employee_field',
      'hook',
      'salary_component',
      'table',
    ]);
    for (const { $ref } of [...causes.oneOf, ...inputs.oneOf]) expect(schemas[$ref.split('/').pop()!]).toBeDefined();
    // Each shape requires what it always has.
    expect([...(schemas.DiffSalaryCauseDto.required ?? [])].sort()).toEqual([
      'changed_at',
      'changed_by',
      'changes',
      'component',
      'kind',
      'name',
      'new',
      'old',
    ]);
    expect([...(schemas.ExplainHookInputDto.required ?? [])].sort()).toEqual([
      'args',
      'hook',
      'kind',
      'name',
      'records',
      'source',
      'value',
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

/** Issue 41, item 14: a PUT accepts what its GET returned; what it cannot change is documented readOnly. */
describe('a PUT takes back what its GET returned', () => {
  type Schema = {
    $ref?: string;
    allOf?: Schema[];
    type?: string;
    items?: Schema;
    properties?: Record<string, Schema & { readOnly?: boolean }>;
  };
  let t: TestApp;
  let schemas: Record<string, Schema>;
  let paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
  beforeAll(async () => {
    t = await createTestApp();
    const doc = buildOpenApiDocument(t.app, t.config);
    schemas = doc.components?.schemas as Record<string, Schema>;
    paths = doc.paths as unknown as typeof paths;
  });
  afterAll(() => t.close());

  const resolve = (s: Schema): Schema => (s.$ref ? resolve(schemas[s.$ref.split('/').pop()!]) : s);
  const props = (s: Schema): NonNullable<Schema['properties']> => {
    const r = resolve(s);
    return Object.assign({}, ...(r.allOf ?? []).map(props), r.properties ?? {});
  };
  const json = (x: unknown) =>
    (x as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.['application/json']?.schema;

  it('every field of every GET is a property of the PUT on the same path (array items: of its array)', () => {
    const missing: string[] = [];
    let pairs = 0;
    for (const [path, ops] of Object.entries(paths)) {
      const got = json(ops.get?.responses?.['200']);
      const body = json(ops.put?.requestBody);
      if (!got || !body) continue;
      const data = props(got).data;
      if (!data) continue;
      pairs++;
      const read = resolve(data);
      let sent = props(body);
      let returned = props(data);
      if (read.type === 'array') {
        returned = props(read.items!);
        const list = Object.values(sent).find((p) => resolve(p).type === 'array');
        if (!list) continue; // PUT /settings sets one setting of the list
        sent = props(resolve(list).items!);
      }
      for (const field of Object.keys(returned)) if (!sent[field]) missing.push(`PUT ${path}: ${field}`);
    }
    expect(pairs).toBeGreaterThanOrEqual(25);
    expect(missing).toEqual([]);
  });
});

/**
 * Every list's documented query is the one its service applies (issue 25 items 7 and 8): each sort
 * field and each filter field the document names is accepted, anything else refused; the lists
 * with a fixed order document only page, limit and sortOrder, and sortOrder reverses them.
 */
describe('the lists answer what the document says they take', () => {
  let t: TestApp;
  let doc: ReturnType<typeof buildOpenApiDocument>;
  let admin: Record<string, string>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    const demo = await createDemoApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    t = demo;
    doc = buildOpenApiDocument(t.app, t.config);
    admin = bearer(demo.demo.accessToken);
    const first = async (url: string) =>
      (await t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: admin })).json().data[0].id;
    ids.employees = await first('/employees?limit=1');
    ids.payrolls = await first('/payroll_config/payrolls?limit=1');
    const hook = await t.app.inject({
      method: 'POST',
      url: '/app/api/webhooks',
      headers: admin,
      payload: { url: 'http://127.0.0.1:9/x', events: ['employee.created'] },
    });
    ids.webhooks = hook.json().data.id;
    const upload = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=employees',
      headers: { ...admin, 'content-type': 'text/csv' },
      payload: 'employee_id,first_name\nC1,Contract\n',
    });
    ids.imports = upload.json().data.id;
    ids.calendars = (await t.app.inject({ method: 'GET', url: '/app/api/calendars', headers: admin })).json().data[0].id;
  }, 120_000); // the whole demo, payslip PDFs included
  afterAll(() => t.close());

  type Param = { name: string; in: string; schema?: { enum?: string[] } & Partial<FilterObject>; style?: string };
  type FilterObject = { properties: Record<string, { oneOf: [ValueSchema, unknown] }> };
  type ValueSchema = { type?: string; format?: string; pattern?: string; enum?: string[]; oneOf?: ValueSchema[] };
  const lists = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) => {
      const params = (methods.get?.parameters ?? []) as Param[];
      return params.some((p) => p.name === 'page') ? [{ path, params }] : [];
    });
  const url = (path: string, query: Record<string, string> | Array<[string, string]>) =>
    `/app/api${path.replace(/^\/(employees|payroll_config\/payrolls|webhooks|imports|calendars)\/\{id\}/, (_, r: string) => `/${r}/${ids[r.split('/').pop()!]}`)}?${new URLSearchParams(query).toString()}`;
  const sample = (s: ValueSchema): unknown =>
    s.oneOf
      ? sample(s.oneOf[0])
      : s.enum
        ? s.enum[0]
        : s.type === 'integer'
          ? 1
          : s.type === 'boolean'
            ? true
            : s.format === 'date' || s.pattern?.includes('\\d{4}-')
              ? '2026-01-01'
              : 'x';
  const get = (path: string, query: Record<string, string> | Array<[string, string]>) =>
    t.app.inject({ method: 'GET', url: url(path, query), headers: admin });

  it('81 lists: 72 document their sort fields as an enum and their filters as an object, 9 take page, limit and sortOrder (and filters of their own)', () => {
    const all = lists();
    const sorted = all.filter(({ params }) => params.some((p) => p.name === 'sortField'));
    expect(all.length).toBe(81);
    expect(sorted.filter(({ params }) => !params.find((p) => p.name === 'sortField')?.schema?.enum?.length)).toEqual([]);
    expect(sorted.filter(({ params }) => params.find((p) => p.name === 'filters')?.style !== 'deepObject')).toEqual([]);
    expect(
      all.filter((l) => !sorted.includes(l)).map((l) => [l.path, l.params.map((p) => p.name).filter((n) => n !== 'id')]),
    ).toEqual([
      ...['/settings', '/retention/preview', '/payroll_config/currencies', '/payroll_config/calculation-hooks'].map((p) => [
        p,
        ['page', 'limit', 'sortOrder'],
      ]),
      ['/payroll_config/payrolls/{id}/data', ['page', 'limit', 'sortOrder', 'format']],
      ['/payroll_config/payrolls/{id}/diff', ['page', 'limit', 'sortOrder', 'against', 'employee', 'column', 'cause', 'format']],
      ...['/meta/countries', '/meta/currency', '/meta/extensions'].map((p) => [p, ['page', 'limit', 'sortOrder']]),
    ]);
  });

  it('every documented sort field and filter field is accepted, an undocumented one refused', async () => {
    const wrong: string[] = [];
    for (const { path, params } of lists()) {
      const sortFields = params.find((p) => p.name === 'sortField')?.schema?.enum;
      if (!sortFields) continue;
      for (const sortField of sortFields) {
        const res = await get(path, { sortField, sortOrder: 'descend', limit: '2' });
        if (res.statusCode !== 200) wrong.push(`${path} sortField=${sortField}: ${res.statusCode} ${res.body}`);
      }
      const filters = params.find((p) => p.name === 'filters')!.schema!.properties!;
      for (const [field, schema] of Object.entries(filters)) {
        const one = sample(schema as ValueSchema);
        for (const value of [one, [one]]) {
          const res = await get(path, { filters: JSON.stringify({ [field]: value }), limit: '2' });
          if (res.statusCode !== 200)
            wrong.push(`${path} filters ${field}=${JSON.stringify(value)}: ${res.statusCode} ${res.body}`);
        }
        // As generated clients send it (issue 41): filters[field]=value, repeated for several values,
        // answered as the JSON form is (a field that takes one value refuses two either way).
        for (const repeat of [1, 2]) {
          const query: Array<[string, string]> = Array.from({ length: repeat }, () => [`filters[${field}]`, String(one)]);
          const res = await get(path, [...query, ['limit', '2']]);
          const json = await get(path, { filters: JSON.stringify({ [field]: repeat === 1 ? one : [one, one] }), limit: '2' });
          if (res.statusCode !== json.statusCode || (res.statusCode === 200 && res.body !== json.body))
            wrong.push(`${path} ${new URLSearchParams(query).toString()}: ${res.statusCode} ${res.body}`);
        }
        // Any of several as one scalar (Hardening IV item 11): filters[field]=a,b where the document says so.
        const listed = JSON.stringify(schema).includes('separated by commas');
        if (listed) {
          const res = await get(path, [
            [`filters[${field}]`, `${String(one)},${String(one)}`],
            ['limit', '2'],
          ]);
          const json = await get(path, { filters: JSON.stringify({ [field]: [one, one] }), limit: '2' });
          if (res.statusCode !== json.statusCode || (res.statusCode === 200 && res.body !== json.body))
            wrong.push(`${path} filters[${field}]=${String(one)},${String(one)}: ${res.statusCode} ${res.body}`);
        }
      }
      for (const query of [{ sortField: 'no_such_field' }, { filters: '{"no_such_field":1}' }] as Array<Record<string, string>>) {
        const res = await get(path, query);
        if (res.statusCode !== 400) wrong.push(`${path} ${JSON.stringify(query)}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a fixed-order list refuses sortField and filters, and sortOrder=descend reverses it', async () => {
    for (const path of ['/meta/countries', '/settings', '/payroll_config/payrolls/{id}/data']) {
      for (const query of [{ sortField: 'id' }, { filters: '{}' }] as Array<Record<string, string>>) {
        const res = await get(path, query);
        expect([path, res.statusCode, res.json().error.details[0]]).toEqual([
          path,
          400,
          { field: Object.keys(query)[0], message: 'is not allowed' },
        ]);
      }
    }
    const ascend = (await get('/meta/countries', { limit: '500' })).json();
    const descend = (await get('/meta/countries', { limit: '3', page: '2', sortOrder: 'descend' })).json();
    expect(descend.data).toEqual(ascend.data.slice().reverse().slice(3, 6));
    expect([descend.total, descend.nextPage]).toEqual([ascend.total, 3]);
    const rows = (q: Record<string, string>) =>
      get('/payroll_config/payrolls/{id}/data', q).then((r) =>
        r.json().data.rows.map((x: { employee: { id: number } }) => x.employee.id),
      );
    const all = await rows({ limit: '500' });
    expect(all.length).toBeGreaterThan(2);
    expect(await rows({ limit: '2', sortOrder: 'descend' })).toEqual(all.slice(-2).reverse());
  });
});
