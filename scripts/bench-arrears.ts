/**
 * Arrears over past runs, run by hand: `npm run bench:arrears [employees]` (SQLite file in a temp
 * dir, or DATABASE_URL=mysql://... : that database is emptied first!). Loads N employees (default
 * 10 000) with the 30 benchmark columns, processes twelve monthly payrolls of 2025 and marks them
 * Completed (directly: rendering 120 000 payslips is not what is measured), records a raise
 * back-dated to 1 January 2025 for a fifth of the employees, then processes January 2026 twice:
 * as it is, and with an `arrears` column over Basic. Prints both times and the ratio (issue 44's
 * target: ≤ 2×) and the arrears paid.
 */
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, withBenchApp } from './bench-tools';
import { benchColumns, loadPayrollDataset, raiseFrom } from './bench-payroll-columns';

const COUNT = Number(process.argv[2] ?? 10_000);

async function main(): Promise<void> {
  await withBenchApp('arrears', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const department = await app.get(ReferenceService).addDepartment('Bench', null);
    const ids = await loadPayrollDataset(app, department, COUNT);
    const call = await adminCaller(app);
    const data = <T>(res: { statusCode: number; body: string; json: () => { data: T } }): T => {
      if (res.statusCode !== 200) throw new Error(res.body);
      return res.json().data;
    };
    const columns = benchColumns().map((c) => c.id);
    const run = async (month: string, cols: number[]) => {
      const [y, m] = month.split('-').map(Number);
      const payroll = data<{ id: number }>(
        await call('POST', '/payroll_config/payrolls', {
          name: `Bench ${month}`,
          pay_period: 4,
          department,
          date_start: `${month}-01`,
          date_end: new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10),
          columns: cols,
        }),
      );
      const start = process.hrtime.bigint();
      data(await call('POST', `/payroll_config/payrolls/${payroll.id}/process`));
      let status = 'Processing';
      while (status === 'Processing') {
        await new Promise((r) => setTimeout(r, 20));
        status = data<{ status: string }>(await call('GET', `/payroll_config/payrolls/${payroll.id}`)).status;
      }
      return { id: payroll.id, status, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
    };
    for (let m = 1; m <= 12; m++) {
      const past = await run(`2025-${String(m).padStart(2, '0')}`, columns);
      await ds.query("UPDATE payrolls SET status = 'Completed' WHERE id = ?", [past.id]);
    }
    await raiseFrom(
      ds,
      ids.filter((_, i) => i % 5 === 0),
      '2025-01-01',
    );
    const arrears = data<{ id: number }>(
      await call('POST', '/payroll_config/payroll-columns', {
        name: 'Arrears',
        variable: 'arrears',
        calculation_hook: 'arrears',
        calculation_hook_args: { column: 1 },
      }),
    ).id;
    const plain = await run('2026-01', columns);
    const withArrears = await run('2026-01', [...columns, arrears]);
    const [{ total }] = await ds.query<Array<{ total: string | number }>>(
      'SELECT SUM(value) AS total FROM payroll_cells WHERE payroll_id = ? AND column_id = ?',
      [withArrears.id, arrears],
    );
    console.log(`${config.database.type}: ${COUNT} employees, 12 Completed runs of 2025, a fifth raised from 1 January 2025`);
    console.log(`January 2026 plain: ${plain.status} in ${plain.seconds.toFixed(2)} s`);
    console.log(
      `January 2026 with arrears: ${withArrears.status} in ${withArrears.seconds.toFixed(2)} s ` +
        `(${(withArrears.seconds / plain.seconds).toFixed(2)}×, target ≤ 2×); arrears paid ${Number(total).toFixed(2)}`,
    );
  });
}

void main();
