import { describeIf, LONG, NEEDS_LONG } from './helpers/skip';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { buildCompany, Company } from './helpers/company';
import { ScimTokensService } from '../src/scim/scim-tokens.service';
import { JOB_RUNNER, JobRunner } from '../src/common/queue/queue.constants';
import { discoverRoutes, DiscoveredRoute } from './helpers/routes';
import { createTestApp, INTEGRATION, TestApp } from './helpers/test-app';

/**
 * Hostile input against every route with a body or a query (fast-check, fixed seed): wrong types,
 * null everywhere, prototype keys, huge strings and arrays, deep nesting, SQL and formula
 * metacharacters, invalid dates and numbers, invalid UTF-8 and confusables, as bodies, as sort
 * fields, filters and searches. Each refused request (4xx) must answer in the error envelope and
 * change nothing in the database (a checksum of every table before and after); no request may
 * answer 5xx; afterwards a fresh sign-in still works. FUZZ_RUNS cases (default 300, in test:integration on
 * MariaDB; `npm run test:fuzz` runs 5 000, in .ci/run too), FUZZ_SEED (default 20261123).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** Templates and scripts that cost exponential or quadratic work, or make non-finite numbers (issue 24). */
const chainedPartials = (levels: number) => {
  let t = '{{#*inline "a0"}}x{{/inline}}';
  for (let i = 1; i <= levels; i++) t += `{{#*inline "a${i}"}}{{> a${i - 1}}}{{> a${i - 1}}}{{/inline}}`;
  return `${t}{{> a${levels}}}`;
};
const COSTLY = [
  chainedPartials(24),
  '{{#*inline "r"}}{{> r}}{{/inline}}{{> r}}',
  '{{> x}}',
  `${'{{#each @root.columns}}'.repeat(20)}x${'{{/each}}'.repeat(20)}`,
  `{{#each columns}}{{#each @root.columns}}{{#each @root.columns}}{{#each @root.columns}}${'y'.repeat(9000)}{{/each}}{{/each}}{{/each}}{{/each}}`,
  '{{#if}}x{{/if}}',
  '{{#each}}x{{/each}}',
  '{{#if 1 2}}x{{/if}}',
  '{{*foo}}',
  '{{{employee.name}}}',
  '1e1200000 % 7.3',
  '1e99999999999999999 - 1e99999999999999999',
  '(9e30)^2 - (9e30)^2',
  '9.999999999999999999999999999999999999999e39 % 1.000000000000000000000000000000000000001e-40',
  '1.000000000000000000000000000000000000001 ^ -999',
  `${'-'.repeat(9000)}1`,
  `${'not '.repeat(2000)}1`,
];

const nasty = fc.oneof(
  fc.constantFrom(...COSTLY),
  fc.constantFrom(
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    "' OR 1=1 --",
    '"; DROP TABLE employees; --',
    '%',
    '_',
    '\\',
    '=1+1',
    '=HYPERLINK("http://x")',
    '{{constructor.constructor("return process")()}}',
    '${process.exit()}',
    '2026-02-30',
    '0000-00-00',
    '9999-99-99T99:99:99Z',
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '9007199254740993',
    '\u0000',
    '\ud800',
    '\uFEFFadmin',
    'аdmin', // Cyrillic a
    'Ａｄｍｉｎ',
    '*',
    '+-<>()~@"',
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constant('x'.repeat(70_000)),
);

const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53, Number.MAX_SAFE_INTEGER + 2),
    nasty,
    fc.array(tie('any'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nasty, fc.string({ maxLength: 12 })), tie('any'), { maxKeys: 4 }),
  ),
})).any;

