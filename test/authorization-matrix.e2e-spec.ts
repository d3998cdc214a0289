import { UserLevel } from '../src/common/auth/user-level';
import { buildCompany, Company } from './helpers/company';
import { discoverRoutes, DiscoveredRoute } from './helpers/routes';
import { createTestApp, TestApp } from './helpers/test-app';

/**
 * The level gate of every route, discovered at runtime (a new route is covered, and fails here
 * until it has an entry): each route called anonymously and as each of the four levels, with
 * missing ids and an empty body. Expected: anonymous 401 unless public; a level the table does not
 * allow 403; an allowed level anything but 401/403; never a 5xx. The table is written from
 * API.md §5 and the README's tables, not from the decorators, so the two are checked against each
 * other. Record scope (own, report, other department, missing) is the employees access matrix's.
 */
const ANY: readonly UserLevel[] = ['Admin', 'Restricted Admin', 'Manager', 'Employee'];
const ADMINS: readonly UserLevel[] = ['Admin', 'Restricted Admin'];
const ADMIN: readonly UserLevel[] = ['Admin'];
type Rule = 'public' | readonly UserLevel[];

const REFERENCE =
  'certifications|departments|education-levels|employment-statuses|holidays|job-titles|languages|leave-periods|leave-types|nationalities|pay-grades|projects|skills';

/** First match wins: [method regex, path regex, who may call]. */
const TABLE: Array<[RegExp, RegExp, Rule]> = [
  // Platform
  [/GET/, /^\/(echo|health\/live|health\/ready)$/, 'public'],
  [/POST/, /^\/oauth\/(token|revoke)$/, 'public'],
  [/GET|PUT/, /^\/settings$/, ADMIN],
  [/GET/, /^\/meta\/(countries|currency|extensions|mobile-modules)$/, ANY],
  // Reference data: everyone reads, Admins write (API.md §7).
  [/GET/, new RegExp(`^/(${REFERENCE})(/:id)?$`), ANY],
  [/POST|PUT|DELETE/, new RegExp(`^/(${REFERENCE})(/:id)?$`), ADMIN],
  // Users: Admin; everyone changes its own password.
  [/POST/, /^\/users\/me\/password$/, ANY],
  [/GET|PUT|DELETE/, /^\/users(\/:id)?$/, ADMIN],
  [/POST/, /^\/employees\/:id\/create-user$/, ADMIN],
  // Employees: only Admin creates and deletes; the rest is scoped by record.
  [/POST/, /^\/employees$/, ADMIN],
  [/DELETE/, /^\/employees\/:id$/, ADMIN],
  [/GET/, /^\/employees\/:id\/salary$/, ADMINS],
  [/PUT/, /^\/employees\/:id\/salary$/, ADMINS],
  [/GET|PUT/, /^\/employees(\/me|\/:id)?$/, ANY],
  [/GET|POST|DELETE/, /^\/employees\/:id\/(certifications|educations|languages|skills|status)(\/:itemId|\/history)?$/, ANY],
  [
    /GET/,
    /^\/employees\/:id\/(attendance|attendance\/summary|leaves|leaves\/summary|timesheets|payslips|payslips\/:payslipId)$/,
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
  // Timesheets
  [/GET|POST|PUT|DELETE/, /^\/timesheets(\/:id|\/:id\/(submit|approve|reject))?$/, ANY],
  // Payroll: Admin and Restricted Admin (its departments); configuration shared by all payrolls is Admin's.
  [/POST|PUT|DELETE/, /^\/payroll_config\/(payroll-columns|payroll-groups|salary-components)(\/:id)?$/, ADMIN],
  [/POST|DELETE/, /^\/payroll_config\/payslip-templates(\/:id)?$/, ADMIN],
  [/GET|POST|DELETE/, /^\/payroll_config\//, ADMINS],
  // Insights, tasks
  [/GET/, /^\/insights\/[a-z-]+\/:period$/, ANY],
  [/GET/, /^\/tasks$/, ANY],
  [/POST/, /^\/tasks$/, ADMIN],
  [/POST/, /^\/task-list\/:id\/status$/, ANY],
];

function ruleOf(route: DiscoveredRoute): Rule | undefined {
  return TABLE.find(([method, path]) => method.test(route.method) && path.test(route.path))?.[2];
}

describe('authorization matrix: every route × anonymous and the four levels', () => {
  let t: TestApp;
  let c: Company;
  beforeAll(async () => {
    t = await createTestApp({ LOGIN_RATE_LIMIT_PER_ADDRESS: '100000' });
    c = await buildCompany(t.app);
  });
  afterAll(() => t.close());

  it('every route has an entry in the table', () => {
    const routes = discoverRoutes(t.app);
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((r) => !ruleOf(r)).map((r) => r.key)).toEqual([]);
  });

  it('each cell answers as the table says, and none with a 5xx', async () => {
    const callers: Array<[string, string | null, UserLevel | null]> = [
      ['anonymous', null, null],
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
        else if (!level) ok = status === 401;
        else if (!rule.includes(level)) ok = status === 403;
        else ok = status !== 401 && status !== 403;
        if (!ok || status >= 500) unexpected.push(`${route.key} as ${name}: ${status} ${res.body.slice(0, 120)}`);
      }
    }
    console.log(`authorization matrix: ${cells} cells over ${routes.length} routes, ${unexpected.length} unexpected`);
    expect(unexpected).toEqual([]);
  });
});
