import { getRepositoryToken } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { JobQueue } from '../src/common/queue/job-queue.service';
import { Payroll, PayrollCell } from '../src/payroll/entities/payroll-run.entities';
import { PayrollChunksService } from '../src/payroll/runs/payroll-chunks.service';
import { PayrollTransitionsService } from '../src/payroll/runs/payroll-transitions.service';
import { payrollJobId } from '../src/payroll/runs/payroll.jobs';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { apiCaller, createTestApp, okCaller, TestApp, until, testJob } from './helpers/test-app';

describe('payroll runs: process, data grid, edits, state machine', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  const col: Record<string, number> = {};

  const ok = (method: Parameters<typeof call>[0], url: string, body?: object, token = admin) =>
    okCaller(t.app)(method, url, token, body);
  // Completing renders each payslip's PDF with Chromium, whose first start under npm test's three
  // workers on two cores took over 10 s once (CI): that wait gets a minute.
  const settled = async (id: number, ms = 10_000) => {
    await until(
      async () => !['Processing', 'Completing'].includes((await ok('GET', `/payroll_config/payrolls/${id}`)).status),
      ms,
    );
    return ok('GET', `/payroll_config/payrolls/${id}`);
  };

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    admin = c.users.admin.token;
    const basic = (await ok('POST', '/payroll_config/salary-components', { name: 'Basic', component_type: 'Earning' })).id;
    const allowance = (await ok('POST', '/payroll_config/salary-components', { name: 'Allowance', component_type: 'Benefit' }))
      .id;
    col.basic = (await ok('POST', '/payroll_config/payroll-columns', { name: 'Basic', salary_components: [basic] })).id;
    col.allowance = (
      await ok('POST', '/payroll_config/payroll-columns', { name: 'Allowance', salary_components: [allowance], editable: true })
    ).id;
    col.gross = (await ok('POST', '/payroll_config/payroll-columns', { name: 'Gross', script: 'basic + allowance' })).id;
    col.tax = (
      await ok('POST', '/payroll_config/payroll-columns', { name: 'Tax', script: 'if(gross > 5000, (gross - 5000) * 0.2, 0)' })
    ).id;
    col.net = (await ok('POST', '/payroll_config/payroll-columns', { name: 'Net', script: 'gross - tax' })).id;
    const salary = async (employee: number, b: string, a: string, frequency = 4) => {
      await ok('PUT', `/employees/${employee}/salary`, {
        items: [
          { component: basic, amount: b },
          { component: allowance, amount: a },
        ],
      });
      await ok('POST', '/payroll_config/payroll-employees', { employee, pay_frequency: frequency, currency: 'EUR' });
    };
    await salary(c.emp.manager, '5000.00', '999.99');
    await salary(c.emp.report1, '3000', '250.50');
    await salary(c.emp.report2, '7000', '0.01');
    await salary(c.emp.grandReport, '1000', '0', 1); // weekly: not in a monthly payroll
    await salary(c.emp.outsider, '4000', '0'); // Sales: outside the Engineering payroll
  });
  afterAll(() => t.close());

  const payrollBody = (over: object = {}) => ({
    name: 'Engineering March 2026',
    pay_period: 4,
    department: c.departments.engineering,
    date_start: '2026-03-01',
    date_end: '2026-03-31',
    columns: [col.basic, col.allowance, col.gross, col.tax, col.net],
    ...over,
  });

  it('GET .../{id}/employees is a list like every other: paged, by employee id, sortField, 400 for anything else', async () => {
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Paged selection' }));
    const url = `/payroll_config/payrolls/${payroll.id}/employees`;
    const selected = [c.emp.manager, c.emp.report1, c.emp.report2].sort((a, b) => a - b);
    const first = (await call('GET', `${url}?limit=2`, admin)).json();
    expect(first).toMatchObject({ status: 'SUCCESS', total: 3, page: 1, limit: 2, nextPage: 2 });
    const second = (await call('GET', `${url}?limit=2&page=2`, admin)).json();
    expect(second).toMatchObject({ total: 3, page: 2, nextPage: null });
    type Row = { id: number; name: string };
    const rows = [...first.data, ...second.data] as Row[];
    expect(rows.map((r) => r.id)).toEqual(selected);
    expect(rows[0]).toEqual({
      id: selected[0],
      employee_id: expect.any(String),
      name: expect.stringMatching(/^First\d+ Last\d+$/),
      payroll_employee: expect.any(Number),
      currency: 'EUR',
    });
    const lastNames = rows.map((r) => r.name.split(' ')[1]);
    const byLastName = (await ok('GET', `${url}?sortField=last_name&sortOrder=descend`)) as Row[];
    expect(byLastName.map((r) => r.name.split(' ')[1])).toEqual([...lastNames].sort().reverse());
    for (const query of ['sortField=salary', 'limit=501', 'filters={"status":"Active"}']) {
      const res = await call('GET', `${url}?${query}`, admin);
      expect({ query, status: res.statusCode, code: res.json().error?.code }).toEqual({
        query,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
    }
  });

  it('processes a payroll into the hand-computed grid; an edit recomputes the row; processing again keeps the edit', async () => {
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody());
    expect(payroll).toMatchObject({
      status: 'Draft',
      progress: 0,
      error: null,
      processed_at: null,
      department: c.departments.engineering,
    });
    const selected = (await ok('GET', `/payroll_config/payrolls/${payroll.id}/employees`))
      .map((e: { id: number }) => e.id)
      .sort();
    expect(selected).toEqual([c.emp.manager, c.emp.report1, c.emp.report2].sort());

    expect((await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`)).status).toBe('Processing');
    const done = await settled(payroll.id);
    expect(done).toMatchObject({ status: 'Processed', progress: 100, error: null, processed_at: expect.any(String) });

    const grid = await ok('GET', `/payroll_config/payrolls/${payroll.id}/data`);
    expect(grid.columns).toEqual([
      { id: col.basic, name: 'Basic', editable: false },
      { id: col.allowance, name: 'Allowance', editable: true },
      { id: col.gross, name: 'Gross', editable: false },
      { id: col.tax, name: 'Tax', editable: false },
      { id: col.net, name: 'Net', editable: false },
    ]);
    const row = (g: { rows: Array<{ employee: { id: number }; values: Record<string, string> }> }, employee: number) =>
      Object.values(g.rows.find((r) => r.employee.id === employee)!.values);
    expect(row(grid, c.emp.manager)).toEqual(['5000.00', '999.99', '5999.99', '200.00', '5799.99']);
    expect(row(grid, c.emp.report1)).toEqual(['3000.00', '250.50', '3250.50', '0.00', '3250.50']);
    expect(row(grid, c.emp.report2)).toEqual(['7000.00', '0.01', '7000.01', '400.00', '6600.01']);
    const names = grid.rows.map((r: { employee: { name: string } }) => r.employee.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    const lastPage = await ok('GET', `/payroll_config/payrolls/${payroll.id}/data?limit=2&page=2`);
    expect(lastPage).toMatchObject({ total: 3, page: 2, limit: 2, nextPage: null });
    expect(lastPage.rows).toHaveLength(1);
    // Like every list, the grid says where its next page is (issue 25).
    expect((await ok('GET', `/payroll_config/payrolls/${payroll.id}/data?limit=2`)).nextPage).toBe(2);

    const edited = await ok('POST', `/payroll_config/payrolls/${payroll.id}/data`, {
      values: [{ employee: c.emp.manager, column: col.allowance, amount: '1000.01' }],
    });
    expect(row(edited, c.emp.manager)).toEqual(['5000.00', '1000.01', '6000.01', '200.00', '5800.01']);
    // An edit of two rows writes its cells, edited and recomputed, in one statement (issue 26).
    const proto = Object.getPrototypeOf(t.app.get(DataSource).createQueryRunner()) as {
      query: (...a: unknown[]) => Promise<unknown>;
    };
    const original = proto.query;
    const cellWrites: string[] = [];
    const spy = jest.spyOn(proto, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if (/^\s*UPDATE\s+\W?payroll_cells/i.test(String(args[0]))) cellWrites.push(String(args[0]));
      return original.apply(this, args);
    });
    const both = await ok('POST', `/payroll_config/payrolls/${payroll.id}/data`, {
      values: [
        { employee: c.emp.manager, column: col.allowance, amount: '1000.01' },
        { employee: c.emp.report2, column: col.allowance, amount: '0.01' },
      ],
    });
    spy.mockRestore();
    expect(cellWrites).toHaveLength(1);
    expect(row(both, c.emp.report2)).toEqual(['7000.00', '0.01', '7000.01', '400.00', '6600.01']);
    // The same cell twice in one request: the later value wins, as it always has.
    const twice = await ok('POST', `/payroll_config/payrolls/${payroll.id}/data`, {
      values: [
        { employee: c.emp.report2, column: col.allowance, amount: '5.00' },
        { employee: c.emp.report2, column: col.allowance, amount: '0.01' },
      ],
    });
    expect(row(twice, c.emp.report2)).toEqual(['7000.00', '0.01', '7000.01', '400.00', '6600.01']);
    const notEditable = await call('POST', `/payroll_config/payrolls/${payroll.id}/data`, admin, {
      values: [{ employee: c.emp.manager, column: col.net, amount: '1.00' }],
    });
    expect([notEditable.statusCode, notEditable.json().error.details[0].message]).toEqual([400, 'Net is not editable']);
    const stranger = await call('POST', `/payroll_config/payrolls/${payroll.id}/data`, admin, {
      values: [{ employee: c.emp.outsider, column: col.allowance, amount: '1.00' }],
    });
    expect(stranger.statusCode).toBe(400);

    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    expect(row(await ok('GET', `/payroll_config/payrolls/${payroll.id}/data`), c.emp.manager)).toEqual([
      '5000.00',
      '1000.01',
      '6000.01',
      '200.00',
      '5800.01',
    ]);
    // A column a payroll uses cannot be deleted; it can once the payroll is gone.
    const extra = (await ok('POST', '/payroll_config/payroll-columns', { name: 'Bonus', default_value: '5' })).id;
    await ok('POST', '/payroll_config/payrolls', {
      ...payrollBody(),
      id: payroll.id,
      columns: [...payrollBody().columns, extra],
    });
    const inUse = await call('DELETE', `/payroll_config/payroll-columns/${extra}`, admin);
    expect([inUse.statusCode, inUse.json().error.message]).toEqual([
      409,
      `Payroll column bonus is in use by payroll ${payroll.id}`,
    ]);
    await ok('DELETE', `/payroll_config/payrolls/${payroll.id}`);
    expect((await call('GET', `/payroll_config/payrolls/${payroll.id}`, admin)).statusCode).toBe(404);
    await ok('DELETE', `/payroll_config/payroll-columns/${extra}`);
  });

  it("the grid's row order is reused between requests of one run, never across runs; names are always current", async () => {
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Grid rows' }));
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    const grid = async () => ok('GET', `/payroll_config/payrolls/${payroll.id}/data`);
    const first = await grid();
    expect(first.total).toBe(3);
    // A rename shows at once (the order may lag by LIST_TOTALS_CACHE_MS, 5 s here).
    await ok('PUT', `/employees/${c.emp.report2}`, { first_name: 'Renamed' });
    const renamed = await grid();
    expect(renamed.rows.find((r: { employee: { id: number } }) => r.employee.id === c.emp.report2).employee.name).toMatch(
      /^Renamed /,
    );
    // A new member of the department, processed in a new run, is a row at once.
    const newcomer = (await ok('POST', '/employees', employeeBody({ department: c.departments.engineering }))).id;
    const components = await ok('GET', '/payroll_config/salary-components');
    await ok('PUT', `/employees/${newcomer}/salary`, {
      items: components.map((k: { id: number }) => ({ component: k.id, amount: '100' })),
    });
    await ok('POST', '/payroll_config/payroll-employees', { employee: newcomer, pay_frequency: 4, currency: 'EUR' });
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    const again = await grid();
    expect(again.total).toBe(4);
    const names = again.rows.map((r: { employee: { name: string } }) => r.employee.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(again.rows.map((r: { employee: { id: number } }) => r.employee.id)).toContain(newcomer);
    await ok('DELETE', `/employees/${newcomer}`);
    await ok('DELETE', `/payroll_config/payrolls/${payroll.id}`);
  });

  it('20 concurrent process calls start one run; forbidden transitions answer 409 INVALID_STATE', async () => {
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Concurrent' }));
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', `/payroll_config/payrolls/${payroll.id}/process`, admin)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(refused).toHaveLength(19);
    expect(refused[0].json().error.code).toBe('INVALID_STATE');
    expect((await settled(payroll.id)).status).toBe('Processed');
    // While Processing it can be neither changed nor deleted.
    const repo = t.app.get<Repository<Payroll>>(getRepositoryToken(Payroll));
    await repo.update({ id: payroll.id }, { status: 'Processing' });
    expect((await call('DELETE', `/payroll_config/payrolls/${payroll.id}`, admin)).json().error.message).toBe(
      'A Processing payroll cannot be deleted',
    );
    expect((await call('POST', '/payroll_config/payrolls', admin, { ...payrollBody(), id: payroll.id })).statusCode).toBe(409);
    expect(
      (
        await call('POST', `/payroll_config/payrolls/${payroll.id}/data`, admin, {
          values: [{ employee: c.emp.manager, column: col.allowance, amount: '1' }],
        })
      ).statusCode,
    ).toBe(409);
    // A run left in Processing past the timeout (its worker died) goes to Failed and can run again.
    await repo.update({ id: payroll.id }, { claimedAt: new Date(Date.now() - 3 * 3600_000) });
    expect(await t.app.get(PayrollTransitionsService).failStalled()).toBe(1); // the scheduled recovery's run
    expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}`)).toMatchObject({
      status: 'Failed',
      error: expect.stringContaining('did not finish'),
    });
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    await repo.update({ id: payroll.id }, { status: 'Completed' });
    for (const [method, url] of [
      ['POST', `/payroll_config/payrolls/${payroll.id}/process`],
      ['DELETE', `/payroll_config/payrolls/${payroll.id}`],
    ] as const) {
      const res = await call(method, url, admin);
      expect([res.statusCode, res.json().error.code, res.json().error.message]).toEqual([
        409,
        'INVALID_STATE',
        expect.stringContaining('Completed'),
      ]);
    }
  });

  it('past the timeout a run whose job is live stays; once the job is gone the scheduled recovery fails it; a job of an earlier claim does nothing', async () => {
    const repo = t.app.get<Repository<Payroll>>(getRepositoryToken(Payroll));
    const runs = t.app.get(PayrollTransitionsService);
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Live job' }));
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    const cells = () =>
      t.app.get<Repository<PayrollCell>>(getRepositoryToken(PayrollCell)).count({ where: { payrollId: payroll.id } });
    const before = await cells();
    expect(before).toBe(15);

    // Claim Processing as `process` does, but hold the claim's job id with a job that waits.
    const claim = (await runs.claim(payroll.id, 'process')) as string;
    expect(claim).toMatch(/^[0-9a-f-]{36}$/);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const jobs = t.app.get(JobQueue);
    const HOLD = testJob<object>('payroll', `hold-${claim}`, { attempts: 1, backoffMs: 1 });
    jobs.register(HOLD, () => held);
    await jobs.add(HOLD, {}, { jobId: payrollJobId('Processing', payroll.id, claim) });
    await until(async () => jobs.isLive(HOLD, payrollJobId('Processing', payroll.id, claim)), 5000);
    await repo.update({ id: payroll.id }, { claimedAt: new Date(Date.now() - 3 * 3600_000) });
    // The recovery is a scheduled job, every minute on the `schedule` queue; reads never write (issue 26).
    expect(jobs.scheduled().get('schedule:payroll-recover-stalled')).toBe(60_000);
    expect(await runs.failStalled()).toBe(0); // its job is live
    expect((await ok('GET', `/payroll_config/payrolls/${payroll.id}`)).status).toBe('Processing');

    // A job queued by an earlier claim finds a later claim and leaves the payroll alone.
    await t.app.get(PayrollChunksService).start({ payrollId: payroll.id, claim: '00000000-0000-4000-8000-000000000000' });
    expect(await repo.findOneByOrFail({ id: payroll.id })).toMatchObject({ status: 'Processing', claim });
    expect(await cells()).toBe(before);

    release();
    await until(async () => !(await jobs.isLive(HOLD, payrollJobId('Processing', payroll.id, claim))), 5000);
    expect((await ok('GET', `/payroll_config/payrolls/${payroll.id}`)).status).toBe('Processing'); // a read changes nothing
    expect(await runs.failStalled()).toBe(1);
    expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}`)).toMatchObject({
      status: 'Failed',
      error: expect.stringContaining('its job is gone'),
    });

    // Completing falls back to Processed the same way.
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    const again = await runs.claim(payroll.id, 'generate-payslips');
    expect(again).toMatch(/^[0-9a-f-]{36}$/);
    expect(again).not.toBe(claim);
    await repo.update({ id: payroll.id }, { claimedAt: new Date(Date.now() - 3 * 3600_000) });
    expect(await runs.failStalled()).toBe(1);
    expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}`)).toMatchObject({
      status: 'Processed',
      error: expect.stringContaining('generating payslips did not finish'),
    });
  });

  it('a job id is never reused: after the claim column is restored to an earlier value, processing runs again', async () => {
    const repo = t.app.get<Repository<Payroll>>(getRepositoryToken(Payroll));
    const payroll = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Restored' }));
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    const first = (await repo.findOneByOrFail({ id: payroll.id })).claim;
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    // A backup from between the two runs is restored; the finished jobs are still in the queue.
    await repo.update({ id: payroll.id }, { claim: first, progress: 0 });
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect(await settled(payroll.id)).toMatchObject({ status: 'Processed', progress: 100 });
  });

  it('a run with failing cells ends Failed with the per-cell errors; the Restricted Admin sees its departments only', async () => {
    const ratio = (await ok('POST', '/payroll_config/payroll-columns', { name: 'Ratio', script: 'net / (basic - 3000)' })).id;
    const payroll = await ok(
      'POST',
      '/payroll_config/payrolls',
      payrollBody({ name: 'Failing', columns: [col.basic, col.allowance, col.gross, col.tax, col.net, ratio] }),
    );
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect(await settled(payroll.id)).toMatchObject({ status: 'Failed', error: '1 cells could not be computed: see /errors' });
    expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}/errors`)).toEqual([
      { employee: c.emp.report1, column: ratio, message: 'division by zero' },
    ]);

    const ra = c.users.restricted.token;
    expect((await call('GET', `/payroll_config/payrolls/${payroll.id}`, ra)).statusCode).toBe(200);
    const sales = await ok('POST', '/payroll_config/payrolls', payrollBody({ name: 'Sales', department: c.departments.sales }));
    expect((await call('GET', `/payroll_config/payrolls/${sales.id}`, ra)).statusCode).toBe(404);
    expect((await call('POST', `/payroll_config/payrolls/${sales.id}/process`, ra)).statusCode).toBe(404);
    expect((await ok('GET', '/payroll_config/payrolls', undefined, ra)).map((p: { id: number }) => p.id)).not.toContain(sales.id);
    const outside = await call('POST', '/payroll_config/payrolls', ra, payrollBody({ department: c.departments.sales }));
    expect([outside.statusCode, outside.json().error.details[0].field]).toEqual([400, 'department']);
    expect((await call('GET', '/payroll_config/payrolls', c.users.manager.token)).statusCode).toBe(403);
  });

  it('a template names only the payslip data, refused at save and preview with its position; a preview renders ad-hoc data', async () => {
    const save = (content: string) =>
      call('POST', '/payroll_config/payslip-templates', admin, { name: `Names ${content}`, content });
    const preview = (body: object) => call('POST', '/payroll_config/payslip-templates/preview', admin, body);
    const refused: Array<[string, RegExp]> = [
      [
        '<p>\n  {{employee.frist_name}}</p>',
        /^employee\.frist_name is not in the payslip data: employee has id, employee_id, name, first_name, .* \(line 2, column 3\)$/,
      ],
      ['{{employee}}', /^employee is an object \(id, employee_id, .*\) and prints nothing/],
      [
        '{{#each columns}}{{first_name}}{{/each}}',
        /^first_name is not in the payslip data: this has name, value \(line 1, column 18\)$/,
      ],
      ['{{@index}}', /^@index is defined only inside \{\{#each\}\}/],
      ['{{../company.name}}', /goes out further/],
      ['{{#each employee.name}}x{{/each}}', /needs a list or an object/],
      ['{{constructor}}', /^constructor is not in the payslip data/],
    ];
    for (const [content, message] of refused) {
      for (const res of [await save(content), await preview({ content })]) {
        expect([content, res.statusCode, res.json().error.details]).toEqual([
          content,
          400,
          [{ field: 'content', message: expect.stringMatching(message) }],
        ]);
      }
    }
    expect(
      (await ok('GET', '/payroll_config/payslip-templates?limit=500')).filter((t: { name: string }) =>
        t.name.startsWith('Names'),
      ),
    ).toEqual([]);

    // Everything the data holds, the way a front end would write it.
    const all =
      '{{#each columns}}{{@index}}{{#if @first}}f{{/if}}{{name}}={{value}};{{../employee.first_name}}{{@root.company.name}}{{/each}}' +
      '{{columns.length}}{{columns.0.name}}{{#each employee}}{{@key}}{{/each}}';
    expect((await preview({ content: all })).statusCode).toBe(200);

    // Ad-hoc data laid over the preview's own: a field replaced, the rest kept; columns replaced.
    const adHoc = await ok('POST', '/payroll_config/payslip-templates/preview', {
      content: '{{employee.first_name}} {{employee.department}}|{{#each columns}}{{name}}={{value}};{{/each}}|{{payroll.name}}',
      data: { employee: { first_name: 'Ada <3' }, columns: [{ name: 'Net', value: '1.00' }] },
    });
    expect(adHoc.html).toMatch(/^Ada &lt;3 [^|]+\|Net=1\.00;\|.+$/);
    const bad = await preview({ content: '{{employee.name}}', data: { employee: { nick: 'x', name: { a: 1 } }, columns: {} } });
    expect([bad.statusCode, bad.json().error.details]).toEqual([
      400,
      [
        { field: 'data.employee.nick', message: expect.stringMatching(/^is not in the payslip data \(id, employee_id, name,/) },
        { field: 'data.employee.name', message: 'must be a string, a number, a boolean or null' },
        { field: 'data.columns', message: 'must be a list' },
      ],
    ]);
    expect((await preview({ content: 'x', data: [1] })).statusCode).toBe(400);
  });

  it('templates, payslips and the rest of the lifecycle: generate → Completed, read, delete → Processed', async () => {
    const broken = await call('POST', '/payroll_config/payslip-templates', admin, {
      name: 'Broken',
      content: '<p>{{#each columns}}{{/if}}</p>',
    });
    expect([broken.statusCode, broken.json().error.details[0].field]).toEqual([400, 'content']);
    expect(broken.json().error.details[0].message).toMatch(/\(line 1, column \d+\)$/);
    const helper = await call('POST', '/payroll_config/payslip-templates', admin, {
      name: 'Lookup',
      content: '{{lookup employee "constructor"}}',
    });
    expect(helper.statusCode).toBe(400);
    const content =
      '<h1>{{company.name}}</h1><p>{{employee.name}} ({{employee.employee_id}}), {{payroll.name}}</p><ul>{{#each columns}}<li>{{name}}: {{value}}</li>{{/each}}</ul>' +
      '<address>{{employee.first_name}} {{employee.last_name}}|{{employee.job_title}}|{{employee.department}}|{{employee.pay_grade}}|' +
      '{{employee.joined_date}}|{{employee.work_email}}|{{employee.currency}}|{{employee.pay_frequency}}</address>';
    const template = await ok('POST', '/payroll_config/payslip-templates', { name: 'Standard', content });
    expect(template).toMatchObject({ status: 'Active', content });
    // The body is the template definition the form edits: name and status are accepted (issue 25).
    const draftPreview = await ok('POST', '/payroll_config/payslip-templates/preview', {
      name: 'Draft',
      status: 'Active',
      content: '<b>{{employee.name}}</b>',
    });
    expect(draftPreview.html).toMatch(/^<b>.+<\/b>$/);

    const payroll = await ok(
      'POST',
      '/payroll_config/payrolls',
      payrollBody({ name: 'Payslips <March>', payslip_template: template.id }),
    );
    const refuse = async (action: string, state: string) => {
      const res = await call('POST', `/payroll_config/payrolls/${payroll.id}/${action}`, admin);
      expect([res.statusCode, res.json().error.code, res.json().error.message]).toEqual([
        409,
        'INVALID_STATE',
        expect.stringContaining(state),
      ]);
    };
    await refuse('generate-payslips', 'Draft');
    await ok('POST', `/payroll_config/payrolls/${payroll.id}/process`);
    expect((await settled(payroll.id)).status).toBe('Processed');
    await refuse('delete-payslips', 'Processed');
    expect((await ok('GET', `/payroll_config/payslip-templates/${template.id}/preview`)).html).toContain('Net: ');

    expect((await ok('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`)).status).toBe('Completing');
    const completed = await settled(payroll.id, 60_000);
    expect(completed).toMatchObject({ status: 'Completed', completed_at: expect.any(String) });
    await refuse('process', 'Completed');
    expect((await call('DELETE', `/payroll_config/payrolls/${payroll.id}`, admin)).statusCode).toBe(409);
    expect((await call('DELETE', `/payroll_config/payslip-templates/${template.id}`, admin)).statusCode).toBe(409);

    const slips = await ok('GET', `/payroll_config/payrolls/${payroll.id}/payslips`);
    expect(slips.map((p: { employee: number }) => p.employee).sort()).toEqual(
      [c.emp.manager, c.emp.report1, c.emp.report2].sort(),
    );
    const mine = slips.find((p: { employee: number }) => p.employee === c.emp.report1);
    expect(mine.html).toContain('<li>Net: 3250.50</li>');
    // The template reads the employee's fields, references by name (issue 25 item 11).
    const person = await ok('GET', `/employees/${c.emp.report1}`);
    const frequencies = await ok('GET', '/payroll_config/pay-frequencies?limit=500');
    const names = async (path: string, id: number) =>
      (await ok('GET', `/${path}?limit=500`)).find((x: { id: number }) => x.id === id).name as string;
    const address = [
      `${person.first_name} ${person.last_name}`,
      await names('job-titles', person.job_title),
      await names('departments', person.department),
      '', // no pay grade
      person.joined_date,
      person.work_email,
      'EUR',
      frequencies.find((f: { id: number }) => f.id === 4).name,
    ].join('|');
    expect(mine.html).toContain(`<address>${address}</address>`);
    expect(mine.html).toContain('Payslips &lt;March&gt;'); // values are escaped
    expect(mine.html).not.toContain('function');
    // The employee reads its own payslips; a colleague gets 404; an Admin reads anybody's.
    const me = c.users.employee.token;
    expect((await ok('GET', `/employees/${c.emp.report1}/payslips`, undefined, me)).map((p: { id: number }) => p.id)).toContain(
      mine.id,
    );
    expect((await ok('GET', `/employees/${c.emp.report1}/payslips/${mine.id}`, undefined, me)).html).toBe(mine.html);
    expect((await call('GET', `/employees/${c.emp.manager}/payslips`, me)).statusCode).toBe(404);
    expect((await call('GET', `/employees/${c.emp.report1}/payslips`, c.users.manager.token)).statusCode).toBe(404);
    expect((await call('GET', `/employees/${c.emp.report2}/payslips/${mine.id}`, admin)).statusCode).toBe(404);

    expect((await ok('POST', `/payroll_config/payrolls/${payroll.id}/delete-payslips`)).status).toBe('Processed');
    expect(await ok('GET', `/payroll_config/payrolls/${payroll.id}/payslips`)).toEqual([]);
    await refuse('delete-payslips', 'Processed');
  }, 120_000);
});
