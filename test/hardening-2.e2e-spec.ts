import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PayrollColumn } from '../src/payroll/entities/payroll-config.entities';
import { PayslipTemplate } from '../src/payroll/entities/payroll-run.entities';
import { PayrollRunsRepository } from '../src/payroll/runs/payroll-runs.repository';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, createUser, INTEGRATION, okCaller, TestApp, until } from './helpers/test-app';

/** Regression tests of issue 24 (hardening II); each block names its item. */
describe('hardening II (issue 24)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let basic: number;
  const mysql = () => t.config.database.type === 'mysql';

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object, token = admin) =>
    okCaller(t.app)(method, url, token, body);
  const settled = async (id: number) => {
    await until(
      async () => !['Processing', 'Completing'].includes((await ok('GET', `/payroll_config/payrolls/${id}`)).status),
      20_000,
    );
    return ok('GET', `/payroll_config/payrolls/${id}`);
  };
  const preview = (content: string) => call('POST', '/payroll_config/payslip-templates/preview', admin, { content });
  const saveTemplate = (name: string, content: string) =>
    call('POST', '/payroll_config/payslip-templates', admin, { name, content });
  /** A payroll of the Engineering staff with these columns, processed. */
  const processed = async (name: string, columns: number[], over: object = {}) => {
    const payroll = await ok('POST', '/payroll_config/payrolls', {
      name,
      pay_period: 4,
      department: c.departments.engineering,
      date_start: '2026-03-01',
      date_end: '2026-03-31',
      columns,
      ...over,
    });
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    return settled(payroll.id);
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_USERNAME: '3', LOGIN_RATE_LIMIT_PER_ADDRESS: '100000' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    for (const employee of [c.emp.manager, c.emp.report1, c.emp.report2]) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount: '1000.00' }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
  });
  afterAll(() => t.close());

  describe('items 1 and 6: templates are the documented language, rendered with bounded work', () => {
    const chained = (levels: number, inner = '') => {
      let s = `{{#*inline "a0"}}${inner}{{/inline}}`;
      for (let i = 1; i <= levels; i++) s += `{{#*inline "a${i}"}}{{> a${i - 1}}}{{> a${i - 1}}}{{/inline}}`;
      return `${s}{{> a${levels}}}`;
    };

    it('refuses partials, inline partials, decorators, helpers misused and deep nesting with 400 and a position, at save and preview', async () => {
      let nested = '';
      for (let i = 0; i < 20; i++) nested = `{{#each @root.columns}}x${nested}{{/each}}`;
      const refused: Array<[string, RegExp]> = [
        [chained(24), /partial/],
        ['{{> x}}', /partial/],
        ['{{#*inline "r"}}{{> r}}{{/inline}}{{> r}}', /partial/],
        ['{{#if}}x{{/if}}', /exactly one value/],
        ['{{#each}}x{{/each}}', /exactly one value/],
        ['{{#if 1 2}}x{{/if}}', /exactly one value/],
        ['{{*foo}}', /decorator/],
        ['{{#with employee}}{{name}}{{/with}}', /not a block/],
        ['{{lookup employee "name"}}', /helpers/],
        ['{{{employee.name}}}', /escaped/],
        ['{{#each columns as |c|}}{{c.name}}{{/each}}', /block parameters/],
        [nested, /nested deeper than 4/],
      ];
      for (const [content, reason] of refused) {
        for (const res of [await preview(content), await saveTemplate(`Refused ${content.length}`, content)]) {
          const body = res.json();
          expect({ content: content.slice(0, 60), status: res.statusCode, field: body.error?.details?.[0]?.field }).toEqual({
            content: content.slice(0, 60),
            status: 400,
            field: 'content',
          });
          expect(body.error.details[0].message).toMatch(reason);
          expect(body.error.details[0].message).toMatch(/\(line \d+, column \d+\)$/);
        }
      }
    });

    it('a render past its output bound is a 400 on preview, not 64 MB; the documented language still renders', async () => {
      // Allowed by the checks (4 levels), but 2^4 copies of 90 000 characters is past the output bound.
      const big = 'x'.repeat(90_000);
      const wide = `{{#each columns}}{{#each @root.columns}}{{#each @root.columns}}{{#each @root.columns}}${big}{{/each}}{{/each}}{{/each}}{{/each}}`;
      const res = await preview(wide);
      expect([res.statusCode, res.json().error.details[0]]).toEqual([
        400,
        { field: 'content', message: expect.stringMatching(/longer than 1000000 characters/) },
      ]);
      const fine = await ok('POST', '/payroll_config/payslip-templates/preview', {
        content:
          '{{! a comment }}<h1>{{company.name}}</h1>{{#each columns}}{{#if @first}}[{{/if}}{{@index}}:{{name}}={{value}}{{#unless @last}}, {{else}}]{{/unless}}{{/each}}{{#if employee.middle_name}}no{{else if columns}} yes{{/if}}',
      });
      expect(fine.html).toMatch(/^<h1>.+<\/h1>\[0:.+=.*, 1:.+=.*\] yes$/);
    });

    it('generation: a payslip past a bound is an error of that employee; the payroll goes back to Processed without payslips', async () => {
      const column = (await ok('POST', '/payroll_config/payroll-columns', { name: 'T1 basic', salary_components: [basic] })).id;
      // 3 × 4 × 4 copies of 90 000 characters: past the output bound for every employee.
      const content = `{{#each employee}}{{#each @root.payroll}}{{#each @root.payroll}}${'y'.repeat(90_000)}{{/each}}{{/each}}{{/each}}`;
      const template = await ok('POST', '/payroll_config/payslip-templates', { name: 'Too long', content });
      const payroll = await processed('Template bound', [column], { payslip_template: template.id });
      expect(payroll.status).toBe('Processed');
      await ok('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`);
      const after = await settled(payroll.id);
      expect(after).toMatchObject({ status: 'Processed', error: '3 payslips could not be rendered: see /errors' });
      const errors = await ok('GET', `/payroll_config/payrolls/${payroll.id}/errors`);
      expect(errors.map((e: { employee: number }) => e.employee).sort()).toEqual(
        [c.emp.manager, c.emp.report1, c.emp.report2].sort(),
      );
      expect(errors[0]).toEqual({ employee: expect.any(Number), column: null, message: expect.stringMatching(/longer than/) });
      expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}/payslips`)).toEqual([]);
    });

    it('generation: a template saved before these rules is refused with its reason, not a helper message', async () => {
      const column = (await ok('POST', '/payroll_config/payroll-columns', { name: 'T2 basic', salary_components: [basic] })).id;
      const repo = t.app.get<Repository<PayslipTemplate>>(getRepositoryToken(PayslipTemplate));
      const old = await repo.save(repo.create({ name: 'Saved long ago', status: 'Active', content: '{{#if}}x{{/if}}' }));
      const payroll = await processed('Old template', [column], { payslip_template: old.id });
      await ok('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`);
      const after = await settled(payroll.id);
      expect(after.status).toBe('Processed');
      expect(after.error).toMatch(
        new RegExp(`^the payslip template ${old.id} cannot be used: .*exactly one value.*\\(line 1, column 1\\)$`),
      );
    });
  });

  describe('items 2, 3, 11: formulas are bounded in magnitude; no NaN or Infinity is ever money', () => {
    it('refuses literals beyond the range and deep unary chains at validate-script, with a position', async () => {
      for (const script of [
        '1e1200000 % 7.3',
        '1e99999999999999999 - 1',
        '2 + 1e-50',
        '-'.repeat(9000) + '1',
        '!'.repeat(9000) + '1',
      ]) {
        const res = await call('POST', '/payroll_config/validate-script', admin, { script });
        expect({ script: script.slice(0, 30), status: res.statusCode }).toEqual({ script: script.slice(0, 30), status: 200 });
        const body = res.json().data;
        expect({ script: script.slice(0, 30), valid: body.valid }).toEqual({ script: script.slice(0, 30), valid: false });
        expect(body.errors[0]).toEqual({ message: expect.stringMatching(/range|nested/), line: 1, column: expect.any(Number) });
      }
    });

    it('a result beyond the range is a per-cell error "out of range"; a script saved before the range existed never makes NaN money', async () => {
      const base = (await ok('POST', '/payroll_config/payroll-columns', { name: 'T3 base', default_value: '1' })).id;
      const huge = (
        await ok('POST', '/payroll_config/payroll-columns', {
          name: 'T3 huge',
          script: '(t3_base * 9e30) ^ 2 - (t3_base * 9e30) ^ 2',
        })
      ).id;
      const payroll = await processed('Out of range', [base, huge]);
      expect(payroll).toMatchObject({ status: 'Failed', error: '3 cells could not be computed: see /errors' });
      const errors = await ok('GET', `/payroll_config/payrolls/${payroll.id}/errors`);
      expect(new Set(errors.map((e: { column: number; message: string }) => `${e.column}: ${e.message}`))).toEqual(
        new Set([`${huge}: the result is out of range`]),
      );
      // Saved before this range existed (straight into the table): planning refuses it, no cell is NaN.
      const repo = t.app.get<Repository<PayrollColumn>>(getRepositoryToken(PayrollColumn));
      const old = await repo.save(
        repo.create({
          name: 'T3 old',
          variable: 't3_old',
          colorder: 99,
          enabled: true,
          editable: false,
          salaryComponents: [],
          addColumns: [],
          subColumns: [],
          calculationHook: null,
          calculationHookArgs: {},
          script: '1e99999999999999999 - 1e99999999999999999',
          defaultValue: null,
          deductionGroupId: null,
        }),
      );
      const nan = await processed('Not a number', [base, old.id]);
      expect(nan.status).toBe('Failed');
      const oldErrors = await ok('GET', `/payroll_config/payrolls/${nan.id}/errors`);
      expect(oldErrors).toHaveLength(2); // one per literal
      for (const e of oldErrors)
        expect(e).toEqual({ employee: null, column: old.id, message: expect.stringMatching(/out of range/) });
      const grid = await ok('GET', `/payroll_config/payrolls/${nan.id}/data`);
      for (const row of grid.rows) expect(Object.values(row.values)).not.toContain('NaN');
    });

    it('a failure that is not a cell’s (a driver error, say) reaches the payroll as a stable sentence, never its text', async () => {
      const column = (await ok('POST', '/payroll_config/payroll-columns', { name: 'T3 plain', default_value: '1' })).id;
      const spy = jest
        .spyOn(t.app.get(PayrollRunsRepository), 'insertCells')
        // Every attempt (with Redis a chunk is retried before it fails the payroll).
        .mockRejectedValue(new Error("Incorrect decimal value: 'NaN' for column `hr`.`payroll_cells`.`value` at row 1"));
      try {
        const payroll = await processed('Driver failure', [column]);
        expect(payroll.status).toBe('Failed');
        // The chunk that failed is named (issue 70), with its job.
        expect(payroll.error).toMatch(/^processing chunk 0 failed with an internal error \(job payroll-\d+-[0-9a-f-]+-chunk-0\)/);
        expect(payroll.error).not.toMatch(/Incorrect|payroll_cells|NaN/);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('item 4: sign-in limits are per user, and a name matches only itself', () => {
    const signIn = (username: string, password: string) =>
      t.app.inject({ method: 'POST', url: '/app/api/oauth/token', payload: { grant_type: 'password', username, password } });

    it('accent, width and case variants and the e-mail count in the user bucket; accent variants do not sign in', async () => {
      const user = await createUser(t.app, 'Employee', { username: 'limitadmin' });
      for (let i = 0; i < 3; i++) expect((await signIn('limitadmin', 'wrong-password')).statusCode).toBe(401);
      for (const variant of ['límitadmin', 'lïmitadmin', 'ｌｉｍｉｔａｄｍｉｎ', 'LIMİTADMIN', 'limitadmin@test.example']) {
        const res = await signIn(variant, user.password);
        expect({ variant, status: res.statusCode }).toEqual({ variant, status: 429 });
      }
      // Users with fresh buckets (3 attempts each): an accent variant of the name does not sign in;
      // NFKC and case folding are the same name (full-width letters, case, surrounding spaces).
      const variants = ['ádminuser0', 'ADMİNUSER1', 'admïnuser2', 'adminuse\u0301r3'];
      for (const [n, tried] of variants.entries()) {
        const other = await createUser(t.app, 'Employee', { username: `adminuser${n}` });
        const res = await signIn(tried, other.password);
        expect({ tried, status: res.statusCode, code: res.json().error?.code }).toEqual({
          tried,
          status: 401,
          code: 'INVALID_CREDENTIALS',
        });
        for (const same of [` AdminUser${n} `, `ＡＤＭＩＮＵＳＥＲ${String.fromCharCode(0xff10 + n)}`])
          expect({ same, status: (await signIn(same, other.password)).statusCode }).toEqual({ same, status: 200 });
      }
    });
  });

  describe('item 5: text columns hold what the API accepts', () => {
    it('a template of 40 000 "é" saves and reads back whole; a payslip over 64 KB is generated', async () => {
      const content = `${'é'.repeat(40_000)}{{employee.name}}`;
      const saved = await ok('POST', '/payroll_config/payslip-templates', { name: 'Accents', content });
      expect((await ok('GET', `/payroll_config/payslip-templates/${saved.id}`)).content).toBe(content);
      const column = (await ok('POST', '/payroll_config/payroll-columns', { name: 'T5 basic', salary_components: [basic] })).id;
      const payroll = await processed('Wide payslips', [column], { payslip_template: saved.id });
      await ok('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`);
      expect(await settled(payroll.id)).toMatchObject({ status: 'Completed', error: null });
      const slips = await ok('GET', `/payroll_config/payrolls/${payroll.id}/payslips`);
      expect(slips).toHaveLength(3);
      for (const slip of slips) expect(slip.html.startsWith('é'.repeat(40_000))).toBe(true);
    });
  });

  describe('item 7: webhook targets', () => {
    it('refuses documentation, discard and IPv4-embedding IPv6 addresses, without saying what a name resolved to', async () => {
      for (const url of [
        'http://192.0.2.10/h',
        'http://198.51.100.1/h',
        'http://203.0.113.5/h',
        'http://[::127.0.0.1]/h',
        'http://[::ffff:0:7f00:1]/h',
        'http://[2002:7f00:1::]/h',
        'http://[100::1]/h',
        'http://localhost/h',
      ]) {
        const res = await call('POST', '/webhooks', admin, { url, events: ['user.created'] });
        expect({ url, status: res.statusCode }).toEqual({ url, status: 400 });
        expect(JSON.stringify(res.json())).not.toMatch(/127\.0\.0\.1|::1|resolves to/);
      }
      const unknown = await call('POST', '/webhooks', admin, { url: 'http://no-such-host.invalid/h', events: ['user.created'] });
      const local = await call('POST', '/webhooks', admin, { url: 'http://localhost/h', events: ['user.created'] });
      // A name that does not resolve and a name that resolves to this host answer alike: no DNS oracle.
      expect(unknown.json().error).toEqual(local.json().error);
    });
  });

  describe('item 8: renaming a column variable that scripts read', () => {
    it('answers 409 naming the columns that read it, and changes nothing', async () => {
      const read = await ok('POST', '/payroll_config/payroll-columns', { name: 'T8 read', default_value: '2' });
      const reader = await ok('POST', '/payroll_config/payroll-columns', { name: 'T8 reader', script: 't8_read * 2' });
      const res = await call('POST', '/payroll_config/payroll-columns', admin, {
        id: read.id,
        name: 'T8 read',
        variable: 'renamed',
      });
      expect([res.statusCode, res.json().error.code]).toEqual([409, 'IN_USE']);
      expect(res.json().error.message).toContain('column t8_reader');
      expect((await ok('GET', `/payroll_config/payroll-columns/${read.id}`)).variable).toBe('t8_read');
      // Renaming a variable nobody reads is fine.
      const alone = await ok('POST', '/payroll_config/payroll-columns', {
        id: reader.id,
        name: 'T8 reader',
        variable: 't8_renamed',
      });
      expect(alone.variable).toBe('t8_renamed');
    });
  });

  describe('item 9: payroll data follows the employee scope', () => {
    it('a Restricted Admin no longer reads a moved employee through the payroll routes, like through /employees/{id}/payslips', async () => {
      const column = (
        await ok('POST', '/payroll_config/payroll-columns', { name: 'T9 basic', salary_components: [basic], editable: true })
      ).id;
      const template = await ok('POST', '/payroll_config/payslip-templates', { name: 'T9', content: '{{employee.name}}' });
      const moved = (await ok('POST', '/employees', employeeBody({ department: c.departments.engineering }))).id;
      await ok('PUT', `/employees/${moved}/salary`, { items: [{ component: basic, amount: '2000.00' }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee: moved, pay_frequency: 4, currency: 'EUR' });
      const payroll = await processed('Scope', [column], { payslip_template: template.id });
      await ok('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`);
      expect((await settled(payroll.id)).status).toBe('Completed');
      const ra = c.users.restricted.token;
      const employeesOf = async (url: string, pick: (d: { data: unknown }) => number[]) =>
        pick((await call('GET', url, ra)).json());
      const gridUrl = `/payroll_config/payrolls/${payroll.id}/data`;
      const slipsUrl = `/payroll_config/payrolls/${payroll.id}/payslips`;
      const fromGrid = (d: { data: unknown }) =>
        (d.data as { rows: Array<{ employee: { id: number } }> }).rows.map((r) => r.employee.id);
      const fromSlips = (d: { data: unknown }) => (d.data as Array<{ employee: number }>).map((s) => s.employee);
      expect(await employeesOf(gridUrl, fromGrid)).toContain(moved);
      expect(await employeesOf(slipsUrl, fromSlips)).toContain(moved);

      await ok('PUT', `/employees/${moved}`, { department: c.departments.sales });
      expect((await call('GET', `/employees/${moved}/payslips`, ra)).statusCode).toBe(404);
      expect(await employeesOf(gridUrl, fromGrid)).not.toContain(moved);
      const grid = (await call('GET', gridUrl, ra)).json();
      expect(grid.data.total).toBe(grid.data.rows.length);
      expect(await employeesOf(slipsUrl, fromSlips)).not.toContain(moved);
      // Nor edits its cells (the payroll back to Processed): the same answer as an employee not in the payroll.
      await ok('POST', `/payroll_config/payrolls/${payroll.id}/delete-payslips`);
      const edit = { values: [{ employee: moved, column, amount: '1.00' }] };
      const refused = await call('POST', gridUrl, ra, edit);
      expect([refused.statusCode, refused.json().error.details[0]]).toEqual([
        400,
        { field: 'values[0].employee', message: 'is not in this payroll' },
      ]);
      // The Admin still reads and edits all of it.
      await ok('POST', gridUrl, edit);
      expect((await ok('GET', gridUrl)).rows.map((r: { employee: { id: number } }) => r.employee.id)).toContain(moved);
    });
  });

  describe('item 11: task links and the CSP', () => {
    it('a task link is a path under the API base: protocol-relative and backslash forms are refused', async () => {
      for (const link of ['//evil.example/x', '/\\evil.example/x', '/other/path', '/app/api/../../x']) {
        const res = await call('POST', '/tasks', admin, { user: c.users.employee.user.id, title: 'Link', link });
        expect({ link, status: res.statusCode, field: res.json().error?.details?.[0]?.field }).toEqual({
          link,
          status: 400,
          field: 'link',
        });
      }
      const fine = await ok('POST', '/tasks', { user: c.users.employee.user.id, title: 'Link', link: '/app/api/employees/5' });
      expect(fine.link).toBe('/app/api/employees/5');
    });

    it('the docs page upgrades insecure requests and the API sends HSTS only when PUBLIC_URL says the service is behind HTTPS', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/app/api/docs' });
      expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      const https = await createTestApp({ PUBLIC_URL: 'https://hr.example.com' }, { keepDatabase: true });
      try {
        const secure = await https.app.inject({ method: 'GET', url: '/app/api/docs' });
        expect(String(secure.headers['content-security-policy'])).toContain('upgrade-insecure-requests');
        expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const api = await https.app.inject({ method: 'GET', url: '/app/api/echo' });
        expect(api.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(api.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      } finally {
        await https.close();
      }
    });
  });

  // Item 10: on MariaDB only (SQLite serializes its writers).
  describeIf(INTEGRATION, NEEDS_SERVERS)('item 10: writes to different employees never conflict on MariaDB', () => {
    const ROUNDS = 50;
    it('16 clients writing distinct employees’ salaries, payroll employees, entitlements and user departments see no 409', async () => {
      expect(mysql()).toBe(true);
      const leaveType = (await ok('POST', '/leave-types', { name: 'T10 Annual', default_days: 20 })).id;
      const period = (await ok('POST', '/leave-periods', { name: 'T10 2026', date_start: '2026-01-01', date_end: '2026-12-31' }))
        .id;
      const statuses: number[] = [];
      const conflicts: string[] = [];
      const record = (what: string, res: { statusCode: number; body: string }) => {
        statuses.push(res.statusCode);
        if (res.statusCode !== 200) conflicts.push(`${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      };
      const client = async (n: number) => {
        const employee = (await call('POST', '/employees', admin, employeeBody({ department: c.departments.sales }))).json().data
          .id;
        const ra = await createUser(t.app, 'Restricted Admin', { username: `t10ra${n}` });
        let payrollEmployee: number | undefined;
        for (let round = 0; round < ROUNDS; round++) {
          record(
            'salary',
            await call('PUT', `/employees/${employee}/salary`, admin, {
              items: [{ component: basic, amount: `${1000 + round}.00` }],
            }),
          );
          const pe = await call('POST', '/payroll_config/payroll-employees', admin, {
            ...(payrollEmployee === undefined ? {} : { id: payrollEmployee }),
            employee,
            pay_frequency: 4,
            currency: round % 2 ? 'EUR' : 'USD',
          });
          record('payroll employee', pe);
          payrollEmployee ??= pe.json().data?.id;
          record(
            'entitlement',
            await call('POST', '/leave-entitlements', admin, {
              employee,
              leave_type: leaveType,
              leave_period: period,
              days: 10 + round,
            }),
          );
          record(
            'departments',
            await call('PUT', `/users/${ra.user.id}`, admin, {
              departments: round % 2 ? [c.departments.sales] : [c.departments.engineering, c.departments.sales],
            }),
          );
        }
      };
      await Promise.all(Array.from({ length: 16 }, (_, n) => client(n)));
      expect(conflicts).toEqual([]);
      expect(statuses.length).toBe(16 * ROUNDS * 4);
    }, 300_000);
  });
});
