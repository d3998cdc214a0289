import { createHash } from 'node:crypto';
import ExcelJS from 'exceljs';
import { schemaErrors } from '../src/payroll/books/xsd-validator';
import { buildCompany, Company } from './helpers/company';
import { xmllint, xmllintAvailable } from './helpers/xmllint';
import { addDays } from '../src/common/time/days';
import { apiCaller, createTestApp, okCaller, outboxEvents, processPayroll, TestApp, until } from './helpers/test-app';

type Line = { account: string; debit: string; credit: string; currency: string; cost_centre: string | null; description: string };
const cents = (s: string) => BigInt(s.replace('.', ''));

/** A weekday at least a week from now. */
function nextWeekday(): string {
  const d = new Date(Date.now() + 7 * 86_400_000);
  while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/**
 * Paying people and posting the books (issue 46, docs/api/decisions.md §22): bank accounts with IBAN/BIC checks
 * and masking, the SEPA bank file of a Completed payroll valid against both ISO 20022 schemas, the
 * journal that balances, the register with department subtotals.
 */
describe('payroll books (issue 46)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let payroll: number;
  const col: Record<string, number> = {};
  const accounts: Record<number, number> = {};

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object) => okCaller(t.app)(method, url, admin, body);
  /** POST .../bank-files with the query's parameters as the body, then its file when one was made (else the refusal). */
  const bankFile = async (query: string, token = admin) => {
    const body: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(query)) body[k] = k === 'skip_missing' ? v === 'true' : v;
    const made = await call('POST', `/payroll_config/payrolls/${payroll}/bank-files`, token, body);
    if (made.statusCode !== 200 && made.statusCode !== 201) return made;
    return call('GET', `/payroll_config/payrolls/${payroll}/bank-files/${made.json().data.id}/file`, token);
  };

  beforeAll(async () => {
    // Windows of one employee (issue 70): each of the books reads the payroll one employee at a time.
    t = await createTestApp({ PAYROLL_CHUNK_SIZE: '1' });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    const basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    const column = async (body: object) => (await ok('POST', '/payroll_config/payroll-columns', body)).id as number;
    col.basic = await column({ name: 'Basic', variable: 'basic', salary_components: [basic] });
    col.tax = await column({ name: 'Tax', variable: 'tax', script: 'basic * 0.2' });
    col.net = await column({ name: 'Net', variable: 'net', add_columns: [col.basic], sub_columns: [col.tax] });
    col.employer = await column({ name: 'Employer pension', variable: 'pension', script: 'basic * 0.05' });
    const template = (await ok('POST', '/payroll_config/payslip-templates', { name: 'Plain', content: '{{employee.name}}' })).id;
    for (const [employee, amount] of [
      [c.emp.manager, '3000.00'],
      [c.emp.report1, '3100.55'],
      [c.emp.report2, '2000.10'],
    ] as const) {
      await ok('PUT', `/employees/${employee}/salary`, { items: [{ component: basic, amount }] });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: 4, currency: 'EUR' });
    }
    await ok('PUT', `/employees/${c.emp.manager}`, { first_name: 'Zoë', last_name: "O'Brien-Łukasz & Søn" });
    accounts[c.emp.manager] = (
      await ok('POST', `/employees/${c.emp.manager}/bank-accounts`, {
        iban: 'DE89 3704 0044 0532 0130 00',
        holder_name: "Zoë O'Brien-Łukasz",
      })
    ).id;
    accounts[c.emp.report1] = (
      await ok('POST', `/employees/${c.emp.report1}/bank-accounts`, {
        iban: 'FR1420041010050500013M02606',
        bic: 'bnpafrpp',
        holder_name: 'Jürgen Groß',
      })
    ).id;
    payroll = (
      await ok('POST', '/payroll_config/payrolls', {
        name: 'June 2025',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-06-01',
        date_end: '2025-06-30',
        columns: Object.values(col),
        payslip_template: template,
        net_column: col.net,
      })
    ).id;
    await processPayroll(t.app, admin, payroll);
    await ok('POST', `/payroll_config/payrolls/${payroll}/generate-payslips`);
    await until(async () => (await ok('GET', `/payroll_config/payrolls/${payroll}`)).status === 'Completed', 20_000);
    await ok('PUT', '/settings', { name: 'Company IBAN', value: 'NL91ABNA0417164300' });
    await ok('PUT', '/settings', { name: 'Company Name', value: 'Demo B.V. & Co' });
  });
  afterAll(async () => {
    if (process.env.SHOW_LOGS)
      console.log(
        t.logs
          .filter((l) => l.includes('"level":50'))
          .join('\n')
          .slice(0, 5000),
      );
    await t.close();
  });

  it('checks IBANs and BICs, naming the field and the reason, and changes nothing', async () => {
    const post = (body: object) =>
      call('POST', `/employees/${c.emp.report2}/bank-accounts`, admin, { holder_name: 'X', ...body });
    for (const [iban, reason] of [
      ['DE89370400440532013001', 'checksum'],
      ['DE8937040044053201300', 'length'],
      ['XX89370400440532013000', 'does not use IBANs'],
    ]) {
      const res = await post({ iban });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ field: 'iban', message: expect.stringContaining(reason) }),
      ]);
    }
    const company = await call('PUT', '/settings', admin, { name: 'Company IBAN', value: 'NL91ABNA0417164301' });
    expect([company.statusCode, company.json().error.message]).toEqual([400, expect.stringContaining('checksum')]);
    // A holder name a transfer cannot carry (an emoji would become ":grinning:" in the file).
    const emoji = await post({ iban: 'DE89370400440532013000', holder_name: 'Jane 😀' });
    expect([emoji.statusCode, emoji.json().error.details[0].field]).toEqual([400, 'holder_name']);
    const bic = await post({ iban: 'DE89370400440532013000', bic: 'DEUTDE' });
    expect(bic.statusCode).toBe(400);
    expect(bic.json().error.details[0].field).toBe('bic');
    expect(await ok('GET', `/employees/${c.emp.report2}/bank-accounts`)).toEqual([]);
  });

  it('shows the IBAN to an Admin and the employee itself, masked to anyone else; only they add, only an Admin changes', async () => {
    const own = await okCaller(t.app)('GET', `/employees/${c.emp.report1}/bank-accounts`, c.users.employee.token);
    expect(own[0]).toMatchObject({ iban: 'FR1420041010050500013M02606', bic: 'BNPAFRPP', primary: true });
    const byManager = await okCaller(t.app)('GET', `/employees/${c.emp.report1}/bank-accounts`, c.users.manager.token);
    expect(byManager[0]).toMatchObject({ iban: null, iban_masked: 'FR14*******************2606' });
    expect(JSON.stringify(byManager)).not.toContain('0500013M0');
    const restricted = await okCaller(t.app)(
      'GET',
      `/employees/${c.emp.manager}/bank-accounts/${accounts[c.emp.manager]}`,
      c.users.restricted.token,
    );
    expect(restricted.iban).toBeNull();
    const added = await call('POST', `/employees/${c.emp.report1}/bank-accounts`, c.users.manager.token, {
      iban: 'DE89370400440532013000',
      holder_name: 'M',
    });
    expect(added.statusCode).toBe(403);
    const put = await call('PUT', `/employees/${c.emp.report1}/bank-accounts/${own[0].id}`, c.users.employee.token, own[0]);
    expect(put.statusCode).toBe(403);
    // An Admin's PUT takes what its GET returned; the IBAN is the account: a PUT leaves it as it is.
    const whole = await ok('GET', `/employees/${c.emp.report1}/bank-accounts/${own[0].id}`);
    expect(await ok('PUT', `/employees/${c.emp.report1}/bank-accounts/${own[0].id}`, whole)).toMatchObject({ iban: whole.iban });
    const other = { ...whole, iban: 'GB82WEST12345698765432', holder_name: 'Jürgen G.' };
    const kept = await ok('PUT', `/employees/${c.emp.report1}/bank-accounts/${own[0].id}`, other);
    expect([kept.iban, kept.holder_name]).toEqual([whole.iban, 'Jürgen G.']);
  });

  it('keeps one primary account, audits changes with the IBAN masked and tells the employee', async () => {
    const second = await okCaller(t.app)('POST', `/employees/${c.emp.report1}/bank-accounts`, c.users.employee.token, {
      iban: 'GB82 WEST 1234 5698 7654 32',
      holder_name: 'Jürgen Groß',
      primary: true,
    });
    const list = (await ok('GET', `/employees/${c.emp.report1}/bank-accounts`)) as Array<{ id: number; primary: boolean }>;
    expect(list.filter((a) => a.primary).map((a) => a.id)).toEqual([second.id]);
    const demote = await call('PUT', `/employees/${c.emp.report1}/bank-accounts/${second.id}`, admin, {
      ...second,
      primary: false,
    });
    expect(demote.statusCode).toBe(400);
    await ok('DELETE', `/employees/${c.emp.report1}/bank-accounts/${second.id}`);
    const after = (await ok('GET', `/employees/${c.emp.report1}/bank-accounts`)) as Array<{ id: number; primary: boolean }>;
    expect(after).toEqual([expect.objectContaining({ id: accounts[c.emp.report1], primary: true })]);
    const audit = JSON.stringify(
      await ok(
        'GET',
        `/audit-log?filters=${encodeURIComponent(JSON.stringify({ resource: 'employees/bank-accounts' }))}&limit=50`,
      ),
    );
    expect(audit).toContain('GB82**************5432');
    expect(audit).not.toContain('WEST12345698');
    // Added (the first account), changed (its holder name, by the Admin), added (the second), removed.
    let titles: string[] = [];
    await until(async () => {
      const feed = (await okCaller(t.app)('GET', '/notifications?limit=50', c.users.employee.token)) as Array<{
        kind: string;
        title: string;
      }>;
      titles = feed.filter((n) => n.kind === 'employee.bank_account_changed').map((n) => n.title);
      return titles.length >= 4;
    }, 10_000);
    expect(titles.sort()).toEqual([
      'A bank account of yours was added',
      'A bank account of yours was added',
      'A bank account of yours was changed',
      'A bank account of yours was removed',
    ]);
  });

  it('refuses a bank file naming the employees without an account, unless skip_missing', async () => {
    const res = await bankFile('');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('MISSING_BANK_ACCOUNTS');
    expect(JSON.stringify(res.json().error.details)).toContain(`(id ${c.emp.report2})`);
    expect((await bankFile('skip_missing=true')).statusCode).toBe(200);
  });

  it('writes a file valid against both ISO 20022 schemas: one transfer per net pay, NbOfTxs and CtrlSum exact, stable per revision', async () => {
    const day = nextWeekday();
    for (const format of ['pain.001.001.03', 'pain.001.001.09'] as const) {
      const res = await bankFile(`format=${format}&execution_date=${day}&skip_missing=true`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('application/xml');
      const xml = res.body;
      expect(await schemaErrors(format, xml)).toEqual([]);
      if (xmllintAvailable()) expect(xmllint(format, xml)).toBe('');
      const amounts = [...xml.matchAll(/<InstdAmt Ccy="EUR">([0-9.]+)<\/InstdAmt>/g)].map((m) => m[1]);
      expect(amounts.sort()).toEqual(['2400.00', '2480.44']); // 80 % of 3 000.00 and of 3 100.55
      expect(xml).toContain('<NbOfTxs>2</NbOfTxs>');
      expect(xml).toContain('<CtrlSum>4880.44</CtrlSum>');
      expect(xml).toContain(`<MsgId>HR-P${payroll}-R`);
      expect(xml).toContain("<Nm>Zoe O'Brien-Lukasz</Nm>");
      expect(xml).toContain('<Nm>Demo B.V. + Co</Nm>');
      expect(xml).toContain(`<EndToEndId>P${payroll}-R`);
      expect((await bankFile(`format=${format}&execution_date=${day}&skip_missing=true`)).body).toBe(xml);
    }
  });

  it('a bank file is made by a POST, once per revision and parameters, kept and listed; the old GET is 410 (Hardening IV item 19)', async () => {
    const day = nextWeekday();
    const url = `/payroll_config/payrolls/${payroll}/bank-files`;
    const params = { format: 'pain.001.001.09', execution_date: day, skip_missing: true };
    const events = async () => (await outboxEvents(t.app, 'payroll.bank_file_created')).length;
    const before = await events();
    const first = await call('POST', url, admin, { ...params, execution_date: addDays(day, 7) });
    expect(first.statusCode).toBe(201);
    const record = first.json().data;
    expect(record).toEqual({
      id: expect.any(Number),
      payroll,
      revision: expect.any(Number),
      format: 'pain.001.001.09',
      execution_date: addDays(day, 7),
      skip_missing: true,
      msg_id: expect.stringMatching(new RegExp(`^HR-P${payroll}-R\\d+$`)),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      transactions: 2,
      total: '4880.44',
      created_by: c.users.admin.user.id,
      created_at: expect.any(String),
    });
    // The same parameters: the same record, nothing made or announced again.
    const again = await call('POST', url, admin, { ...params, execution_date: addDays(day, 7) });
    expect([again.statusCode, again.json().data]).toEqual([200, record]);
    expect(await events()).toBe(before + 1);
    const bytes = await call('GET', `${url}/${record.id}/file`, admin);
    expect(createHash('sha256').update(bytes.rawPayload).digest('hex')).toBe(record.sha256);
    expect((await call('GET', url, admin)).json().data.map((f: { id: number }) => f.id)).toContain(record.id);
    // Reading them writes nothing.
    expect(await events()).toBe(before + 1);
    const gone = await call('GET', `/payroll_config/payrolls/${payroll}/bank-file?format=pain.001.001.03`, admin);
    expect([gone.statusCode, gone.json().error.code]).toEqual([410, 'GONE']);
    expect(gone.json().error.message).toContain(`POST /payroll_config/payrolls/${payroll}/bank-files`);
    expect((await call('GET', `${url}/999999/file`, admin)).statusCode).toBe(404);
  });

  it('refuses bad execution dates and payrolls that are not Completed', async () => {
    const past = await bankFile('execution_date=2020-01-06');
    expect(past.statusCode).toBe(400);
    const saturday = new Date(Date.now() + 7 * 86_400_000);
    while (saturday.getUTCDay() !== 6) saturday.setUTCDate(saturday.getUTCDate() + 1);
    expect((await bankFile(`execution_date=${saturday.toISOString().slice(0, 10)}`)).statusCode).toBe(400);
    expect((await bankFile('format=pain.001.001.02')).statusCode).toBe(400);
    const draft = (
      await ok('POST', '/payroll_config/payrolls', {
        name: 'Draft',
        pay_period: 4,
        department: c.departments.engineering,
        date_start: '2025-07-01',
        date_end: '2025-07-31',
        columns: [col.basic],
      })
    ).id;
    const draftFile = await call('POST', `/payroll_config/payrolls/${draft}/bank-files`, admin, {});
    expect([draftFile.statusCode, draftFile.json().error.code]).toEqual([409, 'INVALID_STATE']);
    // Files made earlier are listed whatever the payroll's state now (a reopened payroll's were 409).
    const listed = await call('GET', `/payroll_config/payrolls/${draft}/bank-files`, admin);
    expect([listed.statusCode, listed.json().data]).toEqual([200, []]);
    for (const path of ['journal', 'register']) {
      const res = await call('GET', `/payroll_config/payrolls/${draft}/${path}`, admin);
      expect({ path, status: res.statusCode, code: res.json().error.code }).toEqual({ path, status: 409, code: 'INVALID_STATE' });
    }
    expect((await bankFile('', c.users.restricted.token)).statusCode).toBe(403);
  });

  it('posts a journal that balances, employer contributions included, and refuses one with an unmapped column', async () => {
    const unmapped = await call('GET', `/payroll_config/payrolls/${payroll}/journal`, admin);
    expect(unmapped.statusCode).toBe(409);
    expect(unmapped.json().error.code).toBe('UNMAPPED_COLUMNS');
    const map = (column: number, debit: string | null, credit: string | null, cost_centre = 'none') =>
      ok('POST', '/payroll_config/accounts', { column, debit_account: debit, credit_account: credit, cost_centre });
    await map(col.basic, '6000 Salaries', '4200 Payroll clearing', 'department');
    await map(col.tax, '4200 Payroll clearing', '4310 Tax payable');
    await map(col.net, '4200 Payroll clearing', '4210 Net pay');
    expect(
      (await call('POST', '/payroll_config/accounts', admin, { column: col.net, debit_account: 'a', credit_account: 'b' }))
        .statusCode,
    ).toBe(409);
    expect(
      (await call('POST', '/payroll_config/accounts', admin, { column: 999999, debit_account: 'a', credit_account: 'b' }))
        .statusCode,
    ).toBe(400);
    const half = await call('POST', '/payroll_config/accounts', admin, {
      column: col.employer,
      debit_account: null,
      credit_account: 'b',
    });
    expect(half.json().error.details).toEqual([expect.objectContaining({ field: 'debit_account' })]);
    expect((await call('GET', `/payroll_config/payrolls/${payroll}/journal`, admin)).json().error.message).toContain(
      'Employer pension',
    );
    await map(col.employer, '6100 Pension expense', '4320 Pension payable');
    const journal = await ok('GET', `/payroll_config/payrolls/${payroll}/journal`);
    const lines = journal.lines as Line[];
    const sum = (f: 'debit' | 'credit') => lines.reduce((s, l) => s + cents(l[f]), 0n);
    expect(sum('debit')).toBe(sum('credit'));
    expect(journal.total_debit).toBe(journal.total_credit);
    // Basic: 3 000.00 + 2 000.10 in Engineering, 3 100.55 in Platform, split by department.
    const salaries = lines.filter((l) => l.account === '6000 Salaries');
    expect(salaries.map((l) => [l.cost_centre, l.debit])).toEqual([
      [expect.stringMatching(/Engineering/), '5000.10'],
      [expect.stringMatching(/Platform/), '3100.55'],
    ]);
    expect(lines.find((l) => l.account === '4320 Pension payable')?.credit).toBe('405.04');
    const clearing = lines.filter((l) => l.account === '4200 Payroll clearing');
    expect(clearing.reduce((s, l) => s + cents(l.debit) - cents(l.credit), 0n)).toBe(0n);
    const csv = await call('GET', `/payroll_config/payrolls/${payroll}/journal?format=csv`, admin);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split(/\r?\n/)[0]).toBe('account,debit,credit,currency,cost_centre,description');
    expect(csv.body.trim().split(/\r?\n/)).toHaveLength(lines.length + 1);
  });

  it('gives the register with department subtotals and a total, scoped like the grid', async () => {
    const res = await call('GET', `/payroll_config/payrolls/${payroll}/register?format=xlsx`, admin);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = workbook.worksheets[0].getSheetValues().slice(2) as unknown[][];
    const kinds = rows.map((r) => r[1]);
    expect(kinds).toEqual(['employee', 'employee', 'subtotal', 'employee', 'subtotal', 'total']);
    // Columns: row, department, employee_id, name, Basic, Tax, Net, Employer pension (ExcelJS counts from 1).
    expect(rows[2][5]).toBe(5000.1);
    expect(rows[5][5]).toBe(8100.65);
    const restricted = await call('GET', `/payroll_config/payrolls/${payroll}/register`, c.users.restricted.token);
    expect(restricted.statusCode).toBe(200);
    const lines = restricted.body.trim().split('\n');
    expect(lines.at(-1)).toMatch(/^total,,,Total,/);
  });
});
