import { buildCompany, Company } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

describe('payroll configuration (/payroll_config)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object, token = admin) =>
    okCaller(t.app)(method, url, token, body);

  it('serves the reference lists: pay frequencies, ISO 4217 currencies with minor units, departments, calculation hooks', async () => {
    expect((await ok('GET', '/payroll_config/pay-frequencies')).map((f: { name: string }) => f.name)).toEqual([
      'Weekly',
      'Bi Weekly',
      'Semi Monthly',
      'Monthly',
      'Yearly',
    ]);
    const currencies = await call('GET', '/payroll_config/currencies?limit=500', admin);
    expect(currencies.json().total).toBeGreaterThan(150);
    const byCode = new Map(currencies.json().data.map((x: { code: string }) => [x.code, x]));
    expect(byCode.get('EUR')).toEqual({ code: 'EUR', name: 'Euro', numeric: '978', minor_unit: 2 });
    expect(byCode.get('JPY')).toMatchObject({ minor_unit: 0 });
    expect(byCode.get('KWD')).toMatchObject({ minor_unit: 3 });
    expect((await ok('GET', '/payroll_config/departments?limit=500')).map((d: { id: number }) => d.id)).toContain(
      c.departments.platform,
    );
    const hooks = await ok('GET', '/payroll_config/calculation-hooks');
    expect(hooks.map((h: { code: string }) => h.code)).toEqual([
      'hours_worked',
      'regular_hours',
      'overtime_hours',
      'approved_timesheet_hours',
      'approved_leave_days',
      'expenses',
      'leave_encashment_days',
      'arrears',
      'employee_field',
    ]);
    expect(hooks.find((h: { code: string }) => h.code === 'overtime_hours').args[0]).toMatchObject({
      name: 'daily_threshold',
      type: 'number',
    });
  });

  it('is for Admins and Restricted Admins only', async () => {
    for (const token of [c.users.manager.token, c.users.employee.token]) {
      for (const url of ['/payroll_config/pay-frequencies', '/payroll_config/payroll-columns', '/payroll_config/employees']) {
        expect((await call('GET', url, token)).statusCode).toBe(403);
      }
      expect((await call('GET', `/employees/${c.emp.report1}/salary`, token)).statusCode).toBe(403);
    }
    expect((await call('POST', '/payroll_config/payroll-groups', c.users.restricted.token, { name: 'X' })).statusCode).toBe(403);
    expect((await call('GET', '/payroll_config/payroll-groups', c.users.restricted.token)).statusCode).toBe(200);
  });

  it('salary components, employee salaries, payroll employees and deduction groups, with 409 naming the users on delete', async () => {
    const basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic salary', component_type: 'Earning' })).id;
    const housing = (
      await ok('POST', '/payroll_config/salary-components', { name: 'Housing', component_type: 'Benefit', details: 'flat' })
    ).id;
    expect(
      (await call('POST', '/payroll_config/salary-components', admin, { name: 'Bonus', component_type: 'Gift' })).statusCode,
    ).toBe(400);
    const group = (await ok('POST', '/payroll_config/payroll-groups', { name: 'Germany', description: 'DE tax rules' })).id;

    // Salary: replaced as a whole; JSON numbers accepted; formatted in the currency's minor unit.
    const url = `/employees/${c.emp.report1}/salary`;
    expect(await ok('GET', url)).toEqual([]);
    expect(
      await ok('PUT', url, {
        items: [
          { component: basic, amount: 5000 },
          { component: housing, amount: '750.5' },
        ],
      }),
    ).toEqual([
      { component: basic, amount: '5000.00' },
      { component: housing, amount: '750.50' },
    ]);
    expect((await call('PUT', url, admin, { items: [{ component: 99999, amount: '1' }] })).statusCode).toBe(400);
    expect((await call('PUT', url, admin, { items: [{ component: basic, amount: '-5' }] })).statusCode).toBe(400);
    expect(
      (
        await call('PUT', url, admin, {
          items: [
            { component: basic, amount: '1' },
            { component: basic, amount: '2' },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect(await ok('GET', url)).toHaveLength(2); // the refused writes changed nothing
    // A Restricted Admin of Engineering: its employees only; others look missing.
    expect((await call('GET', url, c.users.restricted.token)).statusCode).toBe(200);
    expect((await call('GET', `/employees/${c.emp.outsider}/salary`, c.users.restricted.token)).statusCode).toBe(404);
    expect((await call('GET', '/employees/999999/salary', admin)).statusCode).toBe(404);

    // Payroll employees: one per employee; POST with id updates.
    const created = await ok('POST', '/payroll_config/payroll-employees', {
      employee: c.emp.report1,
      pay_frequency: 4,
      currency: 'JPY',
      deduction_group: group,
    });
    expect(created).toEqual({
      id: expect.any(Number),
      employee: c.emp.report1,
      pay_frequency: 4,
      currency: 'JPY',
      deduction_group: group,
    });
    expect(await ok('GET', url)).toEqual([
      { component: basic, amount: '5000' },
      { component: housing, amount: '751' }, // JPY has no minor unit: 750.5 rounds half-up
    ]);
    const again = await call('POST', '/payroll_config/payroll-employees', admin, {
      employee: c.emp.report1,
      pay_frequency: 4,
      currency: 'EUR',
    });
    expect([again.statusCode, again.json().error.code]).toEqual([409, 'DUPLICATE']);
    const updated = await ok('POST', '/payroll_config/payroll-employees', {
      id: created.id,
      employee: c.emp.report1,
      pay_frequency: 2,
      currency: 'EUR',
    });
    expect(updated).toMatchObject({ id: created.id, pay_frequency: 2, currency: 'EUR', deduction_group: group });
    expect(
      (
        await call('POST', '/payroll_config/payroll-employees', admin, {
          employee: c.emp.report2,
          pay_frequency: 99,
          currency: 'EUR',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/payroll_config/payroll-employees', admin, {
          employee: c.emp.report2,
          pay_frequency: 1,
          currency: 'XXQ',
        })
      ).statusCode,
    ).toBe(400);
    const outsiderRecord = await ok('POST', '/payroll_config/payroll-employees', {
      employee: c.emp.outsider,
      pay_frequency: 4,
      currency: 'USD',
    });
    // The Restricted Admin lists and changes only its departments' records.
    const scoped = (await ok('GET', '/payroll_config/payroll-employees', undefined, c.users.restricted.token)).map(
      (p: { id: number }) => p.id,
    );
    expect(scoped).toContain(created.id);
    expect(scoped).not.toContain(outsiderRecord.id);
    expect(
      (await call('DELETE', `/payroll_config/payroll-employees/${outsiderRecord.id}`, c.users.restricted.token)).statusCode,
    ).toBe(404);

    // GET /payroll_config/employees: every employee in scope with its payroll status.
    const status = await ok('GET', '/payroll_config/employees?limit=500');
    expect(status.find((e: { id: number }) => e.id === c.emp.report1)).toMatchObject({
      configured: true,
      payroll_employee: created.id,
      pay_frequency: 2,
      currency: 'EUR',
      deduction_group: group,
    });
    expect(status.find((e: { id: number }) => e.id === c.emp.report2)).toMatchObject({ configured: false, currency: null });

    // Deleting what is in use: 409 naming the users.
    const usedGroup = await call('DELETE', `/payroll_config/payroll-groups/${group}`, admin);
    expect([usedGroup.statusCode, usedGroup.json().error.code]).toEqual([409, 'IN_USE']);
    expect(usedGroup.json().error.message).toContain(`employee ${c.emp.report1}`);
    const usedComponent = await call('DELETE', `/payroll_config/salary-components/${housing}`, admin);
    expect([usedComponent.statusCode, usedComponent.json().error.message]).toEqual([
      409,
      expect.stringContaining(`employee ${c.emp.report1}`),
    ]);
    await ok('DELETE', `/payroll_config/payroll-employees/${created.id}`);
    await ok('DELETE', `/payroll_config/payroll-groups/${group}`);
    await ok('PUT', url, { items: [{ component: basic, amount: '5000' }] });
    await ok('DELETE', `/payroll_config/salary-components/${housing}`);
  });

  it('columns: scripts checked against the others, variables, dense colorder, cycles and deletes refused with reasons', async () => {
    const basicComp = (await ok('POST', '/payroll_config/salary-components', { name: 'Base pay', component_type: 'Earning' })).id;
    const basic = await ok('POST', '/payroll_config/payroll-columns', { name: 'Basic', salary_components: [basicComp] });
    expect(basic).toMatchObject({
      variable: 'basic',
      colorder: 1,
      enabled: true,
      editable: false,
      add_columns: [],
      script: null,
    });
    const allowance = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Allowance',
      editable: true,
      default_value: '0',
    });
    const gross = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Gross Pay',
      variable: 'gross',
      script: 'basic + allowance',
    });
    const tax = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Tax',
      script: 'if(gross > 5000, (gross - 5000) * 0.2, 0)',
    });
    const net = await ok('POST', '/payroll_config/payroll-columns', { name: 'Net', script: 'gross - tax' });
    expect([allowance.default_value, gross.variable, net.colorder]).toEqual(['0.00', 'gross', 5]);

    const bad = await call('POST', '/payroll_config/payroll-columns', admin, { name: 'Broken', script: 'gross +\n  bonus' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([{ field: 'script', message: 'unknown variable bonus (line 2, column 3)' }]);
    const syntax = await call('POST', '/payroll_config/payroll-columns', admin, { name: 'Broken', script: '1 +' });
    expect(syntax.json().error.details[0].message).toBe('Expected expression after + (line 1, column 4)');
    // basic reading net would close a cycle.
    const cycle = await call('POST', '/payroll_config/payroll-columns', admin, {
      id: basic.id,
      name: 'Basic',
      script: 'net * 2',
    });
    expect([cycle.statusCode, cycle.json().error.details[0].message]).toEqual([
      400,
      expect.stringMatching(/^dependency cycle among/),
    ]);
    const hook = await call('POST', '/payroll_config/payroll-columns', admin, {
      name: 'H',
      calculation_hook: 'overtime_hours',
      calculation_hook_args: { daily_threshold: 'x', y: 1 },
    });
    expect(
      hook
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ).toEqual(['calculation_hook_args.daily_threshold', 'calculation_hook_args.y']);
    expect(
      (await call('POST', '/payroll_config/payroll-columns', admin, { name: 'H', calculation_hook: 'nope' })).statusCode,
    ).toBe(400);
    const dup = await call('POST', '/payroll_config/payroll-columns', admin, { name: 'Gross', variable: 'gross' });
    expect([dup.statusCode, dup.json().error.code]).toEqual([409, 'DUPLICATE']);

    // A column inserted at position 2 moves the later ones down; 1..n stays dense.
    const overtime = await ok('POST', '/payroll_config/payroll-columns', {
      name: 'Overtime hours',
      colorder: 2,
      calculation_hook: 'overtime_hours',
      calculation_hook_args: { daily_threshold: 8 },
    });
    const order = async () =>
      (await ok('GET', '/payroll_config/payroll-columns')).map(
        (x: { variable: string; colorder: number }) => `${x.colorder}:${x.variable}`,
      );
    expect(await order()).toEqual(['1:basic', '2:overtime_hours', '3:allowance', '4:gross', '5:tax', '6:net']);
    expect((await ok('GET', `/payroll_config/payroll-columns/${tax.id}`)).script).toBe(
      'if(gross > 5000, (gross - 5000) * 0.2, 0)',
    );

    // Deleting a column others read: 409 naming them; otherwise the rest close up.
    const used = await call('DELETE', `/payroll_config/payroll-columns/${gross.id}`, admin);
    expect([used.statusCode, used.json().error.message]).toEqual([
      409,
      'Payroll column gross is in use by column tax, column net',
    ]);
    await ok('DELETE', `/payroll_config/payroll-columns/${overtime.id}`);
    expect(await order()).toEqual(['1:basic', '2:allowance', '3:gross', '4:tax', '5:net']);
    const compUsed = await call('DELETE', `/payroll_config/salary-components/${basicComp}`, admin);
    expect([compUsed.statusCode, compUsed.json().error.message]).toEqual([409, expect.stringContaining('column basic')]);
  });

  it('validate-script: valid with the variables it reads, or errors with line and column; nothing runs', async () => {
    expect(await ok('POST', '/payroll_config/validate-script', { script: 'gross - tax + employee.age' })).toEqual({
      valid: true,
      variables: ['gross', 'tax'],
    });
    expect(await ok('POST', '/payroll_config/validate-script', { script: '1 +' })).toEqual({
      valid: false,
      errors: [{ message: 'Expected expression after +', line: 1, column: 4 }],
    });
    expect(await ok('POST', '/payroll_config/validate-script', { script: 'gross * bonus' })).toEqual({
      valid: false,
      errors: [{ message: 'unknown variable bonus', line: 1, column: 9 }],
    });
    const hostile = await ok('POST', '/payroll_config/validate-script', {
      script: "constructor.constructor('return process')()",
    });
    expect(hostile.valid).toBe(false);
    expect(hostile.errors[0]).toEqual({ message: expect.any(String), line: 1, column: expect.any(Number) });
    expect((await call('POST', '/payroll_config/validate-script', admin, { script: 5 })).statusCode).toBe(400);
  });
});
