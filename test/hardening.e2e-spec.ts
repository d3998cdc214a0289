import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { DEFAULT_SCRYPT, PasswordHasher } from '../src/auth/password-hasher';
import { loadConfig } from '../src/config/config';
import { User } from '../src/users/entities/user.entity';
import { UsersService } from '../src/users/users.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { multipartForm, SAMPLE_FILES } from './helpers/multipart';
import { apiCaller, bearer, createTestApp, createUser, TestApp } from './helpers/test-app';

/** Regression tests of issue 8 (hardening); each block names its item. */
describe('hardening (issue 8)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let doc: { paths: Record<string, Record<string, OpenApiOperation>>; components: { schemas: Record<string, Schema> } };

  interface OpenApiOperation {
    parameters?: Array<{ name: string }>;
    requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
  }
  interface Schema {
    properties: Record<string, { nullable?: boolean }>;
    required?: string[];
  }

  const signIn = (username: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload: { grant_type: 'password', username, password } });

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS: '100000', LOGIN_RATE_LIMIT_PER_USERNAME: '100000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    doc = (await t.app.inject({ method: 'GET', url: '/app/api/openapi.json' })).json();
  });
  afterAll(() => t.close());

  describe('item 1: client-supplied names never index a plain object', () => {
    const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

    it('refuses prototype names as sortField and filter names on every paged list with 400 naming them; sign-in still works', async () => {
      const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
      // A record for every kind of {id} a list hangs under: an employee, a payroll.
      const column = (
        await call('POST', '/payroll_config/payroll-columns', c.users.admin.token, { name: 'Proto probe', default_value: '1' })
      ).json().data.id;
      const payroll = await call('POST', '/payroll_config/payrolls', c.users.admin.token, {
        name: 'Proto probe',
        pay_period: 4,
        department: c.departments.company,
        date_start: '2026-01-01',
        date_end: '2026-01-31',
        columns: [column],
      });
      // A public address literal: no DNS needed, and allowed without WEBHOOK_ALLOW_PRIVATE.
      const webhook = await call('POST', '/webhooks', c.users.admin.token, {
        url: 'http://93.184.216.34/hook',
        events: ['user.created'],
      });
      const calendar = (await call('GET', '/calendars', c.users.admin.token)).json().data[0].id as number;
      const idFor = (path: string) =>
        (path.startsWith('/payroll_config/payrolls/')
          ? payroll.json().data.id
          : path.startsWith('/webhooks/')
            ? webhook.json().data.id
            : path.startsWith('/calendars/')
              ? calendar
              : c.emp.report1) as number;
      const lists = Object.entries(doc.paths)
        .filter(([, ops]) => ops.get?.parameters?.some((p) => p.name === 'sortField'))
        .map(([path]) => path.replace('{id}', String(idFor(path))));
      expect(lists.length).toBeGreaterThanOrEqual(20);
      for (const path of lists) {
        for (const name of NAMES) {
          const sorted = await call('GET', `${path}?sortField=${encodeURIComponent(name)}`, c.users.admin.token);
          expect({ path, name, status: sorted.statusCode }).toEqual({ path, name, status: 400 });
          expect(sorted.json().error.details[0].field).toBe('sortField');
          const filters = encodeURIComponent(JSON.stringify({ [name]: 1 }));
          const filtered = await call('GET', `${path}?filters=${filters}`, c.users.admin.token);
          expect({ path, name, status: filtered.statusCode }).toEqual({ path, name, status: 400 });
          // Lists over a fixed registry take no filters at all ("filters"); the others name the field.
          expect([['filters'], [`filters.${name}`]]).toContainEqual(
            filtered.json().error.details.map((d: { field: string }) => d.field),
          );
        }
        // JSON.parse makes "__proto__" an own key: the raw text must be refused as well.
        const raw = await call('GET', `${path}?filters=${encodeURIComponent('{"__proto__":{"x":1}}')}`, c.users.admin.token);
        expect(raw.statusCode).toBe(400);
      }
      for (const name of NAMES) {
        const res = await call('GET', `/employees?${encodeURIComponent(name)}=1`, c.users.admin.token);
        expect({ name, status: res.statusCode }).toEqual({ name, status: 400 });
      }
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
      const fresh = await createUser(t.app, 'Employee', { employeeId: c.emp.outsider });
      expect((await signIn(fresh.user.username, fresh.password)).statusCode).toBe(200);
      expect((await call('GET', '/employees/me', fresh.token)).statusCode).toBe(200);
    });

    it('refuses bodies whose keys would reach an object prototype', async () => {
      for (const payload of ['{"__proto__":{"admin":true},"name":"X1"}', '{"constructor":{"prototype":{"a":1}},"name":"X2"}']) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/app/api/job-titles',
          headers: { ...bearer(c.users.admin.token), 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
      }
    });

    it('looks settings up by own names only', async () => {
      for (const name of ['__proto__', 'constructor', 'toString']) {
        const res = await call('PUT', '/settings', c.users.admin.token, { name, value: 'Yes' });
        expect(res.statusCode).toBe(400);
      }
    });
  });

  describe('item 3: null in updates', () => {
    /** How to make one record of each PUT route, and who may update it. */
    const fixtures: Record<string, () => Promise<{ id: number | string; token: string; url?: string }>> = {};
    const adminPost = (path: string, body: object) => async () => {
      const res = await call('POST', path, c.users.admin.token, body);
      expect({ path, body: res.json() }).toEqual({ path, body: expect.objectContaining({ status: 'SUCCESS' }) });
      return { id: res.json().data.id as number, token: c.users.admin.token };
    };
    let n = 0;
    const name = () => `Null probe ${++n}`;
    let days = 0;
    const nextDay = () => new Date(Date.UTC(2023, 0, 2) + days++ * 86_400_000).toISOString().slice(0, 10);
    beforeAll(() => {
      for (const path of [
        'job-titles',
        'employment-statuses',
        'nationalities',
        'languages',
        'skills',
        'certifications',
        'education-levels',
      ])
        fixtures[`/${path}/{id}`] = async () => adminPost(`/${path}`, { name: name() })();
      fixtures['/departments/{id}'] = async () => adminPost('/departments', { name: name(), parent: c.departments.company })();
      fixtures['/pay-grades/{id}'] = async () =>
        adminPost('/pay-grades', { name: name(), currency: 'EUR', min_salary: '1000.00', max_salary: '2000.00' })();
      fixtures['/employees/{id}'] = async () =>
        adminPost('/employees', employeeBody({ department: c.departments.engineering, middle_name: 'M', gender: 'Female' }))();
      fixtures['/users/{id}'] = async () => {
        const employeeId = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id as number;
        return { id: (await createUser(t.app, 'Employee', { employeeId })).user.id, token: c.users.admin.token };
      };
      fixtures['/attendance/{id}'] = async () => {
        const day = nextDay();
        const employee = (await call('POST', '/employees', c.users.admin.token, employeeBody())).json().data.id as number;
        return adminPost('/attendance', { employee, in_time: `${day}T09:00:00Z`, out_time: `${day}T17:00:00Z`, note: 'n' })();
      };
      fixtures['/leave-types/{id}'] = async () =>
        adminPost('/leave-types', { name: name(), default_days: 10, color: '#112233' })();
      fixtures['/leave-periods/{id}'] = async () => {
        const year = 2100 + ++n;
        return adminPost('/leave-periods', { name: name(), date_start: `${year}-01-01`, date_end: `${year}-12-31` })();
      };
      fixtures['/holidays/{id}'] = async () => adminPost('/holidays', { name: name(), date: nextDay() })();
      const ledgerType = async () => (await adminPost('/leave-types', { name: name(), default_days: 0 })()).id;
      fixtures['/leave-policies/{id}'] = async () =>
        adminPost('/leave-policies', {
          name: name(),
          leave_type: await ledgerType(),
          accrual: 'monthly',
          amount: 2,
          max_balance: 30,
          carry_over_max: 5,
          carry_over_expiry_months: 3,
          encashment_max: 2,
        })();
      fixtures['/leave-policy-assignments/{id}'] = async () => {
        const policy = (
          await adminPost('/leave-policies', { name: name(), leave_type: await ledgerType(), accrual: 'none', amount: 0 })()
        ).id;
        return adminPost('/leave-policy-assignments', {
          policy,
          department: c.departments.sales,
          valid_from: '2026-01-01',
          valid_to: '2026-12-31',
        })();
      };
      fixtures['/projects/{id}'] = async () => adminPost('/projects', { name: name(), client: 'C' })();
      fixtures['/payroll_config/payroll-groups/{id}'] = async () =>
        adminPost('/payroll_config/payroll-groups', { name: name(), description: 'd' })();
      fixtures['/payroll_config/payroll-tests/{id}'] = async () =>
        adminPost('/payroll_config/payroll-tests', {
          name: name(),
          employee: { salary: { '1': '100.00' }, hooks: { overtime_hours: '1' }, fields: { age: 30 } },
          expected: { x: '1.00' },
        })();
      fixtures['/payroll_config/tables/{id}'] = async () =>
        adminPost('/payroll_config/tables', {
          name: name(),
          kind: 'lookup',
          versions: [{ effective_from: '2025-01-01', rows: [{ key: 'a', value: '1.00' }] }],
        })();
      fixtures['/approval-policies/{id}'] = async () =>
        adminPost('/approval-policies', {
          name: name(),
          applies_to: 'leave',
          conditions: { min_days: 3, departments: [c.departments.sales] },
          steps: [{ approvers: ['supervisor', 'department_head'], mode: 'all' }],
          escalate_after_days: 4,
        })();
      fixtures['/checklist-templates/{id}'] = async () =>
        adminPost('/checklist-templates', {
          name: name(),
          trigger: 'change',
          conditions: { departments: [c.departments.sales], fields: ['pay_grade'] },
          items: [{ title: 'Review', description: 'the new grade', assignee: 'supervisor', offset_days: 2, document_type: null }],
        })();
      fixtures['/expense-categories/{id}'] = async () =>
        adminPost('/expense-categories', { name: name(), account: '6400', max_amount: '10.00', requires_receipt: true })();
      const categories = [
        'contact',
        'identity',
        'bank_accounts',
        'documents',
        'attendance',
        'timesheets',
        'leave',
        'notifications',
      ];
      fixtures['/retention-policies/{id}'] = async () =>
        adminPost('/retention-policies', { category: categories.shift(), keep_years: 5, action: 'anonymise' })();
      fixtures['/exchange-rates/{id}'] = async () =>
        adminPost('/exchange-rates', { currency: 'USD', date: nextDay(), rate: '0.9' })();
      fixtures['/approval-delegations/{id}'] = async () => {
        const day = nextDay();
        return adminPost('/approval-delegations', {
          delegator: c.emp.outsider,
          delegate: c.emp.manager,
          date_start: day,
          date_end: day,
        })();
      };
      // Seeded: the Yearly one (nothing else computes with it here).
      fixtures['/payroll_config/pay-frequencies/{id}'] = async () => ({ id: 5, token: c.users.admin.token });
      fixtures['/payroll_config/salary-components/{id}'] = async () =>
        adminPost('/payroll_config/salary-components', { name: name(), component_type: 'Earning', details: 'd' })();
      fixtures['/document-types/{id}'] = async () =>
        adminPost('/document-types', { name: name(), expires: true, notify_days_before: [14, 2] })();
      fixtures['/employees/{id}/documents/{docId}'] = async () => {
        const type = (await adminPost('/document-types', { name: name() })()).id;
        const form = multipartForm([
          { name: 'document_type', value: String(type) },
          { name: 'valid_from', value: '2026-01-01' },
          { name: 'valid_until', value: '2036-01-01' },
          { name: 'notes', value: 'n' },
          { name: 'file', filename: 'a.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf() },
        ]);
        const res = await t.app.inject({
          method: 'POST',
          url: `/app/api/employees/${c.emp.report2}/documents`,
          headers: { ...bearer(c.users.admin.token), ...form.headers },
          payload: form.payload,
        });
        const id = res.json().data.id as number;
        return { id, token: c.users.admin.token, url: `/employees/${c.emp.report2}/documents/${id}` };
      };
      fixtures['/employees/{id}/bank-accounts/{accountId}'] = async () => {
        const res = await call('POST', `/employees/${c.emp.report2}/bank-accounts`, c.users.admin.token, {
          iban: 'DE89370400440532013000',
          bic: 'COBADEFFXXX',
          holder_name: name(),
        });
        const id = res.json().data.id as number;
        return { id, token: c.users.admin.token, url: `/employees/${c.emp.report2}/bank-accounts/${id}` };
      };
      fixtures['/payroll_config/accounts/{id}'] = async () => {
        const column = (await adminPost('/payroll_config/payroll-columns', { name: name(), variable: `probe${++n}` })()).id;
        // Not posted (both accounts null): one account null alone is 400 naming it (payroll-books.e2e-spec).
        return adminPost('/payroll_config/accounts', {
          column,
          debit_account: null,
          credit_account: null,
          cost_centre: 'department',
        })();
      };
      fixtures['/calendars/{id}'] = async () => adminPost('/calendars', { name: name(), country: 'DE', subdivision: 'DE-BY' })();
      fixtures['/calendars/{id}/holidays/{holiday}'] = async () => {
        const calendar = (await adminPost('/calendars', { name: name(), country: 'FR' })()).id;
        const { id, token } = await adminPost(`/calendars/${calendar}/holidays`, { date: nextDay(), name: name() })();
        return { id, token, url: `/calendars/${calendar}/holidays/${id}` };
      };
      fixtures['/custom-fields/{id}'] = async () =>
        adminPost('/custom-fields', { key: `probe_${++n}`, label: name(), type: 'text', description: 'd' })();
      fixtures['/webhooks/{id}'] = async () =>
        adminPost('/webhooks', { url: 'http://93.184.216.34/hook', events: ['user.created'], description: 'd' })();
      // The caller's own settings: null goes back to the company's (a documented clear).
      fixtures['/users/me/notification-settings'] = () =>
        Promise.resolve({ id: 0, token: c.users.admin.token, url: '/users/me/notification-settings' });
      let lang = 0;
      fixtures['/notification-templates/{id}'] = async () =>
        adminPost('/notification-templates', {
          kind: 'leave.decided',
          lang: `x${String.fromCharCode(97 + lang++)}`,
          subject: '{{notification.title}}',
          html: '<p>{{notification.body}}</p>',
          text: '{{notification.body}}',
        })();
      fixtures['/expense-claims/{id}'] = async () => {
        const me = c.users.employee.token;
        const category = (await adminPost('/expense-categories', { name: name(), account: '6400' })()).id;
        const res = await call('POST', '/expense-claims', me, {
          title: 'Probe',
          items: [{ category, date: '2026-03-02', description: 'Taxi', amount: '12.50' }],
        });
        return { id: res.json().data.id as number, token: me };
      };
      fixtures['/timesheets/{id}'] = async () => {
        const me = c.users.employee.token;
        const day = nextDay();
        const res = await call('POST', '/timesheets', me, { date: day, start: '09:00', end: '10:00', details: 'd' });
        return { id: res.json().data.id as number, token: me };
      };
    });

    it('every update DTO: null for each field is 400 naming it, or a documented clear; never a 5xx; nothing else changes', async () => {
      // SCIM's PUTs take a SCIM resource (RFC 7643), not a DTO of ours: the SCIM e2e and the Microsoft collection check them.
      // A PUT of a file (a claim item's receipt) takes multipart/form-data, no DTO: its own suite checks it.
      const puts = Object.entries(doc.paths).filter(
        ([path, ops]) => ops.put && !path.startsWith('/scim/v2/') && !ops.put.requestBody?.content['multipart/form-data'],
      );
      const covered: string[] = [];
      for (const [path, ops] of puts) {
        const ref = ops.put.requestBody?.content['application/json'].schema.$ref as string;
        const schema = doc.components.schemas[ref.split('/').pop() as string];
        if (path === '/employees/{id}/salary') {
          const url = `/employees/${c.emp.report2}/salary`;
          for (const body of [
            { items: null },
            { items: [null] },
            { items: [{ component: null, amount: '1.00' }] },
            { items: [{ component: 1, amount: null }] },
          ]) {
            const res = await call('PUT', url, c.users.admin.token, body);
            expect({ path, body, status: res.statusCode }).toEqual({ path, body, status: 400 });
          }
          covered.push(path);
          continue;
        }
        if (path === '/users/me/notification-preferences') {
          for (const body of [
            { items: null },
            { items: [null] },
            { items: [{ kind: null, email: true }] },
            { items: [{ kind: 'leave.requested', email: null }] },
            { items: [{ kind: 'leave.requested', in_app: null }] },
            { items: [{ kind: 'leave.requested', frequency: null }] },
          ]) {
            const res = await call('PUT', path, c.users.employee.token, body);
            expect({ path, body, status: res.statusCode }).toEqual({ path, body, status: 400 });
          }
          covered.push(path);
          continue;
        }
        if (path === '/settings') {
          for (const field of Object.keys(schema.properties)) {
            const res = await call('PUT', path, c.users.admin.token, { name: 'Company Name', value: 'x', [field]: null });
            expect({ path, field, status: res.statusCode }).toEqual({ path, field, status: 400 });
          }
          covered.push(path);
          continue;
        }
        expect({ path, fixture: !!fixtures[path] }).toEqual({ path, fixture: true });
        for (const field of Object.keys(schema.properties)) {
          // Ignored in the body: the id (docs/api/decisions.md §7), and what a GET returns that a PUT cannot change (readOnly, issue 41).
          if (field === 'id' || (schema.properties[field] as { readOnly?: boolean }).readOnly) continue;
          const made = await fixtures[path]();
          const { id, token } = made;
          const url = made.url ?? path.replace('{id}', String(id));
          const before = (await call('GET', url, c.users.admin.token)).json().data as Record<string, unknown>;
          const res = await call('PUT', url, token, { [field]: null });
          const after = (await call('GET', url, c.users.admin.token)).json().data as Record<string, unknown>;
          const nullable = schema.properties[field].nullable === true;
          expect({ path, field, status: res.statusCode }).toEqual({ path, field, status: nullable ? 200 : 400 });
          if (nullable) {
            const expected = { ...before, [field]: null };
            if (path === '/attendance/{id}' && field === 'out_time') expected.hours = null;
            if (path === '/employees/{id}/documents/{docId}' && field === 'valid_until') expected.status = 'No expiry';
            // A documented clear is a change: the record's time (whole seconds) may move on, never back.
            if ('updated_at' in before) {
              expect({ path, field, later: String(after.updated_at) >= String(before.updated_at) }).toEqual({
                path,
                field,
                later: true,
              });
              expected.updated_at = after.updated_at;
            }
            expect({ path, field, after }).toEqual({ path, field, after: expected });
          } else {
            expect(res.json().error.details).toEqual(
              expect.arrayContaining([{ field, message: expect.stringContaining('null') }]),
            );
            expect({ path, field, after }).toEqual({ path, field, after: before });
          }
        }
        covered.push(path);
      }
      expect(covered.length).toBe(puts.length);
      expect(covered).toEqual(
        expect.arrayContaining(['/employees/{id}', '/timesheets/{id}', '/attendance/{id}', '/departments/{id}']),
      );
    });

    it('the employee itself: null for a personal required field is 400, not 500', async () => {
      const me = c.users.employee.token;
      for (const field of ['first_name', 'last_name', 'employee_id', 'joined_date', 'status']) {
        const res = await call('PUT', `/employees/${c.emp.report1}`, me, { [field]: null });
        expect({ field, status: res.statusCode }).toEqual({ field, status: 400 });
      }
      const create = await call('POST', '/employees', c.users.admin.token, employeeBody({ status: null as unknown as string }));
      expect(create.statusCode).toBe(400);
    });
  });

  describe('item 4: deeply nested JSON', () => {
    it('refuses a body nested deeper than 64 levels with 400 before anything walks it', async () => {
      const depth = 100_000;
      const deep = `{"name":${'['.repeat(depth)}${']'.repeat(depth)}}`;
      for (const [url, headers] of [
        ['/app/api/job-titles', {}],
        ['/app/api/employees', { 'idempotency-key': 'deep-1' }],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url,
          headers: { ...bearer(c.users.admin.token), 'content-type': 'application/json', ...headers },
          payload: deep,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('INVALID_JSON');
      }
      const shallow = `{"name":${'['.repeat(60)}${']'.repeat(60)}}`;
      const ok = await t.app.inject({
        method: 'POST',
        url: '/app/api/job-titles',
        headers: { ...bearer(c.users.admin.token), 'content-type': 'application/json' },
        payload: shallow,
      });
      expect(ok.statusCode).toBe(400);
      expect(ok.json().error.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('item 5: only Authorization: Bearer carries a token', () => {
    it('ignores access_token in the query and the body; odd shapes are 401, never 500', async () => {
      const token = c.users.admin.token;
      const cases = [
        { url: `/app/api/employees?access_token=${token}`, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
        { url: `/app/api/employees?access_token=${token}`, headers: {} },
        { url: `/app/api/employees?access_token=${token}&access_token=${token}`, headers: { authorization: 'Basic x' } },
        { url: '/app/api/employees?access_token=5', headers: { authorization: 'Token abc' } },
      ];
      for (const { url, headers } of cases) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 401 });
      }
      for (const access_token of [token, [token], 5, { a: 1 }]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/app/api/job-titles',
          headers: { authorization: 'Basic dXNlcjpwYXNz' },
          payload: { name: 'Via body', access_token },
        });
        expect(res.statusCode).toBe(401);
      }
      expect((await call('GET', '/employees', token)).statusCode).toBe(200);
    });
  });

  describe('item 6: token responses are not cached', () => {
    it('answers /oauth/token with Cache-Control: no-store and Pragma: no-cache, success and error alike', async () => {
      const u = await createUser(t.app, 'Employee');
      for (const res of [await signIn(u.user.username, u.password), await signIn(u.user.username, 'wrong-password')]) {
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['pragma']).toBe('no-cache');
      }
    });
  });

  describe('item 10: password hashing', () => {
    it('hashes with scrypt N=2^15, r=8, p=3 and upgrades an older hash at the next successful sign-in', async () => {
      // The service's default; the suites hash at PASSWORD_SCRYPT_COST=10 (test-app), so the
      // hash of this app has N=2^10 and the same r and p.
      expect(DEFAULT_SCRYPT).toEqual({ logN: 15, r: 8, p: 3 });
      expect(loadConfig({}).passwordScryptCost).toBe(15);
      const current = new RegExp(`^scrypt\\$${t.config.passwordScryptCost}\\$8\\$3\\$`);
      const u = await createUser(t.app, 'Employee');
      const users = t.app.get<Repository<User>>(getRepositoryToken(User));
      expect((await users.findOneByOrFail({ id: u.user.id })).passwordHash).toMatch(current);
      await users.update(
        { id: u.user.id },
        { passwordHash: await new PasswordHasher({ logN: 14, r: 8, p: 1 }).hash(u.password) },
      );
      expect((await signIn(u.user.username, 'not-the-password')).statusCode).toBe(401);
      expect((await users.findOneByOrFail({ id: u.user.id })).passwordHash).toMatch(/^scrypt\$14\$8\$1\$/);
      expect((await signIn(u.user.username, u.password)).statusCode).toBe(200);
      const upgraded = (await users.findOneByOrFail({ id: u.user.id })).passwordHash;
      expect(upgraded).toMatch(current);
      expect((await signIn(u.user.username, u.password)).statusCode).toBe(200);
      expect(t.app.get(UsersService)).toBeDefined();
    });
  });

  describe('item 11: references outside the scope look missing', () => {
    it("a Restricted Admin's supervisor/approver outside its departments answers like a missing employee", async () => {
      const ra = c.users.restricted.token;
      for (const field of ['supervisor', 'approver1', 'approver2', 'approver3']) {
        const missing = await call('PUT', `/employees/${c.emp.report2}`, ra, { [field]: 999_999 });
        const outside = await call('PUT', `/employees/${c.emp.report2}`, ra, { [field]: c.emp.outsider });
        expect(missing.statusCode).toBe(400);
        expect({ status: outside.statusCode, body: outside.json() }).toEqual({ status: 400, body: missing.json() });
      }
      const inside = await call('PUT', `/employees/${c.emp.report2}`, ra, { approver1: c.emp.report1 });
      expect(inside.statusCode).toBe(200);
      // An Admin sees everybody: the outsider is a valid reference for it.
      expect(
        (await call('PUT', `/employees/${c.emp.report2}`, c.users.admin.token, { approver2: c.emp.outsider })).statusCode,
      ).toBe(200);
    });
  });

  describe('item 12: back-dated punches', () => {
    it("refuses an employee's own punch more than 24 h in the past, records longer than 24 h, and years outside range", async () => {
      const me = c.users.employee.token;
      const early = await call('POST', '/attendance/punch-in', me, { time: '1900-01-01T00:00:00Z' });
      expect(early.statusCode).toBe(400);
      expect(early.json().error.details[0].field).toBe('time');
      const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
      expect((await call('POST', '/attendance/punch-in', me, { time: dayAgo })).statusCode).toBe(400);
      const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
      expect((await call('POST', '/attendance/punch-in', me, { time: hourAgo })).statusCode).toBe(200);
      expect((await call('POST', '/attendance/punch-out', me, {})).statusCode).toBe(200);

      const admin = c.users.admin.token;
      const long = await call('POST', '/attendance', admin, {
        employee: c.emp.outsider,
        in_time: '2024-03-01T08:00:00Z',
        out_time: '2024-03-02T08:00:01Z',
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().error.details[0].field).toBe('out_time');
      for (const in_time of ['0999-03-01T08:00:00Z', '1899-12-31T08:00:00Z', '10000-03-01T08:00:00Z']) {
        const res = await call('POST', '/attendance', admin, { employee: c.emp.outsider, in_time });
        expect({ in_time, status: res.statusCode }).toEqual({ in_time, status: 400 });
      }
    });
  });

  describe('item 15: own records in the lists of employee-owned records', () => {
    it('an Employee sees its own attendance, leave and timesheets; a Manager its own and its reports', async () => {
      const me = c.users.employee.token;
      const mgr = c.users.manager.token;
      const admin = c.users.admin.token;
      const ts = (await call('POST', '/timesheets', me, { date: '2025-06-02', start: '09:00', end: '10:00' })).json().data.id;
      const mgrTs = (await call('POST', '/timesheets', mgr, { date: '2025-06-02', start: '09:00', end: '10:00' })).json().data.id;
      const att = (
        await call('POST', '/attendance', admin, {
          employee: c.emp.report1,
          in_time: '2025-06-02T09:00:00Z',
          out_time: '2025-06-02T10:00:00Z',
        })
      ).json().data.id;
      const type = (await call('POST', '/leave-types', admin, { name: 'Own list leave', default_days: 20 })).json().data.id;
      await call('POST', '/leave-periods', admin, { name: 'Own list 2027', date_start: '2027-01-01', date_end: '2027-12-31' });
      const leave = await call('POST', '/leaves', me, { leave_type: type, date_start: '2027-03-02', date_end: '2027-03-02' });
      expect(leave.statusCode).toBe(200);
      for (const [path, id] of [
        ['/timesheets', ts],
        ['/attendance', att],
        ['/leaves', leave.json().data.id],
      ] as const) {
        const mine = await call('GET', `${path}?limit=500`, me);
        expect(mine.statusCode).toBe(200);
        const ids = mine.json().data.map((r: { id: number }) => r.id);
        expect({ path, has: ids.includes(id) }).toEqual({ path, has: true });
        expect(mine.json().data.every((r: { employee: number }) => r.employee === c.emp.report1)).toBe(true);
        const team = (await call('GET', `${path}?limit=500`, mgr)).json().data as Array<{ id: number; employee: number }>;
        expect({ path, has: team.some((r) => r.id === id) }).toEqual({ path, has: true });
        expect(team.every((r) => [c.emp.manager, c.emp.report1, c.emp.report2].includes(r.employee))).toBe(true);
        const filtered = await call(
          'GET',
          `${path}?filters=${encodeURIComponent(JSON.stringify({ employee: c.emp.outsider }))}`,
          me,
        );
        expect(filtered.json().data).toEqual([]);
      }
      const mgrList = (await call('GET', '/timesheets?limit=500', mgr)).json().data.map((r: { id: number }) => r.id);
      expect(mgrList).toContain(mgrTs);
    });
  });
});
