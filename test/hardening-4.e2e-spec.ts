import { buildOpenApiDocument } from '../src/app.factory';
import { PasswordHasher } from '../src/auth/password-hasher';
import { ERROR_STATUS } from '../src/common/errors/error-codes';
import { WEBHOOK_EVENTS } from '../src/webhooks/webhook-events';
import { ContractCheck } from './helpers/contract';
import { buildCompany, Company } from './helpers/company';
import { multipartForm, SAMPLE_FILES } from './helpers/multipart';
import { bearer, createTestApp, createUser, itTimed, okCaller, TestApp, until } from './helpers/test-app';
import { AddressInfo, connect } from 'node:net';

/** Hardening IV (docs/api/decisions.md, "Hardening IV"): what a newcomer, an integrator and an attacker met. */
describe('hardening IV: an unauthenticated sign-in flood (item 21)', () => {
  let t: TestApp;
  let c: Company;
  let docPath: string;

  beforeAll(async () => {
    // The thread pool's time is what a flood takes: the real cost (2^15, ~220 ms a hash) when timed, 2^13 otherwise.
    t = await createTestApp({
      PASSWORD_SCRYPT_COST: '15',
      LOGIN_RATE_LIMIT_PER_ADDRESS: '1000',
      LOGIN_RATE_LIMIT_PER_USERNAME: '1000',
    });
    c = await buildCompany(t.app);
    const ok = okCaller(t.app);
    const type = (await ok('POST', '/document-types', c.users.admin.token, { name: 'Passport' })).id;
    const form = multipartForm([
      { name: 'document_type', value: String(type) },
      { name: 'file', filename: 'p.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf('y'.repeat(200_000)) },
    ]);
    const doc = await t.app.inject({
      method: 'POST',
      url: `/app/api/employees/${c.emp.report1}/documents`,
      headers: { ...bearer(c.users.admin.token), ...form.headers },
      payload: form.payload,
    });
    expect(doc.statusCode).toBe(200);
    docPath = `/app/api/employees/${c.emp.report1}/documents/${doc.json().data.id}/file`;
  }, 60_000);
  afterAll(() => t.close());

  const signIn = (username: string, password: string, remoteAddress: string) =>
    t.app.inject({
      method: 'POST',
      url: '/app/api/oauth/token',
      payload: { grant_type: 'password', username, password },
      remoteAddress,
    });
  /** 32 concurrent sign-ins of random unknown names from 16 addresses (127.0.0.2...), as the red team sent them. */
  const flood = () =>
    Array.from({ length: 32 }, (_, i) =>
      signIn(`u${Math.random().toString(36).slice(2)}`, Math.random().toString(36), `127.0.0.${2 + (i % 16)}`),
    );
  const download = async () => {
    const t0 = performance.now();
    const res = await t.app.inject({ method: 'GET', url: docPath, headers: bearer(c.users.admin.token) });
    expect([res.statusCode, res.statusCode === 200 ? '' : res.body]).toEqual([200, '']);
    return performance.now() - t0;
  };

  it('keeps at most two hashes on the thread pool; a legitimate sign-in from another address succeeds meanwhile', async () => {
    const gate = t.app.get(PasswordHasher).gate;
    const user = await createUser(t.app, 'Employee');
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, gate.state.running)), 1);
    try {
      const attack = flood();
      await new Promise((r) => setTimeout(r, 50));
      const legit = await signIn(user.user.username, user.password, '10.9.9.9');
      expect([legit.statusCode, legit.json().scope]).toEqual([200, 'employee']);
      const answers = await Promise.all(attack);
      const statuses = answers.map((a) => a.statusCode);
      // Wrong credentials, or refused before any hash with Retry-After: never a 5xx other than 503, never a hang.
      expect(statuses.filter((s) => ![401, 429, 503].includes(s))).toEqual([]);
      for (const a of answers.filter((x) => x.statusCode !== 401)) {
        expect([a.json().error.code, Number(a.headers['retry-after']) >= 1]).toEqual([
          a.statusCode === 429 ? 'RATE_LIMITED' : 'SIGN_IN_BUSY',
          true,
        ]);
      }
    } finally {
      clearInterval(watch);
    }
    expect(most).toBeLessThanOrEqual(2);
    expect(most).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('counts an IPv6 client by its /64: changing the interface identifier gives no new allowance', async () => {
    const limited = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS: '2' });
    try {
      const attempt = (address: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/app/api/oauth/token',
          payload: { grant_type: 'password', username: 'nobody', password: 'wrong-password' },
          remoteAddress: address,
        });
      expect((await attempt('2001:db8:7:7::1')).statusCode).toBe(401);
      expect((await attempt('2001:db8:7:7::2')).statusCode).toBe(401);
      const third = await attempt('2001:db8:7:7:abcd::3');
      expect([third.statusCode, third.json().error.code]).toEqual([429, 'RATE_LIMITED']);
      // Another /64 has its own.
      expect((await attempt('2001:db8:7:8::1')).statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });

  itTimed(
    'a document download during the flood stays within twice its idle time (plus 50 ms)',
    async () => {
      for (let i = 0; i < 5; i++) await download(); // warm
      const idle = [];
      for (let i = 0; i < 10; i++) idle.push(await download());
      const idleMs = idle.sort((a, b) => a - b)[5];
      const attack = flood();
      await new Promise((r) => setTimeout(r, 100));
      const during = [];
      for (let i = 0; i < 5; i++) during.push(await download());
      await Promise.all(attack);
      const worst = Math.max(...during);
      console.log(`document download: idle median ${idleMs.toFixed(1)} ms, worst during the flood ${worst.toFixed(1)} ms`);
      expect(worst).toBeLessThanOrEqual(2 * idleMs + 50);
    },
    60_000,
  );
});

