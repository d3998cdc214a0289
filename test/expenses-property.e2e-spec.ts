import { buildCompany, Company, employeeBody } from './helpers/company';
import { rng } from './helpers/random';
import { apiCaller, createTestApp, okCaller, TestApp, until } from './helpers/test-app';

/**
 * Expense claims are paid exactly once whatever payrolls do (issue 68's property): random
 * sequences of approved claims, cancellations, payments outside payroll, and three payrolls of the
 * same employees (two of one month, one of the next) processed, completed and their payslips
 * deleted in any order. After every step: a Paid claim's payroll is Completed and read it; no claim
 * is read by two Completed payrolls, nor by one while unpaid; each Completed payroll's expense
 * cells add up to the claims it paid; a completion succeeds exactly when every claim its run read
 * is still Approved and unpaid. At the end a last payroll pays every claim left: none is lost.
 * EXPENSE_SEQUENCES sets the number (4 in npm test; .ci/run runs more).
 */
const SEQUENCES = Number(process.env.EXPENSE_SEQUENCES ?? 4);
const STEPS = 18;
const NO_BROWSER = '/nonexistent/chromium';

type Claim = {
  id: number;
  employee: number;
  status: string;
  total: string;
  paid_in: number | null;
  paid_reference: string | null;
};
type Payroll = { id: number; status: string; error: string | null };

