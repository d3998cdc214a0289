import { UserLevel } from '../src/common/auth/user-level';
import { ScimTokensService } from '../src/scim/scim-tokens.service';
import { buildCompany, Company } from './helpers/company';
import { discoverRoutes, DiscoveredRoute } from './helpers/routes';
import { apiCaller, createTestApp, TestApp } from './helpers/test-app';

/**
 * The level gate of every route, discovered at runtime (a new route is covered, and fails here
 * until it has an entry): each route called anonymously and as each of the four levels, with
 * missing ids and an empty body. Expected: anonymous 401 unless public; a level the table does not
 * allow 403; an allowed level anything but 401/403; never a 5xx. The table is written from
 * docs/api/decisions.md §5 and the README's tables, not from the decorators, so the two are checked against each
 * other; then the employee record routes against each level's own record, a report's, another
 * department's and a missing one (writes: the employees access matrix).
 */
const ANY: readonly UserLevel[] = ['Admin', 'Restricted Admin', 'Manager', 'Employee'];
const ADMINS: readonly UserLevel[] = ['Admin', 'Restricted Admin'];
const ADMIN: readonly UserLevel[] = ['Admin'];
/** scim: a SCIM token only (issue 47); every REST caller gets 401, as a SCIM token does on every other route. */
/** metrics: no token from loopback (issue 48); any token but METRICS_TOKEN (a user's, a SCIM one) is 401. */
type Rule = 'public' | 'scim' | 'metrics' | readonly UserLevel[];

const REFERENCE =
  'certifications|departments|document-types|education-levels|employment-statuses|holidays|job-titles|languages|leave-periods|leave-types|nationalities|pay-grades|projects|skills';