describe('hardening IV: the document as generated clients read it (items 14, 15)', () => {
  let t: TestApp;
  type Schema = { type?: string; properties?: Record<string, { default?: unknown; type?: string }> };
  let doc: {
    components: { schemas: Record<string, Schema> };
    paths: Record<
      string,
      Record<
        string,
        {
          parameters?: Array<{ name: string; schema: { type: string } }>;
          responses: Record<string, { content?: Record<string, unknown> }>;
        }
      >
    >;
  };
  beforeAll(async () => {
    t = await createTestApp();
    doc = buildOpenApiDocument(t.app, t.config) as unknown as typeof doc;
  });
  afterAll(() => t.close());

  it('an update schema has no defaults (a property left out keeps its value)', () => {
    const withDefaults = Object.entries(doc.components.schemas)
      .filter(([name]) => name.startsWith('Update'))
      .flatMap(([name, s]) => Object.entries(s.properties ?? {}).flatMap(([p, v]) => ('default' in v ? [`${name}.${p}`] : [])));
    expect(withDefaults).toEqual([]);
    // The create schemas keep theirs.
    expect(doc.components.schemas.CreateEmployeeDto.properties?.status?.default).toBe('Active');
  });

  it('ids that GET answers and a PUT takes back are integers; the journal documents its CSV and XLSX answers', () => {
    for (const name of ['UpdatePayFrequencyDto', 'SavePayrollTableDto', 'UpdatePayrollTableDto'])
      expect({ name, type: doc.components.schemas[name].properties?.id?.type }).toEqual({ name, type: 'integer' });
    const against = doc.paths['/payroll_config/payrolls/{id}/diff'].get.parameters?.find((p) => p.name === 'against');
    expect(against?.schema.type).toBe('integer');
    const journal = doc.paths['/payroll_config/payrolls/{id}/journal'].get.responses['200'].content ?? {};
    expect(Object.keys(journal).sort()).toEqual(
      ['application/json', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv'].sort(),
    );
  });

  it('the main operations show realistic request examples, each valid against its body schema (item 18)', () => {
    const check = new ContractCheck(doc as never);
    const operations: Array<[string, string]> = [
      ['/oauth/token', 'post'],
      ['/employees', 'post'],
      ['/employees/{id}/changes', 'post'],
      ['/leaves', 'post'],
      ['/payroll_config/payrolls', 'post'],
    ];
    for (const [path, method] of operations) {
      const body = (
        doc.paths[path][method] as unknown as {
          requestBody: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
        }
      ).requestBody.content['application/json'];
      const examples = Object.entries(body.examples ?? {});
      expect({ path, examples: examples.length > 0 }).toEqual({ path, examples: true });
      for (const [name, example] of examples)
        expect({ path, name, problems: check.bodyProblems(method, path, example.value) }).toEqual({ path, name, problems: [] });
    }
  });

  it("the change feed's item is oneOf the events' schemas, discriminated by type (item 16)", () => {
    const feed = doc.components.schemas.FeedEventDto as unknown as {
      oneOf: Array<{ $ref: string }>;
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    expect(feed.discriminator.propertyName).toBe('type');
    expect(Object.keys(feed.discriminator.mapping).sort()).toEqual([...WEBHOOK_EVENTS].sort());
    expect(feed.oneOf).toHaveLength(WEBHOOK_EVENTS.length);
    const item = (event: string) =>
      doc.components.schemas[feed.discriminator.mapping[event].split('/').pop()!] as unknown as {
        properties: { type: { enum: string[] }; data: { $ref: string } };
      };
    expect(item('payroll.completed').properties.type.enum).toEqual(['payroll.completed']);
    for (const event of WEBHOOK_EVENTS)
      expect({ event, data: Boolean(doc.components.schemas[item(event).properties.data.$ref.split('/').pop()!]) }).toEqual({
        event,
        data: true,
      });
  });

  it("SCIM's bodies and answers are typed, its errors SCIM error bodies, not the envelope (item 15)", () => {
    type Content = Record<string, { schema?: { $ref?: string } }>;
    const op = (path: string, method: string) =>
      doc.paths[`/scim/v2/${path}`][method] as unknown as {
        requestBody?: { content: Content };
        responses: Record<string, { content?: Content }>;
      };
    const ref = (content: Content | undefined, type = 'application/scim+json') => content?.[type]?.schema?.$ref?.split('/').pop();
    expect([ref(op('Users', 'post').requestBody?.content), ref(op('Users', 'post').responses['201'].content)]).toEqual([
      'ScimUser',
      'ScimUser',
    ]);
    expect(ref(op('Users', 'get').responses['200'].content)).toBe('ScimUserList');
    expect(ref(op('Groups/{id}', 'patch').requestBody?.content)).toBe('ScimPatchOp');
    expect(ref(op('Users/.search', 'post').requestBody?.content)).toBe('ScimSearchRequest');
    const envelopes: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/scim/v2/')))
      for (const [method, o] of Object.entries(methods))
        for (const [status, res] of Object.entries(o.responses)) {
          const content = res.content as Content | undefined;
          if (Number(status) >= 400 && ref(content) !== 'ScimError') envelopes.push(`${method} ${path} ${status}`);
          // Only the gate in front of every route answers SCIM with the envelope: 503 API_DISABLED.
          if (status !== '503' && ref(content, 'application/json') === 'ErrorEnvelopeDto')
            envelopes.push(`${method} ${path} ${status} envelope`);
        }
    expect(envelopes).toEqual([]);
    expect(doc.components.schemas.ScimError).toMatchObject({ required: ['schemas', 'status'] });
  });

  it('each error status shows an example of its own, integers and filters show usable values (item 18)', () => {
    type Media = { example?: { error?: { code: string } } };
    const byStatus = new Map<string, Set<string>>();
    const missing: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods))
        for (const [status, res] of Object.entries(op.responses)) {
          const json = res.content?.['application/json'] as Media | undefined;
          if (Number(status) < 400 || !json) continue;
          const code = json.example?.error?.code;
          if (!code) missing.push(`${method} ${path} ${status}`);
          else byStatus.set(status, new Set([...(byStatus.get(status) ?? []), code]));
        }
    expect(missing.filter((m) => !m.includes('/scim/'))).toEqual([]);
    // One example a status, its code one that status carries (it was VALIDATION_FAILED everywhere).
    for (const [status, codes] of byStatus) {
      expect({ status, codes: codes.size }).toEqual({ status, codes: 1 });
      expect({ status, code: ERROR_STATUS[[...codes][0] as keyof typeof ERROR_STATUS] }).toEqual({
        status,
        code: Number(status),
      });
    }
    expect([...byStatus.keys()]).toEqual(expect.arrayContaining(['400', '401', '403', '404', '409', '500', '503']));
    const employees = doc.paths['/employees'].get.parameters as unknown as Array<{
      name: string;
      example?: object;
      schema: object;
    }>;
    expect(employees.find((p) => p.name === 'filters')?.example).toEqual({ status: 'Active' });
    expect(doc.components.schemas.EmployeeDto.properties?.id).toMatchObject({ type: 'integer', example: 1 });
    expect((doc as unknown as { info: { description: string } }).info.description).not.toContain('JSON object');
  });
});