describe('expense claims are paid exactly once (property)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  const col: Record<string, number> = {};
  let template: number;
  let category: number;

  beforeAll(async () => {
    // Payslips without their PDFs: a completion takes the same steps with no browser (the PDFs are
    // skipped, test/payslip-pdfs.e2e-spec.ts covers them), and the claims are what is under test here.
    // With the system's Chromium each sequence rendered about ten PDFs: most of its time.
    t = await createTestApp({ CHROMIUM_PATH: NO_BROWSER });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    category = (await ok('POST', '/expense-categories', admin, { name: 'Travel', account: '6400' })).id;
    const basic = (await ok('POST', '/payroll_config/salary-components', admin, { name: 'Basic', component_type: 'Earning' })).id;
    col.basic = (
      await ok('POST', '/payroll_config/payroll-columns', admin, { name: 'Basic', variable: 'basic', salary_components: [basic] })
    ).id;
    col.expenses = (
      await ok('POST', '/payroll_config/payroll-columns', admin, {
        name: 'Expenses',
        variable: 'expenses',
        calculation_hook: 'expenses',
      })
    ).id;
    col.net = (
      await ok('POST', '/payroll_config/payroll-columns', admin, {
        name: 'Net',
        variable: 'net',
        add_columns: [col.basic, col.expenses],
      })
    ).id;
    col.component = basic;
    template = (await ok('POST', '/payroll_config/payslip-templates', admin, { name: 'Plain', content: '{{employee.name}}' })).id;
  });
  afterAll(() => t.close());

  const cents = (s: string | null | undefined) => Math.round(Number(s ?? 0) * 100);

  for (let n = 0; n < SEQUENCES; n++) {
    const seed = 6800 + n;
    it(`sequence ${seed}`, async () => {
      const r = rng(seed);
      const department = (await ok('POST', '/departments', admin, { name: `Expenses ${seed}`, parent: c.departments.company }))
        .id as number;
      const employees: number[] = [];
      for (let i = 0; i < 2; i++) {
        const id = (await ok('POST', '/employees', admin, employeeBody({ department, supervisor: c.emp.manager }))).id as number;
        await ok('PUT', `/employees/${id}/salary`, admin, { items: [{ component: col.component, amount: '1000.00' }] });
        await ok('POST', '/payroll_config/payroll-employees', admin, { employee: id, pay_frequency: 4, currency: 'EUR' });
        employees.push(id);
      }
      const payrolls: number[] = [];
      for (const [name, start, end] of [
        ['December', '2026-12-01', '2026-12-31'],
        ['December, second run', '2026-12-01', '2026-12-31'],
        ['January', '2027-01-01', '2027-01-31'],
      ]) {
        const body = { name: `${name} ${seed}`, pay_period: 4, department, date_start: start, date_end: end };
        payrolls.push(
          (
            await ok('POST', '/payroll_config/payrolls', admin, {
              ...body,
              columns: [col.basic, col.expenses, col.net],
              payslip_template: template,
              net_column: col.net,
            })
          ).id,
        );
      }
      const log: string[] = [];
      const where = () => `seed ${seed}, after: ${log.join(' → ')}`;

      const payroll = async (id: number) => (await ok('GET', `/payroll_config/payrolls/${id}`, admin)) as Payroll;
      const claims = async () =>
        (
          (await ok(
            'GET',
            `/expense-claims?filters[employee]=${employees.join('&filters[employee]=')}&limit=500`,
            admin,
          )) as Claim[]
        ).filter((x) => x.status !== 'Draft');
      /** The claims each employee's expense cell of the payroll read, and the cell. */
      const read = async (id: number) => {
        const out = new Map<number, { records: number[]; cell: number }>();
        for (const e of employees) {
          const res = await call('GET', `/payroll_config/payrolls/${id}/cells/${e}/${col.expenses}/explain`, admin);
          if (res.statusCode !== 200) continue;
          const data = res.json().data as { value: string | null; inputs: Array<{ source?: string; records?: number[] }> };
          const records = data.inputs.find((i) => i.source === 'expense_claims')?.records ?? [];
          out.set(e, { records, cell: cents(data.value) });
        }
        return out;
      };
      const process = async (id: number) => {
        await ok('POST', `/payroll_config/payrolls/${id}/process`, admin);
        await until(async () => (await payroll(id)).status !== 'Processing', 10_000);
        expect([(await payroll(id)).status, where()]).toEqual(['Processed', where()]);
      };
      const complete = async (id: number) => {
        const before = new Map((await claims()).map((x) => [x.id, x]));
        const records = [...(await read(id)).values()].flatMap((x) => x.records);
        const payable = records.every((x) => before.get(x)?.status === 'Approved' && before.get(x)?.paid_in === null);
        await ok('POST', `/payroll_config/payrolls/${id}/generate-payslips`, admin);
        await until(async () => (await payroll(id)).status !== 'Completing', 20_000);
        const after = await payroll(id);
        expect([after.status, where()]).toEqual([payable ? 'Completed' : 'Processed', where()]);
        if (!payable) expect(after.error).toContain('process it again');
      };
      const check = async () => {
        const all = await claims();
        const completed: number[] = [];
        for (const id of payrolls) if ((await payroll(id)).status === 'Completed') completed.push(id);
        const readBy = new Map<number, number[]>();
        for (const id of completed) {
          const cells = await read(id);
          let sum = 0;
          for (const { records, cell } of cells.values()) {
            for (const x of records) readBy.set(x, [...(readBy.get(x) ?? []), id]);
            sum += cell;
          }
          const paid = all.filter((x) => x.paid_in === id).reduce((s, x) => s + cents(x.total), 0);
          expect({ payroll: id, cells: sum, where: where() }).toEqual({ payroll: id, cells: paid, where: where() });
        }
        for (const x of all) {
          const by = readBy.get(x.id) ?? [];
          const expected = x.status === 'Paid' && x.paid_in !== null ? [x.paid_in] : [];
          expect({ claim: x.id, status: x.status, readBy: by, where: where() }).toEqual({
            claim: x.id,
            status: x.status,
            readBy: expected,
            where: where(),
          });
          if (x.paid_in !== null) expect(completed).toContain(x.paid_in);
        }
      };

      for (let step = 0; step < STEPS; step++) {
        const all = await claims();
        const approved = all.filter((x) => x.status === 'Approved');
        const p = r.pick(payrolls);
        const state = (await payroll(p)).status;
        const choice = r.next();
        if (choice < 0.3) {
          const employee = r.pick(employees);
          const amount = `${r.int(1, 500)}.${String(r.int(0, 99)).padStart(2, '0')}`;
          const made = (await ok('POST', '/expense-claims', admin, {
            employee,
            title: `Claim ${step}`,
            items: [{ category, date: '2026-11-20', description: 'Taxi', amount }],
          })) as Claim;
          await ok('POST', `/expense-claims/${made.id}/submit`, admin);
          await ok('POST', `/expense-claims/${made.id}/approve`, c.users.manager.token);
          log.push(`claim ${made.id} ${amount}`);
        } else if (choice < 0.37 && approved.length) {
          const x = r.pick(approved);
          await ok('POST', `/expense-claims/${x.id}/cancel`, admin);
          log.push(`cancel ${x.id}`);
        } else if (choice < 0.42 && approved.length) {
          const x = r.pick(approved);
          await ok('POST', `/expense-claims/${x.id}/pay`, admin, { reference: `TRF-${x.id}` });
          log.push(`pay ${x.id} outside`);
        } else if (choice < 0.65 && state !== 'Completed') {
          await process(p);
          log.push(`process ${p}`);
        } else if (choice < 0.9 && state === 'Processed') {
          log.push(`complete ${p}`);
          await complete(p);
        } else if (state === 'Completed') {
          await ok('POST', `/payroll_config/payrolls/${p}/delete-payslips`, admin);
          log.push(`delete payslips ${p}`);
        } else continue;
        await check();
      }

      // None is lost: the payrolls not Completed are processed and completed again (nothing else
      // runs meanwhile: each completes); every claim not cancelled nor paid outside is then paid once.
      for (const id of payrolls)
        if ((await payroll(id)).status !== 'Completed') {
          await process(id);
          log.push(`process ${id}`, `complete ${id}`);
          await complete(id);
        }
      // And the next month's payroll pays what the completed ones had not read.
      const next = (
        await ok('POST', '/payroll_config/payrolls', admin, {
          name: `February ${seed}`,
          pay_period: 4,
          department,
          date_start: '2027-02-01',
          date_end: '2027-02-28',
          columns: [col.basic, col.expenses, col.net],
          payslip_template: template,
          net_column: col.net,
        })
      ).id as number;
      payrolls.push(next);
      await process(next);
      log.push(`process ${next}`, `complete ${next}`);
      await complete(next);
      await check();
      for (const x of await claims()) {
        const settled = x.status === 'Cancelled' || (x.status === 'Paid' && (x.paid_in !== null || x.paid_reference !== null));
        expect({ claim: x.id, status: x.status, settled, where: where() }).toEqual({
          claim: x.id,
          status: x.status,
          settled: true,
          where: where(),
        });
      }
    });
  }
});
