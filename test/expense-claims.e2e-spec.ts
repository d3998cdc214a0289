import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildCompany, Company } from './helpers/company';
import { multipartForm, SAMPLE_FILES } from './helpers/multipart';
import { apiCaller, bearer, createTestApp, okCaller, outboxEvents, processPayroll, TestApp, until } from './helpers/test-app';

type Item = {
  id: number;
  category: number;
  date: string;
  description: string;
  amount: string;
  currency: string;
  rate: string;
  amount_converted: string;
  receipt: number | null;
};
type Claim = {
  id: number;
  employee: number;
  status: string;
  currency: string;
  total: string;
  items: Item[];
  paid_in: number | null;
  paid_reference: string | null;
  approval: { status: string; current_step: number; steps: unknown[] } | null;
};

/**
 * Expense claims (issue 68, docs/api/expenses.md): items in any currency converted at their day's
 * rate, receipts, the approval chains of kind expense, and payment through payroll exactly once.
 */
describe('expense claims', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  let employee: string;
  let manager: string;
  const cat: Record<string, number> = {};
  const relay = () => t.app.get(OutboxRelay).drain();

  const claim = async (items: object[], token = employee, extra: object = {}) =>
    (await ok('POST', '/expense-claims', token, { title: 'Customer visit, Lyon', items, ...extra })) as Claim;
  const receipt = (claimId: number, itemId: number, file: Buffer, type: string, name: string, token = employee) => {
    const form = multipartForm([{ name: 'file', filename: name, type, data: file }]);
    return t.app.inject({
      method: 'PUT',
      url: `/app/api/expense-claims/${claimId}/items/${itemId}/receipt`,
      headers: { ...bearer(token), ...form.headers },
      payload: form.payload,
    });
  };
  /** A claim of one Meals item, submitted and approved by the supervisor. */
  const approvedClaim = async (amount: string) => {
    const made = await claim([{ category: cat.meals, date: '2026-02-03', description: 'Lunch', amount }]);
    await ok('POST', `/expense-claims/${made.id}/submit`, employee);
    return (await ok('POST', `/expense-claims/${made.id}/approve`, manager)) as Claim;
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    employee = c.users.employee.token;
    manager = c.users.manager.token;
    cat.travel = (
      await ok('POST', '/expense-categories', admin, {
        name: 'Travel',
        account: '6400',
        max_amount: '500.00',
        requires_receipt: true,
      })
    ).id;
    cat.meals = (await ok('POST', '/expense-categories', admin, { name: 'Meals', account: '6410', max_amount: '50.00' })).id;
    cat.hotel = (await ok('POST', '/expense-categories', admin, { name: 'Hotel', account: '6420' })).id;
    await ok('POST', '/exchange-rates', admin, { currency: 'USD', date: '2026-01-01', rate: '0.9' });
    await ok('POST', '/exchange-rates', admin, { currency: 'USD', date: '2026-02-05', rate: '0.95' });
    await ok('POST', '/exchange-rates', admin, { currency: 'JPY', date: '2026-01-01', rate: '0.0061' });
    for (const e of [c.emp.manager, c.emp.report1, c.emp.report2])
      await ok('POST', '/payroll_config/payroll-employees', admin, { employee: e, pay_frequency: 4, currency: 'EUR' });
  });
  afterAll(() => t.close());

  it('converts each item at the rate of its day or the last before, half up to the minor unit, and keeps the rate', async () => {
    const made = await claim([
      { category: cat.meals, date: '2026-02-03', description: 'Lunch', amount: '40' },
      { category: cat.travel, date: '2026-02-04', description: 'Taxi', amount: 110.55, currency: 'USD' },
      { category: cat.hotel, date: '2026-02-05', description: 'Hotel', amount: '100.01', currency: 'USD' },
      { category: cat.hotel, date: '2026-02-06', description: 'Snack', amount: '123', currency: 'JPY' },
    ]);
    expect(made).toMatchObject({ employee: c.emp.report1, status: 'Draft', currency: 'EUR', approval: null, paid_in: null });
    expect(made.items.map((i) => [i.amount, i.currency, i.rate, i.amount_converted, i.receipt])).toEqual([
      ['40.00', 'EUR', '1', '40.00', null],
      ['110.55', 'USD', '0.9', '99.50', null], // 99.495 half up
      ['100.01', 'USD', '0.95', '95.01', null], // 95.0095: the rate of its own day
      ['123', 'JPY', '0.0061', '0.75', null], // 0.7503
    ]);
    expect(made.total).toBe('235.26');

    // A PUT takes what its GET returned; items named by id stay (their ids), the others are new.
    const got = (await ok('GET', `/expense-claims/${made.id}`, employee)) as Claim;
    const put = (await ok('PUT', `/expense-claims/${made.id}`, employee, {
      ...got,
      items: [...got.items.slice(0, 2), { category: cat.meals, date: '2026-02-07', description: 'Dinner', amount: '30.10' }],
    })) as Claim;
    expect(put.items.map((i) => i.id).slice(0, 2)).toEqual(got.items.slice(0, 2).map((i) => i.id));
    expect(put.items[2].id).not.toBe(got.items[2].id);
    expect(put.total).toBe('169.60');

    // Bad items are 400 naming the item and field, and change nothing.
    for (const [item, field] of [
      [{ category: 999999, date: '2026-02-03', description: 'x', amount: '1' }, 'items.0.category'],
      [{ category: cat.meals, date: '2026-02-03', description: 'x', amount: '1.5', currency: 'JPY' }, 'items.0.amount'],
      [{ category: cat.meals, date: '2025-12-31', description: 'x', amount: '1', currency: 'USD' }, 'items.0.currency'],
      [{ category: cat.meals, date: '2026-02-03', description: 'x', amount: '1', currency: 'GBP' }, 'items.0.currency'],
      [{ category: cat.meals, date: '2026-02-03', description: 'x', amount: '0' }, 'items.0.amount'],
      [{ id: got.items[0].id + 1000, category: cat.meals, date: '2026-02-03', description: 'x', amount: '1' }, 'items.0.id'],
    ] as const) {
      const res = await call('PUT', `/expense-claims/${made.id}`, employee, { items: [item] });
      expect({ field, status: res.statusCode, got: res.json().error?.details?.[0]?.field }).toEqual({
        field,
        status: 400,
        got: field,
      });
    }
    expect(((await ok('GET', `/expense-claims/${made.id}`, employee)) as Claim).total).toBe('169.60');

    // Who sees it: the employee, its supervisor, the Admins; not another employee.
    expect((await call('GET', `/expense-claims/${made.id}`, manager)).statusCode).toBe(200);
    const outsider = await call('GET', `/expense-claims/${made.id}`, c.users.orphan.token);
    expect(outsider.statusCode).toBe(404);
    // Only the employee or an Admin of it changes it; a Manager sees but does not write.
    expect((await call('PUT', `/expense-claims/${made.id}`, manager, { title: 'x' })).statusCode).toBe(403);
    // An employee or a Manager claims for itself only.
    expect((await call('POST', '/expense-claims', manager, { title: 'x', employee: c.emp.report2 })).statusCode).toBe(403);
    expect((await call('POST', '/expense-claims', employee, { title: 'x', employee: c.emp.report2 })).statusCode).toBe(404);
    const forOther = (await ok('POST', '/expense-claims', admin, { title: 'By HR', employee: c.emp.report2 })) as Claim;
    expect(forOther).toMatchObject({ employee: c.emp.report2, status: 'Draft', total: '0.00', items: [] });
    expect(await ok('DELETE', `/expense-claims/${forOther.id}`, admin)).toEqual({ id: forOther.id });
    const listed = (await ok('GET', `/employees/${c.emp.report1}/expense-claims`, manager)) as Claim[];
    expect(listed.map((x) => x.id)).toContain(made.id);
  });

  it('a submit needs the receipts its categories require and keeps their ceilings; receipts are PDF, JPEG or PNG by their bytes', async () => {
    const made = await claim([
      { category: cat.meals, date: '2026-02-03', description: 'Team lunch', amount: '75.00' },
      { category: cat.travel, date: '2026-02-04', description: 'Train', amount: '120.00' },
    ]);
    const refused = await call('POST', `/expense-claims/${made.id}/submit`, employee);
    expect([refused.statusCode, refused.json().error.details.map((d: { field: string }) => d.field)]).toEqual([
      400,
      ['items.0.amount', 'items.1.receipt'],
    ]);
    expect(((await ok('GET', `/expense-claims/${made.id}`, employee)) as Claim).status).toBe('Draft');

    const text = await receipt(made.id, made.items[1].id, Buffer.from('not an image'), 'image/png', 'receipt.png');
    expect(text.statusCode).toBe(415);
    const tooLarge = await receipt(
      made.id,
      made.items[1].id,
      Buffer.concat([SAMPLE_FILES.pdf(), Buffer.alloc(10 * 1024 * 1024)]),
      'application/pdf',
      'big.pdf',
    );
    expect(tooLarge.statusCode).toBe(413);
    const png = SAMPLE_FILES.png();
    const put = await receipt(made.id, made.items[1].id, png, 'image/png', 'train.png');
    expect(put.statusCode).toBe(200);
    const withReceipt = put.json().data as Claim;
    expect(withReceipt.items[1].receipt).toEqual(expect.any(Number));
    // A receipt is the employee's document of type Receipt; the supervisor reads it through the claim.
    const docs = (await ok('GET', `/employees/${c.emp.report1}/documents`, admin)) as Array<{ id: number; name: string }>;
    expect(docs.find((d) => d.id === withReceipt.items[1].receipt)?.name).toContain('Receipt: Customer visit, Lyon');
    const file = await t.app.inject({
      method: 'GET',
      url: `/app/api/expense-claims/${made.id}/items/${made.items[1].id}/receipt`,
      headers: bearer(manager),
    });
    expect([file.statusCode, file.headers['content-type'], Buffer.compare(file.rawPayload, png)]).toEqual([200, 'image/png', 0]);
    expect((await call('GET', `/expense-claims/${made.id}/items/${made.items[0].id}/receipt`, employee)).statusCode).toBe(404);

    // Within the ceiling, with its receipt, the claim is submitted; then it cannot be changed.
    const items = withReceipt.items.map((i, n) => (n === 0 ? { ...i, amount: '50.00' } : i));
    const fixed = (await ok('PUT', `/expense-claims/${made.id}`, employee, { items })) as Claim;
    expect(fixed.items[1].receipt).toBe(withReceipt.items[1].receipt);
    const submitted = (await ok('POST', `/expense-claims/${made.id}/submit`, employee)) as Claim;
    expect(submitted).toMatchObject({ status: 'Submitted', total: '170.00', approval: { status: 'Pending' } });
    const late = await call('PUT', `/expense-claims/${made.id}`, employee, { title: 'x' });
    expect([late.statusCode, late.json().error.code]).toEqual([409, 'INVALID_STATE']);
    expect((await receipt(made.id, made.items[1].id, png, 'image/png', 'again.png')).statusCode).toBe(409);
    expect((await call('DELETE', `/expense-claims/${made.id}`, employee)).statusCode).toBe(409);
    // The category is in use.
    expect((await call('DELETE', `/expense-categories/${cat.travel}`, admin)).statusCode).toBe(409);
  });

  it('is decided through the chains of kind expense: more steps above min_amount, never by the claimant; the approvers get a task', async () => {
    await ok('POST', '/approval-policies', admin, {
      name: 'Large expenses',
      applies_to: 'expense',
      conditions: { min_amount: '1000.00' },
      steps: [
        { approvers: ['supervisor'], mode: 'any' },
        { approvers: ['admins'], mode: 'any' },
      ],
    });
    const refusedCondition = await call('POST', '/approval-policies', admin, {
      name: 'Bad',
      applies_to: 'expense',
      conditions: { min_days: 2 },
      steps: [{ approvers: ['supervisor'], mode: 'any' }],
    });
    expect(refusedCondition.statusCode).toBe(400);

    const small = await claim([{ category: cat.hotel, date: '2026-02-03', description: 'Hotel', amount: '999.99' }]);
    const large = await claim([
      { category: cat.hotel, date: '2026-02-03', description: 'Hotel', amount: '1100', currency: 'USD' },
    ]);
    expect(large.total).toBe('990.00'); // in EUR; the policy compares 990.00 EUR: one step
    const larger = await claim([{ category: cat.hotel, date: '2026-02-03', description: 'Hotels', amount: '1000.00' }]);
    for (const x of [small, large, larger]) await ok('POST', `/expense-claims/${x.id}/submit`, employee);
    await relay();
    expect((await outboxEvents(t.app, 'expense.submitted')).map((e) => (e.data as { id: number }).id)).toEqual(
      expect.arrayContaining([small.id, large.id, larger.id]),
    );
    const tasks = (await ok('GET', '/tasks?limit=100', manager)) as Array<{ source: string; source_id: number }>;
    expect(tasks.filter((x) => x.source === 'expense-approval').map((x) => x.source_id)).toEqual(
      expect.arrayContaining([small.id, large.id, larger.id]),
    );
    const inbox = (await ok('GET', '/approvals/pending?limit=500', manager)) as Array<{ kind: string; id: number }>;
    expect(inbox.filter((x) => x.kind === 'expense').map((x) => x.id)).toEqual(expect.arrayContaining([small.id, larger.id]));

    const own = await call('POST', `/expense-claims/${small.id}/approve`, employee);
    expect(own.statusCode).toBe(403);
    expect(((await ok('POST', `/expense-claims/${small.id}/approve`, manager)) as Claim).status).toBe('Approved');
    expect(((await ok('POST', `/expense-claims/${large.id}/reject`, manager, { comment: 'no receipt' })) as Claim).status).toBe(
      'Rejected',
    );
    const first = (await ok('POST', `/expense-claims/${larger.id}/approve`, manager)) as Claim;
    expect([first.status, first.approval?.steps.length, first.approval?.current_step]).toEqual(['Submitted', 2, 2]);
    expect(((await ok('POST', `/expense-claims/${larger.id}/approve`, admin)) as Claim).status).toBe('Approved');
    await relay();
    const decided = (await outboxEvents(t.app, 'expense.decided')).map(
      (e) => e.data as { id: number; changes: Record<string, unknown[]> },
    );
    expect(decided.filter((e) => [small.id, large.id, larger.id].includes(e.id)).map((e) => [e.id, e.changes.status[1]])).toEqual(
      [
        [small.id, 'Approved'],
        [large.id, 'Rejected'],
        [larger.id, 'Approved'],
      ],
    );
    const left = (await ok('GET', '/tasks?limit=100', manager)) as Array<{ source: string; source_id: number; status: string }>;
    expect(left.filter((x) => x.source === 'expense-approval' && x.source_id === small.id).map((x) => x.status)).toEqual([
      'Completed',
    ]);
    // A Rejected claim is corrected (Draft again) and submitted again.
    const corrected = (await ok('PUT', `/expense-claims/${large.id}`, employee, { title: 'Hotel, with receipt' })) as Claim;
    expect(corrected.status).toBe('Draft');
    await ok('POST', `/expense-claims/${larger.id}/cancel`, employee);
    // A delegation replaces the supervisor on its days, as for leave.
    const today = new Date().toISOString().slice(0, 10);
    const delegation = (await ok('POST', '/approval-delegations', manager, {
      delegate: c.emp.report2,
      date_start: today,
      date_end: today,
    })) as { id: number };
    const delegated = await claim([{ category: cat.hotel, date: '2026-02-03', description: 'Hotel', amount: '80.00' }]);
    const submitted = (await ok('POST', `/expense-claims/${delegated.id}/submit`, employee)) as Claim;
    expect(submitted.approval?.steps[0]).toMatchObject({
      approvers: [c.emp.report2],
      substitutions: [{ approver: c.emp.manager, by: c.emp.report2, reason: 'delegation' }],
    });
    await ok('DELETE', `/approval-delegations/${delegation.id}`, manager);
    await ok('POST', `/expense-claims/${delegated.id}/cancel`, employee);
    expect((await call('POST', `/expense-claims/${larger.id}/approve`, admin)).statusCode).toBe(409);
  });

  it('is paid once through payroll: completing pays it, deleting the payslips unpays it, a second payroll never pays it again', async () => {
    const basic = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic pay', component_type: 'Earning' }))
      .id;
    await ok('PUT', `/employees/${c.emp.report1}/salary`, admin, { items: [{ component: basic, amount: '3000.00' }] });
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', admin, body)).id as number;
    const basicCol = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    const expensesCol = await column({ name: 'Expenses', variable: 'expenses', calculation_hook: 'expenses' });
    const net = await column({ name: 'Net', variable: 'net', add_columns: [basicCol, expensesCol] });
    const template = (
      await ok('POST', '/payroll_config/payslip-templates', admin, { name: 'Plain', content: '{{employee.name}}' })
    ).id;
    const payrollOf = async (name: string) =>
      (
        await ok('POST', '/payroll_config/payrolls', admin, {
          name,
          pay_period: 4,
          department: c.departments.platform,
          date_start: '2026-12-01',
          date_end: '2026-12-31',
          columns: [basicCol, expensesCol, net],
          payslip_template: template,
          net_column: net,
        })
      ).id as number;
    const cell = async (payroll: number) => {
      const grid = (await ok('GET', `/payroll_config/payrolls/${payroll}/data?limit=100`, admin)) as {
        rows: Array<{ employee: { id: number }; values: Record<string, string | null> }>;
      };
      return grid.rows.find((r) => r.employee.id === c.emp.report1)?.values[String(expensesCol)];
    };
    const complete = async (payroll: number) => {
      await ok('POST', `/payroll_config/payrolls/${payroll}/generate-payslips`, admin);
      await until(async () => (await ok('GET', `/payroll_config/payrolls/${payroll}`, admin)).status !== 'Completing', 20_000);
      return (await ok('GET', `/payroll_config/payrolls/${payroll}`, admin)) as { status: string; error: string | null };
    };
    const status = async (id: number) => (await ok('GET', `/expense-claims/${id}`, employee)) as Claim;

    const payable = (await ok(
      'GET',
      `/expense-claims?filters[status]=Approved&filters[employee]=${c.emp.report1}&limit=100`,
      admin,
    )) as Claim[];
    const a = await approvedClaim('12.34');
    const b = await approvedClaim('20.00');
    const before = payable.reduce((s, x) => s + Number(x.total), 0) + 32.34;

    const first = await payrollOf('December');
    const second = await payrollOf('December, bonus run');
    await processPayroll(t.app, admin, first);
    await processPayroll(t.app, admin, second);
    expect(Number(await cell(first))).toBeCloseTo(before, 2);
    expect(Number(await cell(second))).toBeCloseTo(before, 2);
    const explained = await ok('GET', `/payroll_config/payrolls/${first}/cells/${c.emp.report1}/${expensesCol}/explain`, admin);
    expect(JSON.stringify(explained)).toContain('expense_claims');

    // The first to complete pays the claims it read.
    expect((await complete(first)).status).toBe('Completed');
    expect([(await status(a.id)).status, (await status(a.id)).paid_in, (await status(b.id)).paid_in]).toEqual([
      'Paid',
      first,
      first,
    ]);
    await relay();
    expect((await outboxEvents(t.app, 'expense.paid')).map((e) => (e.data as { id: number }).id)).toEqual(
      expect.arrayContaining([a.id, b.id]),
    );
    // The second read them too: it does not complete, and says why; processed again, it pays nothing of them.
    const refused = await complete(second);
    expect(refused.status).toBe('Processed');
    expect(refused.error).toContain(`${a.id} (Paid), ${b.id} (Paid)`);
    expect(refused.error).toContain('process it again');
    await processPayroll(t.app, admin, second);
    expect(Number(await cell(second))).toBe(0);
    expect((await complete(second)).status).toBe('Completed');
    expect((await status(a.id)).paid_in).toBe(first);

    // Deleting the first payroll's payslips unpays its claims; processed again and completed, it pays them again.
    await ok('POST', `/payroll_config/payrolls/${first}/delete-payslips`, admin);
    expect([(await status(a.id)).status, (await status(a.id)).paid_in]).toEqual(['Approved', null]);
    await processPayroll(t.app, admin, first);
    // A claim cancelled after the payroll read it refuses its completion too.
    await ok('POST', `/expense-claims/${b.id}/cancel`, employee);
    const stale = await complete(first);
    expect([stale.status, stale.error]).toEqual(['Processed', expect.stringContaining(`${b.id} (Cancelled)`)]);
    await processPayroll(t.app, admin, first);
    expect(Number(await cell(first))).toBeCloseTo(before - 20, 2);
    expect((await complete(first)).status).toBe('Completed');
    expect([(await status(a.id)).status, (await status(b.id)).status]).toEqual(['Paid', 'Cancelled']);

    // The journal debits each claim item's category account, the column's credit account takes the whole.
    const map = (column: number, debit: string | null, credit: string | null) =>
      ok('POST', '/payroll_config/accounts', admin, {
        column,
        debit_account: debit,
        credit_account: credit,
        cost_centre: 'none',
      });
    await map(basicCol, '6000', '1740');
    await map(expensesCol, '6499', '1755');
    await map(net, null, null);
    const journal = (await ok('GET', `/payroll_config/payrolls/${first}/journal`, admin)) as {
      lines: Array<{ account: string; debit: string; credit: string; description: string }>;
      total_debit: string;
      total_credit: string;
    };
    const claims = (await ok('GET', `/expense-claims?filters[paid_in]=${first}&limit=100`, admin)) as Claim[];
    const byAccount = new Map<string, number>();
    for (const x of claims)
      for (const i of x.items) {
        const account = i.category === cat.meals ? '6410' : i.category === cat.hotel ? '6420' : '6400';
        byAccount.set(account, (byAccount.get(account) ?? 0) + Number(i.amount_converted));
      }
    const expenseLines = journal.lines.filter((l) => l.description.startsWith('Expenses,'));
    expect(expenseLines.map((l) => [l.account, Number(l.debit), Number(l.credit)])).toEqual([
      ...[...byAccount].sort(([x], [y]) => x.localeCompare(y)).map(([account, amount]) => [account, amount, 0]),
      ['1755', 0, Number(await cell(first))],
    ]);
    expect(journal.total_debit).toBe(journal.total_credit);
  });

  it('an Admin marks an Approved claim paid outside payroll with its reference; nothing Paid is cancelled', async () => {
    const x = await approvedClaim('10.00');
    expect((await call('POST', `/expense-claims/${x.id}/pay`, employee, { reference: 'TRF-1' })).statusCode).toBe(403);
    expect((await call('POST', `/expense-claims/${x.id}/pay`, admin, {})).statusCode).toBe(400);
    const paid = (await ok('POST', `/expense-claims/${x.id}/pay`, admin, { reference: 'TRF-1' })) as Claim;
    expect(paid).toMatchObject({ status: 'Paid', paid_in: null, paid_reference: 'TRF-1' });
    const cancel = await call('POST', `/expense-claims/${x.id}/cancel`, employee);
    expect([cancel.statusCode, cancel.json().error.message]).toEqual([409, 'A Paid expense claim cannot be cancelled']);
    expect((await call('POST', `/expense-claims/${x.id}/pay`, admin, { reference: 'TRF-2' })).statusCode).toBe(409);
  });

  it('gives the worked example of docs/api/expenses.md', async () => {
    await ok('POST', '/exchange-rates', admin, { currency: 'USD', date: '2026-10-01', rate: '0.9210' });
    await ok('POST', '/exchange-rates', admin, { currency: 'USD', date: '2026-11-01', rate: '0.9315' });
    const made = await claim([
      { category: cat.travel, date: '2026-11-01', description: 'Taxi', amount: '48.30', currency: 'USD' },
      { category: cat.hotel, date: '2026-10-31', description: 'Hotel', amount: '212.00', currency: 'USD' },
    ]);
    expect([made.items.map((i) => [i.rate, i.amount_converted]), made.total]).toEqual([
      [
        ['0.9315', '44.99'],
        ['0.921', '195.25'],
      ],
      '240.24',
    ]);
  });

  it('GET /meta/mobile-modules answers expenses: true', async () => {
    expect((await ok('GET', '/meta/mobile-modules', employee)).expenses).toBe(true);
  });
});