describe('hardening IV: unauthenticated writes are bounded (item 27)', () => {
  it('GET /auth/oidc/login counts against the address’s sign-in attempts: past them 429, another address unaffected', async () => {
    const t = await createTestApp({
      LOGIN_RATE_LIMIT_PER_ADDRESS: '3',
      OIDC_ISSUER: 'http://127.0.0.1:9/never',
      OIDC_CLIENT_ID: 'hr',
      OIDC_CLIENT_SECRET: 'x',
      OIDC_ALLOW_HTTP: 'true',
    });
    try {
      const start = () => t.app.inject({ method: 'GET', url: '/app/api/auth/oidc/login', remoteAddress: '198.51.100.7' });
      for (let i = 0; i < 3; i++) expect((await start()).statusCode).not.toBe(429);
      const refused = await start();
      expect([refused.statusCode, refused.json().error.code]).toEqual([429, 'RATE_LIMITED']);
      const other = await t.app.inject({ method: 'GET', url: '/app/api/auth/oidc/login', remoteAddress: '198.51.100.8' });
      expect(other.statusCode).not.toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('hardening IV: errors that say what happened (item 9)', () => {
  let t: TestApp;
  let c: Company;
  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
  });
  afterAll(() => t.close());

  it('a required field left out is one problem: "is required", not one per rule it would have had to meet', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/payroll_config/payrolls',
      headers: bearer(c.users.admin.token),
      payload: { name: 'No department', pay_period: 4, date_start: '2026-01-01', date_end: '2026-01-31', columns: [] },
    });
    const details = (res.json().error.details as Array<{ field: string }>).filter((d) => d.field === 'department');
    expect([res.statusCode, details]).toEqual([400, [{ field: 'department', message: 'is required' }]]);
  });

  it('a client that goes away in the middle of its request body is logged as that, not as a dependency unavailable', async () => {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST /app/api/employees HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${c.users.admin.token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"first_name":',
    );
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    const logged = () => t.logs.join('\n');
    await until(() => logged().includes('the client went away'), 5000);
    expect(logged()).not.toContain('dependency unavailable');
  });
});