/** A body: an object with the route's likely field names and hostile keys, or not an object at all. */
const FIELDS = [
  'id',
  'name',
  'employee',
  'employee_id',
  'first_name',
  'last_name',
  'joined_date',
  'department',
  'status',
  'date',
  'date_start',
  'date_end',
  'in_time',
  'out_time',
  'start',
  'end',
  'leave_type',
  'amount',
  'currency',
  'script',
  'template',
  'columns',
  'password',
  'username',
  'email',
  'level',
  'value',
  'parent',
  'days',
  'period',
];
const body = fc.oneof(
  fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), nasty), value, { maxKeys: 8 }),
  value,
  fc.constant({ __proto__: { admin: true } }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}') as unknown),
);
/**
 * A query: usually one list parameter (so a case gets past the other parameters' validation and
 * reaches the code that reads this one), sometimes several; documented names and values beside
 * hostile ones.
 */
const QUERY_KEYS = ['page', 'limit', 'sortField', 'sortOrder', 'filters', 'search', 'from', 'to'];
const queryValue = fc.oneof(
  nasty,
  fc.integer().map(String),
  fc.constantFrom('last_name', 'id', 'name', 'date', 'status', 'joined_date', 'descend', '1', '50', '2026-01-01'),
  value.map((v) => JSON.stringify(v) ?? 'undefined'),
  fc.constantFrom(
    '{"__proto__":1}',
    '{"status":["Active",null]}',
    '{"status":"Active"}',
    '{"department":{"$gt":0}}',
    '{"employee":[1,2,"x"]}',
    '[]',
  ),
);
const query = fc.oneof(
  { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...QUERY_KEYS), queryValue, { maxKeys: 1 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom(...QUERY_KEYS, '__proto__', 'constructor'), queryValue, { maxKeys: 4 }),
  },
);

interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  example?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  maximum?: number;
}

/**
 * Plausible bodies from the route's OpenAPI request schema (dates, e-mails, times, amounts, existing
 * ids, enum members), then one field replaced by a hostile value, dropped, or a hostile field
 * added: such a body gets past the request validation often enough to reach the services' own
 * checks, where a write made before a refusal would show.
 */
function schemaBodies(schemas: Record<string, Schema>, ids: number[]) {
  const resolve = (s: Schema): Schema => (s.$ref ? (schemas[s.$ref.split('/').pop() ?? ''] ?? {}) : s);
  const sample = (raw: Schema, depth: number): fc.Arbitrary<unknown> => {
    const s = resolve(raw);
    if (s.allOf) return sample(Object.assign({}, ...s.allOf.map(resolve)) as Schema, depth);
    if (s.oneOf) return fc.oneof(...s.oneOf.map((o) => sample(o, depth)));
    if (s.enum?.length) return fc.constantFrom(...s.enum);
    switch (s.type) {
      case 'object': {
        const props = s.properties ?? {};
        if (depth > 3) return fc.constant({});
        const required = new Set(s.required ?? []);
        const field = (keys: string[]) => fc.record(Object.fromEntries(keys.map((k) => [k, sample(props[k], depth + 1)])));
        // The required fields and at most two optional ones: every further field is a further
        // chance of a validation error before the code under test.
        const optional = Object.keys(props).filter((k) => !required.has(k));
        return fc
          .tuple(
            field([...required].filter((k) => k in props)),
            fc.subarray(optional, { maxLength: Math.min(2, optional.length) }).chain(field),
          )
          .map(([a, b]) => ({ ...a, ...b }));
      }
      case 'array':
        return fc.array(sample(s.items ?? {}, depth + 1), { maxLength: 2 });
      case 'integer':
      case 'number':
        return fc.oneof(
          fc.constantFrom(...ids),
          fc.integer({ min: s.minimum ?? 0, max: Math.max(s.minimum ?? 0, Math.min(s.maximum ?? 40, 40)) }),
        );
      case 'boolean':
        return fc.boolean();
      case 'string':
        if (s.format === 'date') return fc.constantFrom('2026-03-02', '2026-03-10', '2026-12-31', '2025-01-01');
        if (s.format === 'date-time') return fc.constantFrom('2026-03-02T09:00:00Z', '2026-03-02T17:00:00+01:00');
        if (s.format === 'email') return fc.constantFrom('fuzz@x.test', 'employee1@company.test');
        return fc.oneof(
          ...(typeof s.example === 'string' ? [fc.constant(s.example)] : []),
          fc.constantFrom('Fuzz', 'Engineering', 'basic + 1', '09:00', '17:30', 'EUR', '100.00', 'Active', 'Yes'),
          fc.constantFrom(...COSTLY),
        );
      case undefined:
      default:
        return value;
    }
  };
  return (schema: Schema): fc.Arbitrary<unknown> =>
    sample(schema, 0).chain((b) => {
      if (typeof b !== 'object' || b === null || Array.isArray(b)) return fc.constant(b);
      const keys = Object.keys(b);
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(b) },
        ...(keys.length
          ? [
              { weight: 3, arbitrary: fc.tuple(fc.constantFrom(...keys), value).map(([k, v]) => ({ ...b, [k]: v })) },
              {
                weight: 1,
                arbitrary: fc
                  .constantFrom(...keys)
                  .map((k) => Object.fromEntries(Object.entries(b).filter(([key]) => key !== k))),
              },
            ]
          : []),
        { weight: 1, arbitrary: fc.tuple(nasty, value).map(([k, v]) => ({ ...b, [k]: v })) },
      );
    });
}

