import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

type Result = {
  id: number;
  name: string;
  passed: boolean;
  failures: Array<{ column: string; expected: string; actual: string | null }>;
};

/** Payroll tests (issue 32, docs/api/decisions.md §18): pinned amounts, run on demand and before every column save. */
describe('payroll tests (/payroll_config/payroll-tests)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let basic: number;
  let tax: { id: number; name: string; script: string };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    basic = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic', component_type: 'Earning' })).id;
    await ok('POST', '/payroll_config/payroll-columns', admin, { name: 'Basic', variable: 'basic', salary_components: [basic] });
    await ok('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Overtime hours',
      variable: 'overtime_hours',
      calculation_hook: 'overtime_hours',
    });
    await ok('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Gross',
      variable: 'gross',
      script: 'basic + overtime_hours * 20',
    });
    tax = await ok('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Tax',
      variable: 'tax',
      script: 'if(gross <= 3000, 0, (gross - 3000) * 0.2)',
    });
    await ok('POST', '/payroll_config/payroll-columns', admin, { name: 'Net', variable: 'net', script: 'gross - tax' });
  });
  afterAll(() => t.close());

  const run = async (token = admin): Promise<Result[]> => ok('POST', '/payroll_config/payroll-tests/run', token);

  it('pins amounts for representative employees and runs them against the current columns', async () => {
    const partTimer = await ok('POST', '/payroll_config/payroll-tests', admin, {
      name: 'Part-timer below the threshold',
      employee: { salary: { [basic]: '1800.00' } },
      expected: { gross: '1800', tax: '0.00', net: '1800.00' },
    });
    expect(partTimer).toEqual({
      id: expect.any(Number),
      name: 'Part-timer below the threshold',
      employee: { salary: { [basic]: '1800.00' }, hooks: {}, fields: {} },
      expected: { gross: '1800', tax: '0.00', net: '1800.00' },
    });
    await ok('POST', '/payroll_config/payroll-tests', admin, {
      name: 'Overtime above the threshold',
      // 3500 + 10 h × 20 = 3700; tax (3700 − 3000) × 0.2 = 140.
      employee: { salary: { [basic]: '3500.00' }, hooks: { overtime_hours: '10' } },
      expected: { gross: '3700.00', tax: '140.00', net: '3560.00' },
    });
    await ok('POST', '/payroll_config/payroll-tests', admin, {
      name: 'A wrong expectation',
      employee: { salary: { [basic]: '3000.00' } },
      expected: { net: '2999.99', nothing: '1' },
    });
    const results = await run();
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ['Part-timer below the threshold', true],
      ['Overtime above the threshold', true],
      ['A wrong expectation', false],
    ]);
    expect(results[2].failures).toEqual([
      { column: 'net', expected: '2999.99', actual: '3000.00' },
      { column: 'nothing', expected: '1', actual: null },
    ]);
    // A Restricted Admin reads and runs them; only the Admin writes them.
    expect(await run(c.users.restricted.token)).toHaveLength(3);
    const refused = await call('POST', '/payroll_config/payroll-tests', c.users.restricted.token, {
      name: 'x',
      employee: {},
      expected: { net: '1' },
    });
    expect(refused.statusCode).toBe(403);
    await ok('DELETE', `/payroll_config/payroll-tests/${results[2].id}`, admin);
  });

  it('refuses bad inputs and expectations with the field at fault', async () => {
    const cases: Array<[object, string]> = [
      [{ employee: { salary: { [basic]: 1800 } }, expected: { net: '1' } }, `employee.salary.${basic}`],
      [{ employee: { salary: { x: '1' } }, expected: { net: '1' } }, 'employee.salary.x'],
      [{ employee: { wages: {} }, expected: { net: '1' } }, 'employee.wages'],
      [{ employee: { fields: { shoe_size: 42 } }, expected: { net: '1' } }, 'employee.fields.shoe_size'],
      [{ employee: {}, expected: {} }, 'expected'],
      [{ employee: {}, expected: { 'net pay': '1' } }, 'expected.net pay'],
      [{ employee: {}, expected: { net: '1e3' } }, 'expected.net'],
    ];
    for (const [body, field] of cases) {
      const res = await call('POST', '/payroll_config/payroll-tests', admin, { name: `Bad ${field}`, ...body });
      expect([field, res.statusCode, res.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
        field,
        400,
        [field],
      ]);
    }
    const missing = await call('POST', '/payroll_config/payroll-tests', admin, { name: 'No employee', expected: { net: '1' } });
    expect(missing.statusCode).toBe(400);
  });

  it('a column change that breaks a test is refused with 409 naming it, unless the new amounts are accepted (audited together)', async () => {
    const change = { id: tax.id, name: 'Tax', script: 'if(gross <= 3000, 0, (gross - 3000) * 0.25)' };
    const refused = await call('POST', '/payroll_config/payroll-columns', admin, change);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'PAYROLL_TESTS_FAILED']);
    expect(refused.json().error.message).toContain('"Overtime above the threshold"');
    expect(refused.json().error.details.map((d: { message: string }) => d.message)).toEqual([
      'Overtime above the threshold: tax expected 140.00, got 175.00',
      'Overtime above the threshold: net expected 3560.00, got 3525.00',
    ]);
    // Nothing saved: the column and the tests are as they were.
    expect((await ok('GET', `/payroll_config/payroll-columns/${tax.id}`, admin)).script).toBe(tax.script);
    expect((await run()).every((r) => r.passed)).toBe(true);

    const saved = await ok('POST', '/payroll_config/payroll-columns', admin, { ...change, accept_test_changes: true });
    expect(saved.script).toBe(change.script);
    const tests = await ok('GET', '/payroll_config/payroll-tests', admin);
    const overtime = tests.find((x: { name: string }) => x.name === 'Overtime above the threshold');
    expect(overtime.expected).toEqual({ gross: '3700.00', tax: '175.00', net: '3525.00' });
    expect((await run()).every((r) => r.passed)).toBe(true);
    const audit = await ok(
      'GET',
      `/audit-log?limit=100&filters=${encodeURIComponent('{"resource":"payroll_config/payroll-tests"}')}`,
      admin,
    );
    expect(audit[0]).toMatchObject({ action: 'update', resource_id: String(overtime.id) });

    // A test failing already does not block a change that does not touch it.
    const wrong = await ok('POST', '/payroll_config/payroll-tests', admin, {
      name: 'Failing already',
      employee: { salary: { [basic]: '100.00' } },
      expected: { net: '1.00', removed_column: '5' },
    });
    await ok('POST', '/payroll_config/payroll-columns', admin, { name: 'Memo', variable: 'memo', default_value: '1' });
    expect((await run()).find((r) => r.id === wrong.id)?.passed).toBe(false);
    await ok('DELETE', `/payroll_config/payroll-tests/${wrong.id}`, admin);

    // A change that leaves a tested cell without a value cannot be accepted.
    const broken = await call('POST', '/payroll_config/payroll-columns', admin, {
      id: tax.id,
      name: 'Tax',
      script: 'gross / (basic - basic)',
      accept_test_changes: true,
    });
    expect([broken.statusCode, broken.json().error.code]).toEqual([409, 'PAYROLL_TESTS_FAILED']);
    expect((await ok('GET', `/payroll_config/payroll-columns/${tax.id}`, admin)).script).toBe(change.script);
  });
});
