import { ExpensesSetupService } from '../src/expenses/expenses-setup.service';
import { buildCompany, Company } from './helpers/company';
import { apiCaller, bearer, createTestApp, okCaller, TestApp, until } from './helpers/test-app';

/** Issue 68, its first part (docs/api/expenses.md): expense categories, the company currency, exchange rates by day. */
describe('expenses: categories and exchange rates', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it('categories: everyone reads them, the Admins write; names unique; amounts exact', async () => {
    const travel = await ok('POST', '/expense-categories', admin, {
      name: 'Travel',
      account: '6400',
      max_amount: 150.5,
      requires_receipt: true,
    });
    expect(travel).toEqual({
      id: expect.any(Number),
      name: 'Travel',
      account: '6400',
      max_amount: '150.50',
      requires_receipt: true,
    });
    const meals = await ok('POST', '/expense-categories', admin, { name: 'Meals', account: '6410' });
    expect(meals).toMatchObject({ max_amount: null, requires_receipt: false });
    expect((await call('POST', '/expense-categories', admin, { name: 'Travel', account: '1' })).statusCode).toBe(409);
    expect(
      (await call('POST', '/expense-categories', admin, { name: 'Bad', account: '1', max_amount: '1.234' })).statusCode,
    ).toBe(400);
    expect((await call('POST', '/expense-categories', c.users.restricted.token, { name: 'X', account: '1' })).statusCode).toBe(
      403,
    );
    const read = (await ok('GET', '/expense-categories?sortField=name', c.users.employee.token)) as Array<{ name: string }>;
    expect(read.map((x) => x.name)).toEqual(['Meals', 'Travel']);
    // A PUT takes what its GET returned.
    const got = await ok('GET', `/expense-categories/${travel.id}`, admin);
    expect(await ok('PUT', `/expense-categories/${travel.id}`, admin, { ...got, max_amount: null })).toMatchObject({
      max_amount: null,
    });
  });

  it('the company currency is a setting: an ISO 4217 code', async () => {
    const settings = (await ok('GET', '/settings?limit=500', admin)) as Array<{ name: string; value: string }>;
    expect(settings.find((x) => x.name === 'Company Currency')?.value).toBe('EUR');
    expect((await call('PUT', '/settings', admin, { name: 'Company Currency', value: 'XYZ' })).statusCode).toBe(400);
  });

  it('rates by currency and day: the rate of a day is its own or the last before; none is 400 naming the currency and day', async () => {
    const rate = (currency: string, date: string, value: string | number) =>
      call('POST', '/exchange-rates', admin, { currency, date, rate: value });
    expect((await rate('USD', '2026-01-01', '0.92')).statusCode).toBe(200);
    expect((await rate('USD', '2026-02-01', 0.9)).json().data).toMatchObject({
      currency: 'USD',
      date: '2026-02-01',
      rate: '0.9',
    });
    expect((await rate('GBP', '2026-01-01', '1.16')).statusCode).toBe(200);
    const dup = await rate('USD', '2026-01-01', '0.93');
    expect([dup.statusCode, dup.json().error.details[0].field]).toEqual([409, 'date']);
    for (const [currency, value, field] of [
      ['EUR', '1', 'currency'],
      ['ABC', '1', 'currency'],
      ['usd', '1', 'currency'],
      ['USD', '0', 'rate'],
      ['USD', '-1', 'rate'],
      ['USD', '1.12345678901', 'rate'],
    ]) {
      const res = await rate(currency, '2026-03-01', value);
      expect({ currency, value, status: res.statusCode, field: res.json().error.details[0].field }).toEqual({
        currency,
        value,
        status: 400,
        field,
      });
    }
    expect((await call('GET', '/exchange-rates', c.users.manager.token)).statusCode).toBe(403);
    const listed = (await ok('GET', '/exchange-rates?filters[currency]=USD', admin)) as Array<{ date: string }>;
    expect(listed.map((r) => r.date)).toEqual(['2026-02-01', '2026-01-01']);

    const rates = t.app.get(ExpensesSetupService);
    expect(await rates.rateOn('USD', 'EUR', '2026-01-31')).toBe('0.92');
    expect(await rates.rateOn('USD', 'EUR', '2026-02-15')).toBe('0.9');
    expect(await rates.rateOn('EUR', 'GBP', '2026-01-15')).toBe('0.8620689655');
    expect(await rates.rateOn('USD', 'GBP', '2026-01-15')).toBe('0.7931034483');
    expect(await rates.rateOn('GBP', 'GBP', '2025-01-01')).toBe('1');
    await expect(rates.rateOn('USD', 'EUR', '2025-12-31')).rejects.toMatchObject({
      details: [{ field: 'currency', message: 'no exchange rate of USD on or before 2025-12-31' }],
    });
  });

  it('imports rates from CSV (kind exchange-rates): a day that has one is replaced, a bad row is named', async () => {
    const csv =
      'currency,date,rate\nCHF,2026-01-01,1.05\nCHF,2026-01-02,1.06\nUSD,2026-01-01,0.95\nCHF,2026-13-01,1\nJPY,2026-01-01,-3\n';
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=exchange-rates&dry_run=false&mode=valid-rows',
      headers: { ...bearer(admin), 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="rates.csv"' },
      payload: csv,
    });
    expect(res.statusCode).toBe(202);
    const id = res.json().data.id as number;
    let status = '';
    await until(async () => {
      status = (await ok('GET', `/imports/${id}`, admin)).status as string;
      return ['Completed', 'Failed', 'Validated'].includes(status);
    }, 20_000);
    expect(status).toBe('Completed');
    const errors = (await ok('GET', `/imports/${id}/errors`, admin)) as Array<{ row: number; field: string }>;
    expect(errors.map((e) => [e.row, e.field])).toEqual([
      [4, 'date'],
      [5, 'rate'],
    ]);
    const rates = t.app.get(ExpensesSetupService);
    expect(await rates.rateOn('CHF', 'EUR', '2026-01-05')).toBe('1.06');
    expect(await rates.rateOn('USD', 'EUR', '2026-01-15')).toBe('0.95');
  });
});