/** First match wins: [method regex, path regex, who may call]. */
const TABLE: Array<[RegExp, RegExp, Rule]> = [
  // Platform
  [/GET/, /^\/(echo|health\/live|health\/ready)$/, 'public'],
  [/POST/, /^\/oauth\/(token|revoke)$/, 'public'],
  [/GET/, /^\/auth\/oidc\/(login|callback)$/, 'public'],
  [/GET/, /^\/metrics$/, 'metrics'],
  // SCIM (issue 47): a SCIM token only; the tokens themselves are the Admin's.
  [/GET|POST|PUT|PATCH|DELETE/, /^\/scim\/v2\//, 'scim'],
  [/GET|POST|DELETE/, /^\/scim-tokens(\/:id)?$/, ADMIN],
  [/GET|PUT/, /^\/settings$/, ADMIN],
  [/GET/, /^\/meta\/(countries|currency|extensions|mobile-modules)$/, ANY],
  // Reference data: everyone reads, Admins write (docs/api/decisions.md §7).
  [/GET/, new RegExp(`^/(${REFERENCE})(/:id)?$`), ANY],
  [/POST|PUT|DELETE/, new RegExp(`^/(${REFERENCE})(/:id)?$`), ADMIN],
  // Work calendars (docs/api/calendars.md): everyone reads, Admins write; working days as the employee is seen.
  [/GET/, /^\/calendars(\/:id(\/holidays(\/:holiday)?)?)?$/, ANY],
  [/POST|PUT|DELETE/, /^\/calendars(\/:id(\/holidays(\/import|\/:holiday)?)?)?$/, ADMIN],
  // Custom fields (docs/api/custom-fields.md): everyone reads the definitions it sees, Admins write.
  [/GET/, /^\/custom-fields(\/:id)?$/, ANY],
  [/POST|PUT|DELETE/, /^\/custom-fields(\/:id)?$/, ADMIN],
  // Users: Admin; everyone changes its own password.
  [/POST/, /^\/users\/me\/password$/, ANY],
  // Second factor (issue 47): each user its own; an Admin removes anyone's.
  [/GET|POST|DELETE/, /^\/users\/me\/mfa(\/totp|\/totp\/confirm)?$/, ANY],
  [/DELETE/, /^\/users\/:id\/mfa$/, ADMIN],
  [/GET|PUT|DELETE/, /^\/users(\/:id)?$/, ADMIN],
  [/POST/, /^\/employees\/:id\/create-user$/, ADMIN],
  // Employees: only Admin creates and deletes; the rest is scoped by record.
  [/POST/, /^\/employees$/, ADMIN],
  [/DELETE/, /^\/employees\/:id$/, ADMIN],
  // Privacy (issue 69): anonymising a leaver is the Admin's.
  [/POST/, /^\/employees\/:id\/anonymise$/, ADMIN],
  // Subject access: the employee itself or an Admin asks (403/404 by record); whoever asked and the Admins read (404 by record).
  [/POST/, /^\/employees\/:id\/personal-data-exports$/, ANY],
  [/GET/, /^\/personal-data-exports\/:id(\/file)?$/, ANY],
  // Retention policies and their preview: the Admin's.
  [/GET|POST|PUT|DELETE/, /^\/retention-policies(\/:id)?$/, ADMIN],
  [/GET/, /^\/retention\/preview$/, ADMIN],
  [/GET/, /^\/employees\/:id\/salary$/, ADMINS],
  [/PUT/, /^\/employees\/:id\/salary$/, ADMINS],
  [/GET|PUT/, /^\/employees(\/me|\/:id)?$/, ANY],
  // The events feed (issue 43): everyone, scoped to the employees whose records it sees.
  [/GET/, /^\/events$/, ANY],
  // Employment history (issue 43): read by whoever sees the employee; recorded by administrators and Managers (who may change no dated field: 403 on their reports).
  [/GET/, /^\/employees\/:id\/(changes|history|working-days)$/, ANY],
  [/POST|DELETE/, /^\/employees\/:id\/changes(\/:cid|\/:cid\/correct)?$/, ['Admin', 'Restricted Admin', 'Manager']],
  // Bank accounts (issue 46): whoever sees the employee reads them (masked unless Admin or itself); Admins and the employee add (403 by record).
  [/GET|POST|PUT|DELETE/, /^\/employees\/:id\/bank-accounts(\/:accountId)?$/, ANY],
  [/GET|POST|DELETE/, /^\/employees\/:id\/(certifications|educations|languages|skills|status)(\/:itemId|\/history)?$/, ANY],
  [
    /GET/,
    /^\/employees\/:id\/(attendance|attendance\/summary|leaves|leaves\/summary|leaves\/balance|leave-ledger|timesheets|expense-claims|payslips|payslips\/:payslipId(\/pdf)?)$/,
    ANY,
  ],
  // Attendance: punches for all; maintenance by Admins.
  [/POST/, /^\/attendance\/punch-(in|out)$/, ANY],
  [/GET/, /^\/attendance$/, ANY],
  [/GET|POST|PUT|DELETE/, /^\/attendance(\/:id)?$/, ADMINS],
  // Leave
  [/GET|POST/, /^\/leaves(\/:id|\/:id\/(approve|reject|cancel))?$/, ANY],
  [/GET/, /^\/leave-entitlements$/, ANY],
  [/POST|DELETE/, /^\/leave-entitlements(\/:id)?$/, ADMINS],
  // The leave ledger (issue 31): policies read by all, written by Admins; assignments Admins'; adjustments in scope, encashments Admin's.
  [/GET/, /^\/leave-policies(\/:id)?$/, ANY],
  [/POST|PUT|DELETE/, /^\/leave-policies(\/:id)?$/, ADMIN],
  [/GET/, /^\/leave-policy-assignments(\/:id)?$/, ADMINS],
  [/POST|PUT|DELETE/, /^\/leave-policy-assignments(\/:id)?$/, ADMIN],
  [/POST/, /^\/leave-adjustments$/, ADMINS],
  [/POST/, /^\/leave-encashments$/, ADMIN],
  // Timesheets
  [/GET|POST|PUT|DELETE/, /^\/timesheets(\/:id|\/:id\/(submit|approve|reject))?$/, ANY],
  // Approval chains (issue 45): policies the Admin's; delegations everyone's own (the Admin anyone's); the inbox everyone's.
  [/GET|POST|PUT|DELETE/, /^\/approval-policies(\/:id)?$/, ADMIN],
  [/GET|POST|PUT|DELETE/, /^\/approval-delegations(\/:id)?$/, ANY],
  [/GET/, /^\/approvals\/pending$/, ANY],
  // Checklists (issue 67): templates the Admin's; checklists read by whoever sees the employee or holds an item, items completed by assignees and administrators (403/404 by record).
  [/GET|POST|PUT|DELETE/, /^\/checklist-templates(\/:id)?$/, ADMIN],
  [/GET|POST/, /^\/checklists(\/:id|\/:id\/items\/:item\/complete)?$/, ANY],
  // Expenses (issue 68): categories read by all, written by the Admin; exchange rates the Admin's.
  [/GET/, /^\/expense-categories(\/:id)?$/, ANY],
  [/POST|PUT|DELETE/, /^\/expense-categories(\/:id)?$/, ADMIN],
  [/GET|POST|PUT|DELETE/, /^\/exchange-rates(\/:id)?$/, ADMIN],
  // Claims: everyone claims for itself and sees those it may (403/404 by record: the employee or an Admin of it writes, the approvers decide, an Admin pays).
  [
    /GET|POST|PUT|DELETE/,
    /^\/expense-claims(\/:id|\/:id\/(submit|approve|reject|cancel|pay)|\/:id\/items\/:item\/receipt)?$/,
    ANY,
  ],
  // Payroll: Admin and Restricted Admin (its departments); configuration shared by all payrolls is Admin's.
  [
    /POST|PUT|DELETE/,
    /^\/payroll_config\/(payroll-columns|payroll-groups|salary-components|pay-frequencies|tables|accounts)(\/:id)?$/,
    ADMIN,
  ],
  [/POST|PUT|DELETE/, /^\/payroll_config\/payroll-tests(\/:id)?$/, ADMIN],
  // The bank file (issue 46) is the Admin's: it carries whole IBANs.
  [/GET/, /^\/payroll_config\/payrolls\/:id\/bank-file$/, ADMIN],
  [/GET|POST/, /^\/payroll_config\/payrolls\/:id\/bank-files(\/:fid\/file)?$/, ADMIN],
  [/POST/, /^\/payroll_config\/payroll-columns\/preview-change$/, ADMIN],
  [/GET/, /^\/payroll_config\/payroll-tests(\/:id)?$/, ADMINS],
  [/POST|DELETE/, /^\/payroll_config\/payslip-templates(\/:id)?$/, ADMIN],
  [/GET|POST|DELETE/, /^\/payroll_config\//, ADMINS],
  // Audit log: Admins (a Restricted Admin its departments' employees)
  [/GET/, /^\/(audit-log|employees\/:id\/audit-log)$/, ADMINS],
  // Webhooks: Admin
  [/GET|POST|PUT|DELETE/, /^\/webhooks(\/:id(\/(rotate-secret|deliveries|test))?)?$/, ADMIN],
  // Imports: Admins (a Restricted Admin its own imports, rows in its departments)
  [/GET|POST|DELETE/, /^\/imports(\/templates\/:kind|\/:id(\/(errors|commit))?)?$/, ADMINS],
  // Documents: scoped by record (HR all in scope, a Manager its reports' manager-visible types, an Employee its own); the company list is HR's
  [/GET|POST|PUT|DELETE/, /^\/employees\/:id\/documents(\/:docId(\/file|\/versions(\/:n\/file)?)?)?$/, ANY],
  [/GET/, /^\/documents$/, ADMINS],
  // Notifications: each user its own (the stream is called over HTTP in notifications.e2e-spec)
  [/GET|POST/, /^\/notifications(\/unread-count|\/read-all|\/:id\/read)?$/, ANY],
  [/GET|PUT/, /^\/users\/me\/notification-(preferences|settings)$/, ANY],
  [/GET|POST|PUT|DELETE/, /^\/notification-templates(\/preview|\/:id)?$/, ADMIN],
  // Insights, tasks
  [/GET/, /^\/insights\/[a-z-]+\/:period$/, ANY],
  [/GET/, /^\/tasks$/, ANY],
  [/POST/, /^\/tasks$/, ADMIN],
  [/POST/, /^\/task-list\/:id\/status$/, ANY],
];

/**
 * Record scope of the employee record routes (GET /employees/:id/...), docs/api/decisions.md §5: who sees which
 * of the company's employees. `manager` is the Manager user's employee, `report1` (Platform) and
 * `report2` (Engineering) its direct reports, report1 the Employee user's own record,
 * `grandReport` report1's report (Platform, under Engineering), `outsider` in Sales; the
 * Restricted Admin holds Engineering.
 */
type Target = 'manager' | 'report1' | 'report2' | 'grandReport' | 'outsider' | 'missing';
type Sees = Record<UserLevel, readonly Target[]>;
const VISIBLE: Sees = {
  Admin: ['manager', 'report1', 'report2', 'grandReport', 'outsider'],
  'Restricted Admin': ['manager', 'report1', 'report2', 'grandReport'],
  Manager: ['manager', 'report1', 'report2'],
  Employee: ['report1'],
};
/**
 * Leave requests and time entries are also seen (and decided) by the employee's supervisor and
 * approvers at any level: the Employee user (report1) supervises grandReport.
 */
const DECIDES: Sees = { ...VISIBLE, Employee: ['report1', 'grandReport'] };
/** Payslips are the employee's own and the payroll administrators': not its manager's. */
const OWN_OR_ADMINS: Sees = { ...VISIBLE, Manager: ['manager'] };
const SCOPE: Array<[RegExp, Sees | 'missing-item']> = [
  [/^\/employees\/:id\/payslips\/:payslipId(\/pdf)?$/, 'missing-item'],
  [/^\/employees\/:id\/bank-accounts\/:accountId$/, 'missing-item'],
  [/^\/employees\/:id\/bank-accounts$/, VISIBLE],
  [/^\/employees\/:id\/documents\/:docId(\/file|\/versions(\/:n\/file)?)?$/, 'missing-item'],
  [/^\/employees\/:id\/documents$/, VISIBLE],
  [/^\/employees\/:id\/payslips$/, OWN_OR_ADMINS],
  [/^\/employees\/:id\/(salary|audit-log)$/, VISIBLE], // Managers and Employees are refused by level first (403)
  [
    /^\/employees\/:id(\/(skills|educations|certifications|languages|status|status\/history|attendance|attendance\/summary|leaves|leaves\/summary|leaves\/balance|leave-ledger|timesheets|expense-claims|changes|history|working-days))?$/,
    VISIBLE,
  ],
];

function ruleOf(route: DiscoveredRoute): Rule | undefined {
  return TABLE.find(([method, path]) => method.test(route.method) && path.test(route.path))?.[2];
}

describe('authorization matrix: every route × anonymous and the four levels', () => {
  let t: TestApp;
  let c: Company;
  let scimToken: string;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS: '100000' });
    c = await buildCompany(t.app);
    scimToken = (await t.app.get(ScimTokensService).issue('matrix', null)).token;
  });
  afterAll(() => t.close());

  it('every route has an entry in the table', () => {
    const routes = discoverRoutes(t.app);
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((r) => !ruleOf(r)).map((r) => r.key)).toEqual([]);
  });

  it('each cell answers as the table says, and none with a 5xx', async () => {
    const callers: Array<[string, string | null, UserLevel | 'scim' | null]> = [
      ['anonymous', null, null],
      ['SCIM token', scimToken, 'scim'],
      ['Employee', c.users.employee.token, 'Employee'],
      ['Manager', c.users.manager.token, 'Manager'],
      ['Restricted Admin', c.users.restricted.token, 'Restricted Admin'],
      ['Admin', c.users.admin.token, 'Admin'],
    ];
    const unexpected: string[] = [];
    let cells = 0;
    // Writes last, and the password change very last (it would end the caller's tokens).
    const order = (r: DiscoveredRoute) => (r.method === 'GET' ? 0 : r.path === '/users/me/password' ? 2 : 1);
    const routes = discoverRoutes(t.app).sort((a, b) => order(a) - order(b) || a.key.localeCompare(b.key));
    for (const route of routes) {
      const rule = ruleOf(route)!;
      const url = `/app/api${route.path.replace(':period', '1year').replace(/:[A-Za-z]+/g, '987654')}`;
      for (const [name, token, level] of callers) {
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: token ? { authorization: `Bearer ${token}` } : {},
          ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
        });
        cells += 1;
        const status = res.statusCode;
        let ok: boolean;
        if (rule === 'public') ok = status !== 401 && status !== 403;
        else if (rule === 'metrics') ok = level ? status === 401 : status === 200;
        else if (!level) ok = status === 401;
        else if (rule === 'scim' || level === 'scim')
          ok = rule === 'scim' && level === 'scim' ? status !== 401 && status !== 403 : status === 401;
        else if (!rule.includes(level)) ok = status === 403;
        else ok = status !== 401 && status !== 403;
        // 501: what SCIM answers for what it does not implement (/Me, /Bulk, root .search: RFC 7644), a deliberate answer.
        const deliberate = status === 501 && rule === 'scim';
        if (!ok || (status >= 500 && !deliberate))
          unexpected.push(`${route.key} as ${name}: ${status} ${res.body.slice(0, 120)}`);
      }
    }
    console.log(`authorization matrix: ${cells} cells over ${routes.length} routes, ${unexpected.length} unexpected`);
    expect(unexpected).toEqual([]);
  });

  it('employee record routes: each level on its own record, a report, another department and a missing id', async () => {
    const routes = discoverRoutes(t.app).filter((r) => r.method === 'GET' && r.path.startsWith('/employees/:id'));
    expect(routes.filter((r) => !SCOPE.some(([path]) => path.test(r.path))).map((r) => r.key)).toEqual([]);
    const callers: Array<[UserLevel, string]> = [
      ['Employee', c.users.employee.token],
      ['Manager', c.users.manager.token],
      ['Restricted Admin', c.users.restricted.token],
      ['Admin', c.users.admin.token],
    ];
    const targets: Record<Target, number> = { ...c.emp, missing: 987654 };
    const unexpected: string[] = [];
    let cells = 0;
    for (const route of routes) {
      const sees = SCOPE.find(([path]) => path.test(route.path))![1];
      for (const [level, token] of callers) {
        for (const [target, id] of Object.entries(targets) as Array<[Target, number]>) {
          const url = `/app/api${route.path.replace(':id', String(id)).replace(/:[A-Za-z]+/g, '987654')}`;
          const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
          cells += 1;
          const rule = ruleOf(route);
          const expected =
            rule !== 'public' && rule !== 'scim' && rule !== 'metrics' && rule && !rule.includes(level)
              ? 403
              : sees !== 'missing-item' && sees[level].includes(target)
                ? 200
                : 404;
          if (res.statusCode !== expected)
            unexpected.push(`${route.key} as ${level} on ${target}: ${res.statusCode}, expected ${expected}`);
        }
      }
    }
    console.log(
      `authorization matrix, record scope: ${cells} cells over ${routes.length} routes, ${unexpected.length} unexpected`,
    );
    expect(unexpected).toEqual([]);
  });

  it('records by their own ids (leave requests, time entries, attendance, payrolls): reads and writes out of scope answer 404', async () => {
    const call = apiCaller(t.app);
    const admin = c.users.admin.token;
    const made = async (path: string, body: object): Promise<number> => {
      const res = await call('POST', path, admin, body);
      expect({ path, status: res.statusCode, body: res.statusCode === 200 ? null : res.json() }).toEqual({
        path,
        status: 200,
        body: null,
      });
      return res.json().data.id;
    };
    await made('/leave-periods', { name: 'Scope 2026', date_start: '2026-01-01', date_end: '2026-12-31' });
    const leaveType = await made('/leave-types', { name: 'Scope leave', default_days: 0, allow_negative: true });
    // One record of each kind per employee of the fixture company, made by the Admin.
    const records: Array<{ kind: string; target: Target; id: number }> = [];
    for (const [target, employee] of Object.entries(c.emp) as Array<[Target, number]>) {
      records.push(
        {
          kind: 'leaves',
          target,
          id: await made('/leaves', { employee, leave_type: leaveType, date_start: '2026-03-02', date_end: '2026-03-02' }),
        },
        {
          kind: 'timesheets',
          target,
          id: await made('/timesheets', { employee, date: '2026-03-02', start: '09:00', end: '10:00' }),
        },
        {
          kind: 'attendance',
          target,
          id: await made('/attendance', { employee, in_time: '2026-03-02T09:00:00Z', out_time: '2026-03-02T17:00:00Z' }),
        },
      );
    }
    for (const kind of ['leaves', 'timesheets', 'attendance']) records.push({ kind, target: 'missing', id: 987654 });
    const component = await made('/payroll_config/salary-components', { name: 'Scope basic', component_type: 'Earning' });
    const column = await made('/payroll_config/payroll-columns', { name: 'Scope basic', salary_components: [component] });
    // Payrolls belong to a department: Engineering's is in the Restricted Admin's scope, Sales' is not.
    const payroll = (department: number, name: string) =>
      made('/payroll_config/payrolls', {
        name,
        pay_period: 4,
        department,
        date_start: '2026-01-01',
        date_end: '2026-01-31',
        columns: [column],
      });
    const payrolls: Array<[string, number, readonly UserLevel[]]> = [
      ['engineering', await payroll(c.departments.engineering, 'Scope Engineering'), ADMINS],
      ['sales', await payroll(c.departments.sales, 'Scope Sales'), ADMIN],
      ['missing', 987654, []],
    ];

    const callers: Array<[UserLevel, string]> = [
      ['Employee', c.users.employee.token],
      ['Manager', c.users.manager.token],
      ['Restricted Admin', c.users.restricted.token],
      ['Admin', admin],
    ];
    const unexpected: string[] = [];
    let cells = 0;
    const check = async (
      level: UserLevel,
      token: string,
      method: 'GET' | 'PUT' | 'POST' | 'DELETE',
      url: string,
      expected: number,
      body?: object,
    ) => {
      const res = await call(method, url, token, body);
      cells += 1;
      if (res.statusCode !== expected) unexpected.push(`${method} ${url} as ${level}: ${res.statusCode}, expected ${expected}`);
    };
    for (const [level, token] of callers) {
      for (const { kind, target, id } of records) {
        // Attendance maintenance is the Admins' (level gate first); the rest is scoped like the employee.
        const gate = kind === 'attendance' && !ADMINS.includes(level) ? 403 : null;
        const visible = target !== 'missing' && (kind === 'attendance' ? VISIBLE : DECIDES)[level].includes(target);
        await check(level, token, 'GET', `/${kind}/${id}`, gate ?? (visible ? 200 : 404));
        if (visible) continue; // writes in scope are the modules' own suites
        // Out of scope, a write is refused exactly like a missing record, and changes nothing.
        const write: Record<string, ['PUT' | 'POST' | 'DELETE', string, object | undefined]> = {
          leaves: ['POST', `/leaves/${id}/approve`, {}],
          timesheets: ['PUT', `/timesheets/${id}`, { details: 'not mine' }],
          attendance: ['DELETE', `/attendance/${id}`, undefined],
        };
        const [method, url, body] = write[kind];
        await check(level, token, method, url, gate ?? 404, body);
      }
      for (const [name, id, allowed] of payrolls) {
        const expected = !ADMINS.includes(level) ? 403 : allowed.includes(level) ? 200 : 404;
        await check(level, token, 'GET', `/payroll_config/payrolls/${id}`, expected);
        if (expected === 404 || name === 'missing')
          await check(level, token, 'DELETE', `/payroll_config/payrolls/${id}`, expected === 200 ? 404 : expected);
      }
    }
    console.log(`authorization matrix, records by id: ${cells} cells, ${unexpected.length} unexpected`);
    expect(unexpected).toEqual([]);
    // Nothing the refused writes touched changed.
    for (const { kind, id, target } of records) {
      if (target === 'missing') continue;
      const res = await call('GET', `/${kind}/${id}`, admin);
      expect({
        kind,
        target,
        status: res.statusCode,
        details: res.json().data.details ?? null,
        state: res.json().data.status ?? null,
      }).toEqual({
        kind,
        target,
        status: 200,
        details: null,
        state: kind === 'leaves' ? 'Pending' : kind === 'timesheets' ? 'Draft' : null,
      });
    }
    for (const [name, id] of payrolls)
      if (name !== 'missing') expect((await call('GET', `/payroll_config/payrolls/${id}`, admin)).statusCode).toBe(200);
  });

  it('payroll rows follow their employee: one moved out of the Restricted Admin’s departments leaves every payroll route for it', async () => {
    const call = apiCaller(t.app);
    const admin = c.users.admin.token;
    const data = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: object) => {
      const res = await call(method, url, admin, body);
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
      return res.json().data;
    };
    const component = (
      await data('POST', '/payroll_config/salary-components', { name: 'Moved basic', component_type: 'Earning' })
    ).id;
    const column = (
      await data('POST', '/payroll_config/payroll-columns', { name: 'Moved basic', salary_components: [component] })
    ).id;
    const template = (await data('POST', '/payroll_config/payslip-templates', { name: 'Moved', content: '{{employee.name}}' }))
      .id;
    const moved = c.emp.report2; // Engineering: in the Restricted Admin's departments until it moves
    await data('PUT', `/employees/${moved}/salary`, { items: [{ component, amount: '100.00' }] });
    await data('POST', '/payroll_config/payroll-employees', { employee: moved, pay_frequency: 4, currency: 'EUR' });
    const payroll = (
      await data('POST', '/payroll_config/payrolls', {
        name: 'Moved',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2026-02-01',
        date_end: '2026-02-28',
        columns: [column],
        payslip_template: template,
      })
    ).id;
    const settle = async (status: string) => {
      for (let i = 0; i < 200 && (await data('GET', `/payroll_config/payrolls/${payroll}`)).status !== status; i++)
        await new Promise((r) => setTimeout(r, 25));
    };
    await data('POST', `/payroll_config/payrolls/${payroll}/process`);
    await settle('Processed');
    await data('POST', `/payroll_config/payrolls/${payroll}/generate-payslips`);
    await settle('Completed');
    await data('PUT', `/employees/${moved}`, { department: c.departments.sales });

    const routes: Array<[string, string, (body: { data: unknown }) => boolean]> = [
      [
        'grid',
        `/payroll_config/payrolls/${payroll}/data`,
        (b) => (b.data as { rows: Array<{ employee: { id: number } }> }).rows.some((r) => r.employee.id === moved),
      ],
      [
        'payslips',
        `/payroll_config/payrolls/${payroll}/payslips`,
        (b) => (b.data as Array<{ employee: number }>).some((p) => p.employee === moved),
      ],
      ['employee payslips', `/employees/${moved}/payslips`, (b) => (b.data as unknown[]).length > 0],
    ];
    const unexpected: string[] = [];
    for (const [level, token, sees] of [
      ['Admin', admin, true],
      ['Restricted Admin', c.users.restricted.token, false],
    ] as const) {
      for (const [name, url, shows] of routes) {
        const res = await call('GET', url, token);
        const seen = res.statusCode === 200 && shows(res.json());
        if (seen !== sees)
          unexpected.push(`${name} as ${level}: ${res.statusCode}, ${seen ? 'shows' : 'hides'} the moved employee`);
      }
    }
    expect(unexpected).toEqual([]);
  });
});