describeIf(LONG, NEEDS_LONG)('hostile input: property-based, every route with a body or a query', () => {
  let t: TestApp;
  let c: Company;
  let ds: DataSource;
  let tables: string[];
  let scimToken: string;

  beforeAll(async () => {
    // The webhook dispatcher writes in the background (it marks outbox events dispatched): not
    // during this test, whose checksums compare the database around each request.
    t = await createTestApp({
      LOGIN_RATE_LIMIT_PER_ADDRESS: '100000',
      LOGIN_RATE_LIMIT_PER_USERNAME: '100000',
      OUTBOX_RELAY_MS: '600000',
    });
    c = await buildCompany(t.app);
    ds = t.app.get(DataSource);
    // scim_tokens: a SCIM token's last_used_at is a usage mark (once a minute), like the sign-in counters.
    // outbox_cursors: the relay's bookkeeping, which the daily accrual job moves when it has the
    // relay hand its subscriber what is waiting (OutboxRelay.catchUp); events are compared without
    // the sequence it gives them.
    tables = ds.entityMetadatas
      .map((m) => m.tableName)
      .filter((table) => table !== 'scim_tokens' && table !== 'outbox_cursors')
      .sort();
    scimToken = (await t.app.get(ScimTokensService).issue('fuzz', null)).token;
  });
  afterAll(() => t.close());

  /**
   * Until the background jobs an earlier accepted case started (a subject-access export) have
   * written what they write: what a later refused case is compared against is the database at rest.
   * Waiting and running jobs only: on Bull a scheduled job's next run counts as delayed.
   */
  const settled = async () => {
    const runner = t.app.get<JobRunner>(JOB_RUNNER);
    for (let i = 0; i < 400; i++) {
      if ((await runner.depth()).every((q) => !q.waiting && !q.active)) return;
      await new Promise((r) => setTimeout(r, 25));
    }
  };

  /** Every row of every table, hashed (small test database: a few hundred rows). */
  const checksum = async () => {
    const hash = createHash('sha256');
    for (const table of tables) {
      const columns = table === 'outbox_events' ? 'id, event_id, event, payload, created_at, employee_id' : '*';
      hash.update(JSON.stringify(await ds.query(`SELECT ${columns} FROM ${table} ORDER BY 1`)));
    }
    return hash.digest('hex');
  };

  it(
    `${RUNS} cases: never a 5xx, refusals in the envelope and without a trace in the database`,
    async () => {
      // Sign-in and token routes keep attempt counters by design; the password change would end the session.
      const skip = (r: DiscoveredRoute) => r.path.startsWith('/oauth/') || r.path === '/users/me/password';
      const routes = discoverRoutes(t.app).filter((r) => !skip(r));
      const callers = [c.users.admin.token, c.users.restricted.token, c.users.manager.token, c.users.employee.token];
      // Mostly ids that exist (so a case reaches the service), sometimes hostile ones.
      const realIds = [String(c.emp.report1), String(c.emp.outsider), String(c.emp.manager), '1'];
      const badIds = ['987654', '-1', '0', '1e3', '%2e%2e', '__proto__'];
      const ids = fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...realIds) },
        { weight: 1, arbitrary: fc.constantFrom(...badIds) },
      );
      // Each route's request schema, from the OpenAPI document the application serves.
      const doc = (await t.app.inject({ method: 'GET', url: '/app/api/openapi.json' })).json<{
        paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
        components: { schemas: Record<string, Schema> };
      }>();
      const plausible = schemaBodies(doc.components.schemas, [c.emp.report1, c.emp.outsider, 1, 2, 3]);
      const requestSchema = (route: DiscoveredRoute): Schema | undefined => {
        const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
        return doc.paths[path]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
      };
      expect(routes.filter((r) => requestSchema(r)).length).toBeGreaterThan(50);
      const routeAndBody = fc.constantFrom(...routes).chain((route) => {
        const schema = requestSchema(route);
        return fc.tuple(
          fc.constant(route),
          schema ? fc.oneof({ weight: 2, arbitrary: plausible(schema) }, { weight: 1, arbitrary: body }) : body,
        );
      });
      const failures: string[] = [];
      let cases = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(routeAndBody, fc.constantFrom(...callers), ids, query, async ([route, payload], token, id, params) => {
          cases += 1;
          const qs = new URLSearchParams(params).toString();
          const url = `/app/api${route.path.replace(/:[A-Za-z]+/g, id)}${qs ? `?${qs}` : ''}`;
          await settled();
          const before = await checksum();
          const scim = route.path.startsWith('/scim/v2/');
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            // SCIM routes take a SCIM token alone (issue 47): the level tokens would only meet the 401.
            headers: { authorization: `Bearer ${scim ? scimToken : token}`, 'content-type': 'application/json' },
            ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: JSON.stringify(payload) ?? 'null' }),
          });
          const where = `${route.method} ${url.slice(0, 200)} ${JSON.stringify(payload)?.slice(0, 200)}`;
          // SCIM's 501 (/Me, /Bulk, root .search: RFC 7644) is its deliberate answer, not a failure.
          const deliberate = res.statusCode === 501 && route.path.startsWith('/scim/v2/');
          if (res.statusCode >= 500 && !deliberate) failures.push(`${res.statusCode} ${where}: ${res.body.slice(0, 200)}`);
          if (res.statusCode >= 400 && res.statusCode < 500) {
            refused += 1;
            const envelope = res.json<{ status?: string; error?: { code?: string }; schemas?: string[]; detail?: unknown }>();
            const scimError =
              scim &&
              envelope.schemas?.[0] === 'urn:ietf:params:scim:api:messages:2.0:Error' &&
              typeof envelope.detail === 'string';
            if (!scimError && (envelope.status !== 'ERROR' || typeof envelope.error?.code !== 'string'))
              failures.push(`no error envelope ${where}: ${res.body.slice(0, 200)}`);
            if ((await checksum()) !== before) failures.push(`${res.statusCode} changed the database: ${where}`);
          }
          return failures.length === 0;
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      console.log(
        `fuzz: ${cases} cases over ${routes.length} routes, ${refused} refused, ${failures.length} failures (seed ${SEED})`,
      );
      expect(failures).toEqual([]);

      const signIn = await t.app.inject({
        method: 'POST',
        url: '/app/api/oauth/token',
        payload: { grant_type: 'password', username: c.users.admin.user.username, password: c.users.admin.password },
      });
      expect(signIn.statusCode).toBe(200);
      // 12 s alone for 1 000 cases on SQLite, three times that beside the other suites on two cores. On
      // MariaDB 300 cases took 17 s alone and over 120 s in .ci/run beside six other jest processes
      // (2026-12-03): the bound is for a hang, not a speed.
    },
    Math.max(INTEGRATION ? 600_000 : 120_000, RUNS * 100),
  );
});
