import { DataSource } from 'typeorm';
import { EmployeesService } from '../src/employees/employees.service';
import { LeaveAccrualsService } from '../src/leave/ledger/leave-accruals.service';
import { PayrollInputsService } from '../src/payroll/runs/payroll-inputs.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { liabilityByBalances, liabilityRows } from './helpers/liability';
import { apiCaller, createTestApp, okCaller, TestApp } from './helpers/test-app';

type Entry = { kind: string; date: string; days: number; note: string | null; source: string; source_id: number | null };

describe('leave ledger (issue 31)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let ledger: LeaveAccrualsService;
  let holiday: number;
  let policy: number;

  const ledgerOf = async (employee: number, query = ''): Promise<Entry[]> =>
    await ok('GET', `/employees/${employee}/leave-ledger?limit=500&sortField=id&sortOrder=ascend${query}`, admin);
  const balanceOf = async (employee: number, asOf: string, type = holiday) =>
    (await ok('GET', `/employees/${employee}/leaves/balance?as_of=${asOf}&leave_type=${type}`, admin))[0];
  const newEmployee = async (joined: string, department: number) =>
    (await t.app.get(EmployeesService).create(employeeBody({ joined_date: joined, department }))).id;
  const approvedLeave = async (employee: number, type: number, start: string, end: string) => {
    const request = await ok('POST', '/leaves', admin, { employee, leave_type: type, date_start: start, date_end: end });
    return ok('POST', `/leaves/${request.id}/approve`, admin);
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    ledger = t.app.get(LeaveAccrualsService);
    for (const y of [2025, 2026])
      await ok('POST', '/leave-periods', admin, { name: `${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    holiday = (await ok('POST', '/leave-types', admin, { name: 'Holiday', default_days: 0 })).id;
    policy = (
      await ok('POST', '/leave-policies', admin, {
        name: 'Engineering monthly',
        leave_type: holiday,
        accrual: 'monthly',
        amount: 2,
        prorate_joiners: true,
        carry_over_max: 5,
        carry_over_expiry_months: 3,
      })
    ).id;
    // Engineering with its children (Platform).
    await ok('POST', '/leave-policy-assignments', admin, {
      policy,
      department: c.departments.engineering,
      valid_from: '2025-01-01',
    });
  });
  afterAll(() => t.close());

  it('the worked example: a joiner prorated, the year-end carry-over capped, carried days expiring after three months', async () => {
    const e = await newEmployee('2025-03-16', c.departments.platform);
    // 2025: March prorated (16 of 31 days: 1.03), April to December 2 each; 5 days taken in November.
    await approvedLeave(e, holiday, '2025-11-03', '2025-11-07');
    expect(await balanceOf(e, '2025-12-31')).toEqual({
      leave_type: holiday,
      opening: 0,
      accrued: 19.03,
      taken: 5,
      pending: 0,
      carried_over: 0,
      expired: 0,
      adjusted: 0,
      encashed: 0,
      available: 14.03,
    });
    // 2026: 5 of the 14.03 carry over; 2 taken in February use carried days; the other 3 expire on 1 April.
    await approvedLeave(e, holiday, '2026-02-02', '2026-02-03');
    expect(await balanceOf(e, '2026-03-31')).toMatchObject({ carried_over: 5, accrued: 6, taken: 2, expired: 0, available: 9 });
    expect(await balanceOf(e, '2026-04-01')).toMatchObject({ carried_over: 5, accrued: 6, taken: 2, expired: 3, available: 6 });
    // A day ahead projects the accruals due by then.
    expect(await balanceOf(e, '2026-12-31')).toMatchObject({ accrued: 24, expired: 3, available: 24 });

    // The job writes what is owed up to its day, once.
    expect(await ledger.accrue('2026-11-26')).toBeGreaterThan(0);
    const entries = await ledgerOf(e);
    const kinds = (kind: string) => entries.filter((x) => x.kind === kind);
    expect(kinds('accrual').map((x) => [x.date, x.days])).toEqual([
      ['2025-03-31', 1.03],
      ...['04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31'].map((d) => [`2025-${d}`, 2]),
      ...['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31'].map((d) => [`2026-${d}`, 2]),
    ]);
    expect(kinds('accrual').every((x) => x.source === 'policy' && x.source_id === policy)).toBe(true);
    expect(kinds('carry_over').map((x) => [x.date, x.days])).toEqual([['2026-01-01', 5]]);
    expect(kinds('expiry').map((x) => [x.date, x.days])).toEqual([['2026-04-01', -3]]);
    expect(kinds('taken')).toHaveLength(7);
    expect(await ledger.accrue('2026-11-26')).toBe(0);
    expect(await ledgerOf(e)).toHaveLength(entries.length);
    // The balance is the sum of the written entries, as of any day the job has reached.
    const written = (await ledgerOf(e, '&filters={"leave_type":' + holiday + '}&from=2026-01-01&to=2026-10-31')).reduce(
      (s, x) => s + x.days,
      0,
    );
    expect((await balanceOf(e, '2026-10-31')).available).toBeCloseTo(written, 5);

    // A joined date moved back is corrected by a new entry dated where it belongs; nothing is rewritten.
    await ok('PUT', `/employees/${e}`, admin, { joined_date: '2025-03-01' });
    expect(await ledger.accrue('2026-11-26')).toBe(1);
    const after = await ledgerOf(e);
    expect(after.slice(0, entries.length)).toEqual(entries);
    expect(after.at(-1)).toMatchObject({
      kind: 'accrual',
      date: '2025-03-31',
      days: 0.97,
      note: expect.stringMatching(/^correction/),
    });
    expect((await balanceOf(e, '2025-12-31')).accrued).toBe(20);
    // The carry-over stays at its cap.
    expect((await balanceOf(e, '2026-04-01')).available).toBe(6);
  });

  it('a back-dated assignment of another policy is corrected by entries, and an unassigned employee falls back to the type default', async () => {
    const e = await newEmployee('2020-01-01', c.departments.sales);
    expect((await balanceOf(e, '2026-06-30')).accrued).toBe(0); // Holiday: default 0, no assignment in Sales
    await ledger.accrue('2026-06-30');
    const yearly = await ok('POST', '/leave-policies', admin, {
      name: 'Sales yearly',
      leave_type: holiday,
      accrual: 'fixed_per_period',
      amount: 12,
    });
    await ok('POST', '/leave-policy-assignments', admin, { policy: yearly.id, employee: e, valid_from: '2026-01-01' });
    expect((await balanceOf(e, '2026-06-30')).accrued).toBe(12);
    expect(await ledger.accrue('2026-06-30')).toBe(1);
    expect((await ledgerOf(e)).map((x) => [x.kind, x.date, x.days])).toEqual([['accrual', '2026-01-01', 12]]);
  });

  it('cancelling approved leave writes reversals; the summary and the balance read the same ledger', async () => {
    const e = await newEmployee('2020-01-01', c.departments.engineering);
    const approved = await approvedLeave(e, holiday, '2026-03-02', '2026-03-04');
    await ok('POST', `/leaves/${approved.id}/cancel`, admin);
    const entries = (await ledgerOf(e, '&filters={"kind":"reversal"}')).map((x) => [x.date, x.days, x.source, x.source_id]);
    expect(entries).toEqual([
      ['2026-03-02', 1, 'request', approved.id],
      ['2026-03-03', 1, 'request', approved.id],
      ['2026-03-04', 1, 'request', approved.id],
    ]);
    expect((await balanceOf(e, '2026-03-31')).taken).toBe(0);
    const summary = (await ok('GET', `/employees/${e}/leaves/summary`, admin)).types.find(
      (x: { leave_type: number }) => x.leave_type === holiday,
    );
    const today = new Date().toISOString().slice(0, 10);
    if (today.startsWith('2026')) {
      const b = await balanceOf(e, today);
      expect(summary).toMatchObject({ taken: b.taken, available: b.available });
    }
  });

  it('adjustments: Admin, or Restricted Admin in scope, with a reason; audited; others refused', async () => {
    const e = c.emp.report2; // Engineering
    const body = { employee: e, leave_type: holiday, days: -1.5, date: '2026-05-04', note: 'Correction of 2024 carry-over' };
    const made = await ok('POST', '/leave-adjustments', c.users.restricted.token, body);
    expect(made).toMatchObject({
      kind: 'adjustment',
      days: -1.5,
      date: '2026-05-04',
      source: 'admin',
      note: body.note,
      created_by: c.users.restricted.user.id,
    });
    expect((await balanceOf(e, '2026-05-31')).adjusted).toBe(-1.5);
    const audit = await ok('GET', `/audit-log?filters={"resource":"leave-adjustments","resource_id":"${made.id}"}`, admin);
    expect(audit).toHaveLength(1);

    const outside = await call('POST', '/leave-adjustments', c.users.restricted.token, { ...body, employee: c.emp.outsider });
    expect(outside.statusCode).toBe(404);
    const manager = await call('POST', '/leave-adjustments', c.users.manager.token, body);
    expect(manager.statusCode).toBe(403);
    for (const bad of [{ days: 0 }, { days: 1.234 }, { note: '' }, { leave_type: 999999 }, { date: '2026-02-30' }]) {
      const res = await call('POST', '/leave-adjustments', admin, { ...body, ...bad });
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await ledgerOf(e, '&filters={"kind":"adjustment"}')).length).toBe(1);
  });

  it('encashment: only where the policy allows, within its yearly limit and the balance', async () => {
    const e = await newEmployee('2020-01-01', c.departments.sales);
    const body = { employee: e, leave_type: holiday, days: 2 };
    const refused = await call('POST', '/leave-encashments', admin, body);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'NOT_ENCASHABLE']);
    const cash = await ok('POST', '/leave-policies', admin, {
      name: 'Cashable',
      leave_type: holiday,
      accrual: 'fixed_per_period',
      amount: 4,
      encashable: true,
      encashment_max: 3,
    });
    await ok('POST', '/leave-policy-assignments', admin, { policy: cash.id, employee: e, valid_from: '2000-01-01' });
    expect(await ok('POST', '/leave-encashments', admin, body)).toMatchObject({
      kind: 'encashment',
      days: -2,
      source_id: cash.id,
    });
    const over = await call('POST', '/leave-encashments', admin, body);
    expect([over.statusCode, over.json().error.details[0].field]).toEqual([400, 'days']);
    expect((await call('POST', '/leave-encashments', c.users.restricted.token, body)).statusCode).toBe(403);
    const today = new Date().toISOString().slice(0, 10);
    expect(await balanceOf(e, today)).toMatchObject({ encashed: 2 });

    // The payroll hook leave_encashment_days brings the days encashed in the payroll period into a column.
    const missing = await call('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Encashed',
      calculation_hook: 'leave_encashment_days',
    });
    expect([missing.statusCode, missing.json().error.details[0].field]).toEqual([400, 'calculation_hook_args.leave_type']);
    const column = await ok('POST', '/payroll_config/payroll-columns', admin, {
      name: 'Encashed',
      calculation_hook: 'leave_encashment_days',
      calculation_hook_args: { leave_type: holiday },
    });
    const hook = [{ id: column.id, hook: 'leave_encashment_days', args: { leave_type: holiday } }];
    const inputs = t.app.get(PayrollInputsService);
    const inPeriod = (await inputs.hookInputs(hook, [e, c.emp.report1], today, today)).get(column.id);
    expect([inPeriod?.get(e)?.value, inPeriod?.get(c.emp.report1)?.value]).toEqual(['2', '0']);
    // The run keeps the entries it summed (one encashment here).
    expect(inPeriod?.get(e)?.records).toHaveLength(1);
    const before = await inputs.hookInputs(hook, [e], '2020-01-01', '2020-01-31');
    expect(before.get(column.id)?.get(e)?.value).toBe('0');
    const otherType = await inputs.hookInputs([{ ...hook[0], args: { leave_type: holiday + 1000 } }], [e], today, today);
    expect(otherType.get(column.id)?.get(e)?.value).toBe('0');
  });

  it('twenty concurrent approvals of one employee never spend more than the balance', async () => {
    const e = await newEmployee('2020-01-01', c.departments.sales);
    await ok('POST', '/leave-adjustments', admin, {
      employee: e,
      leave_type: holiday,
      days: 20,
      date: '2026-01-01',
      note: 'opening',
    });
    const days: string[] = [];
    for (let d = Date.UTC(2026, 5, 1); days.length < 20; d += 86_400_000) {
      const day = new Date(d);
      if (day.getUTCDay() % 6) days.push(day.toISOString().slice(0, 10));
    }
    const requests = [];
    for (const day of days)
      requests.push(await ok('POST', '/leaves', admin, { employee: e, leave_type: holiday, date_start: day, date_end: day }));
    await ok('POST', '/leave-adjustments', admin, {
      employee: e,
      leave_type: holiday,
      days: -12,
      date: '2026-01-02',
      note: 'over-granted',
    });
    const results = await Promise.all(requests.map((r) => call('POST', `/leaves/${r.id}/approve`, admin)));
    const codes = results.map((r) => (r.statusCode === 200 ? 'ok' : r.json().error.code));
    expect(codes.filter((x) => x === 'ok')).toHaveLength(8);
    expect(codes.filter((x) => x === 'INSUFFICIENT_BALANCE')).toHaveLength(12);
    expect(await balanceOf(e, '2026-12-31')).toMatchObject({ taken: 8, available: 0 });
  });

  it('the leave liability insight sums the positive balances at the period end by type and department, in scope', async () => {
    const period2025 = (await ok('GET', '/leave-periods?limit=500', admin)).find((p: { name: string }) => p.name === '2025').id;
    const ds = t.app.get(DataSource);
    const expected = (day: string, keep?: (e: { id: number; supervisor_id: number | null }) => boolean) =>
      liabilityByBalances(ok, ds, admin, day, keep);
    const liability = async (period: string | number, token = admin) =>
      liabilityRows(await ok('GET', `/insights/leave-liability/${period}`, token));

    const yearEnd = await liability(period2025);
    expect(yearEnd.some((r) => r.leave_type === holiday && r.department === c.departments.platform && r.days > 0)).toBe(true);
    expect(yearEnd).toEqual(await expected('2025-12-31', () => true));
    const today = new Date().toISOString().slice(0, 10);
    expect(await liability('1year')).toEqual(await expected(today, () => true));
    // A Manager sees its direct reports only; names come with the ids.
    expect(await liability(period2025, c.users.manager.token)).not.toEqual([]);
    expect(await liability(period2025, c.users.manager.token)).toEqual(
      await expected('2025-12-31', (e) => e.supervisor_id === c.emp.manager),
    );
    const named = (await ok('GET', `/insights/leave-liability/${period2025}`, admin))[0];
    expect(named).toMatchObject({ leave_type_name: expect.any(String) });
    expect('department_name' in named).toBe(true);

    const notFound = await call('GET', '/insights/leave-liability/999999', admin);
    expect([notFound.statusCode, notFound.json().error.code]).toEqual([404, 'NOT_FOUND']);
    for (const bad of ['0', '-1', '1.5', 'x', '99999999999'])
      expect((await call('GET', `/insights/leave-liability/${bad}`, admin)).json().error.code).toBe('INVALID_PERIOD');
  });

  it('validates policies and assignments', async () => {
    for (const bad of [{ accrual: 'weekly' }, { amount: -1 }, { leave_type: 999999 }, { carry_over_expiry_months: 0 }]) {
      const res = await call('POST', '/leave-policies', admin, {
        name: `Bad ${JSON.stringify(bad)}`,
        leave_type: holiday,
        accrual: 'monthly',
        amount: 1,
        ...bad,
      });
      expect(res.statusCode).toBe(400);
    }
    const two = await call('POST', '/leave-policy-assignments', admin, {
      policy,
      department: c.departments.sales,
      employee: c.emp.outsider,
      valid_from: '2026-01-01',
    });
    expect([
      two.statusCode,
      two
        .json()
        .error.details.map((d: { field: string }) => d.field)
        .sort(),
    ]).toEqual([400, ['department', 'employee']]);
    const missing = await call('POST', '/leave-policy-assignments', admin, {
      policy,
      department: 999999,
      valid_from: '2026-01-01',
    });
    expect(missing.statusCode).toBe(400);
    const backwards = await call('POST', '/leave-policy-assignments', admin, {
      policy,
      valid_from: '2026-01-01',
      valid_to: '2025-01-01',
    });
    expect(backwards.statusCode).toBe(400);
    const inUse = await call('DELETE', `/leave-policies/${policy}`, admin);
    expect([inUse.statusCode, inUse.json().error.code]).toEqual([409, 'IN_USE']);
    expect((await call('GET', '/leave-policy-assignments', c.users.employee.token)).statusCode).toBe(403);
    expect((await call('GET', `/employees/${c.emp.outsider}/leave-ledger`, c.users.employee.token)).statusCode).toBe(404);
  });

  it('reads the department of each day (issue 43): accruals follow a transfer, the liability counts the department of its day', async () => {
    const period2025 = (await ok('GET', '/leave-periods?limit=500', admin)).find((p: { name: string }) => p.name === '2025').id;
    const liability = async () => liabilityRows(await ok('GET', `/insights/leave-liability/${period2025}`, admin));
    const e = await newEmployee('2025-01-01', c.departments.platform);
    await ledger.accrue('2026-11-26');
    const before = await liability();
    // Moved to Sales (no policy there) from 2026 on, recorded after the fact.
    await ok('POST', `/employees/${e}/changes`, admin, {
      effective_date: '2026-01-01',
      reason: 'Transfer',
      fields: { department: c.departments.sales },
    });
    await ledger.accrue('2026-11-26');
    // The accruals of 2026, written while it was in Platform, are taken back by correcting entries.
    const net = new Map<string, number>();
    for (const x of (await ledgerOf(e)).filter((x) => x.kind === 'accrual'))
      net.set(x.date, Math.round(((net.get(x.date) ?? 0) + x.days) * 100) / 100);
    const months = ['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31'];
    expect([...net].filter(([, days]) => days !== 0).map(([date]) => date)).toEqual(months.map((d) => `2025-${d}`));
    // At the end of 2025 it was in Platform: the 2025 liability is as it was before the transfer was recorded.
    expect(await liability()).toEqual(before);
  });
});
