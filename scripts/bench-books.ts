/**
 * The payroll's books at volume, run by hand: `npm run bench:books [employees]` (SQLite file in a
 * temp dir, or DATABASE_URL=mysql://... : that database is emptied first!). Loads N employees
 * (default 12 500) with the 30 benchmark columns, processes the payroll, marks it Completed, gives
 * every employee a bank account and every column accounts; then times POST .../bank-files in both
 * versions (schema validation included) and GET .../journal, each three times, with the RSS growth
 * of the process over the request (the register's CSV is read as a stream and counted, not kept),
 * three rounds each up to 100 000 employees, two past; the process runs with npm start's heap flags.
 * BENCH_REUSE=1 with DATABASE_URL reuses the Completed payroll an earlier run left there. Targets (issue 46): a bank file for 12 500
 * employees ≤ 2 s with RSS growth ≤ 50 MiB; the journal of a 12 500 × 30 run ≤ 2 s; (issue 70) at
 * 1 000 000 employees on MariaDB, each of bank file, journal and register with RSS growth ≤ 64 MiB.
 * Last, a leaver the payroll paid is anonymised (issue 69): its stored bank files are rewritten,
 * streamed (the MiB printed are theirs).
 */
import 'reflect-metadata';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { DataSource } from 'typeorm';
import { testIban } from '../src/common/banking/iban';
import { ReferenceService } from '../src/reference/reference.service';
import { adminCaller, bulkInsert, sqlTime, withBenchApp } from './bench-tools';
import { benchColumns, loadPayrollDataset } from './bench-payroll-columns';

const COUNT = Number(process.argv.slice(2).find((a) => /^\d+$/.test(a)) ?? 12_500);
const ROUNDS = COUNT > 100_000 ? 2 : 3;

async function main(): Promise<void> {
  await withBenchApp('books', {}, async (app, config) => {
    const ds = app.get(DataSource);
    const call = await adminCaller(app);
    const columns = benchColumns();
    // BENCH_REUSE=1 on MariaDB: the Completed payroll an earlier run loaded, as it left it.
    const reused = process.env.BENCH_REUSE
      ? (
          await ds.query<Array<{ id: number }>>("SELECT id FROM payrolls WHERE name = 'Bench January' AND status = 'Completed'")
        )[0]
      : undefined;
    const payroll = reused ? { id: Number(reused.id) } : await load();
    const [{ n: employees }] = await ds.query<Array<{ n: number }>>(
      'SELECT COUNT(DISTINCT employee_id) AS n FROM payroll_cells WHERE payroll_id = ?',
      [payroll.id],
    );
    async function load(): Promise<{ id: number }> {
      const department = await app.get(ReferenceService).addDepartment('Bench', null);
      await loadPayrollDataset(app, department, COUNT, 'B', 0);
      const net = columns.find((c) => c.variable === 'payout') ?? columns[columns.length - 1];
      const payroll = (
        await call('POST', '/payroll_config/payrolls', {
          name: 'Bench January',
          pay_period: 4,
          department,
          date_start: '2026-01-01',
          date_end: '2026-01-31',
          columns: columns.map((c) => c.id),
          net_column: net.id,
        })
      ).json<{ data: { id: number } }>().data;
      await call('POST', `/payroll_config/payrolls/${payroll.id}/process`);
      let status = 'Processing';
      while (status === 'Processing') {
        await new Promise((r) => setTimeout(r, 50));
        status = (await call('GET', `/payroll_config/payrolls/${payroll.id}`)).json<{ data: { status: string } }>().data.status;
      }
      if (status !== 'Processed') throw new Error(`payroll ${status}`);
      // Completed without rendering 12 500 payslips (what the books read is the cells).
      await ds.query(`UPDATE payrolls SET status = 'Completed', completed_at = ? WHERE id = ?`, [
        sqlTime(Date.now()),
        payroll.id,
      ]);
      const employees = (
        await ds.query<Array<{ id: number }>>('SELECT DISTINCT employee_id AS id FROM payroll_cells WHERE payroll_id = ?', [
          payroll.id,
        ])
      ).map((r) => Number(r.id));
      await bulkInsert(
        ds,
        'employee_bank_accounts',
        ['employee_id', 'iban', 'bic', 'holder_name', 'is_primary'],
        employees.length,
        (i) => [
          employees[i],
          testIban(100_000 + employees[i]),
          i % 2 ? 'COBADEFFXXX' : null,
          `Bénédicte Müller-Łukasz ${i}`,
          true,
        ],
      );
      await bulkInsert(
        ds,
        'payroll_accounts',
        ['column_id', 'debit_account', 'credit_account', 'cost_centre'],
        columns.length,
        (i) => [columns[i].id, `6${String(i).padStart(3, '0')}`, '4200', i % 2 ? 'department' : 'none'],
      );
      await call('PUT', '/settings', { name: 'Company IBAN', value: testIban(9_000_000_001) });
      return payroll;
    }
    console.log(`${config.database.type}: ${employees} employees × ${columns.length} columns, Completed`);
    // A bank file is made by a POST (once per revision and parameters): each round a new execution date.
    // Past the files an earlier run made (BENCH_REUSE): the same parameters would answer those.
    const [{ n: made }] = await ds.query<Array<{ n: number }>>(
      'SELECT COUNT(*) AS n FROM payroll_bank_files WHERE payroll_id = ?',
      [payroll.id],
    );
    const day = (round: number) => {
      const d = new Date(Date.now() + (7 * (round + Number(made)) + 7) * 86_400_000);
      while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
      return d.toISOString().slice(0, 10);
    };
    /** `request` ROUNDS times (or once), each with its seconds, bytes, RSS growth, heap retained and longest event-loop delay. */
    const measure = async (label: string, request: (round: number) => Promise<number>, rounds = ROUNDS) => {
      for (let round = 1; round <= rounds; round++) {
        global.gc?.();
        const { rss: rss0, heapUsed: heap0 } = process.memoryUsage();
        let peak = rss0;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
        const loop = monitorEventLoopDelay({ resolution: 5 });
        loop.enable();
        const start = process.hrtime.bigint();
        const bytes = await request(round);
        const seconds = Number(process.hrtime.bigint() - start) / 1e9;
        loop.disable();
        clearInterval(sampler);
        peak = Math.max(peak, process.memoryUsage().rss);
        // What the request left behind once garbage is collected (a leak, or a cache growing with the payroll).
        global.gc?.();
        const retained = (process.memoryUsage().heapUsed - heap0) / 1048576;
        console.log(
          `${label} (round ${round}): ${seconds.toFixed(2)} s, ${(bytes / 1048576).toFixed(1)} MiB, ` +
            `RSS growth ${((peak - rss0) / 1048576).toFixed(1)} MiB, heap retained ${retained.toFixed(1)} MiB, ` +
            `longest event-loop delay ${(loop.max / 1e6).toFixed(0)} ms`,
        );
      }
    };
    // A sheet is counted as it comes; a bank file is in the store (its size is counted from its download, after the timing).
    const time = (label: string, url: string, bankFormat?: string) =>
      measure(label, async (round) => {
        const res = bankFormat
          ? await call('POST', url, { format: bankFormat, execution_date: day(round) })
          : await call('GET', url, undefined, { payloadAsStream: true });
        let bytes = 0;
        if (!bankFormat) for await (const chunk of res.stream()) bytes += (chunk as Buffer).length;
        if (res.statusCode !== 200 && res.statusCode !== 201)
          throw new Error(`${label}: ${res.statusCode} ${bankFormat ? res.body.slice(0, 300) : ''}`);
        if (bankFormat) {
          const file = await call('GET', `${url}/${res.json<{ data: { id: number } }>().data.id}/file`, undefined, {
            payloadAsStream: true,
          });
          for await (const chunk of file.stream()) bytes += (chunk as Buffer).length;
        }
        return bytes;
      });
    await time('bank file pain.001.001.03', `/payroll_config/payrolls/${payroll.id}/bank-files`, 'pain.001.001.03');
    await time('bank file pain.001.001.09', `/payroll_config/payrolls/${payroll.id}/bank-files`, 'pain.001.001.09');
    await time('journal (JSON)', `/payroll_config/payrolls/${payroll.id}/journal`);
    await time('register (CSV)', `/payroll_config/payrolls/${payroll.id}/register`);
    // Anonymising a leaver the payroll paid rewrites every stored bank file of it (issue 69): their bytes are what it reads.
    const files = (await call('GET', `/payroll_config/payrolls/${payroll.id}/bank-files`)).json<{ data: Array<{ id: number }> }>()
      .data.length;
    const [leaver] = await ds.query<Array<{ id: number }>>(
      'SELECT employee_id AS id FROM payroll_cells WHERE payroll_id = ? ORDER BY employee_id DESC LIMIT 1',
      [payroll.id],
    );
    await ds.query("UPDATE employees SET status = 'Terminated', termination_date = '2026-01-31' WHERE id = ?", [leaver.id]);
    await measure(
      `anonymising a leaver paid in ${files} bank files`,
      async () => {
        const res = await call('POST', `/employees/${leaver.id}/anonymise`);
        if (res.statusCode !== 200) throw new Error(`anonymise: ${res.statusCode} ${res.body.slice(0, 300)}`);
        const [{ n }] = await ds.query<Array<{ n: number }>>(
          'SELECT SUM(size) AS n FROM payroll_bank_files WHERE payroll_id = ?',
          [payroll.id],
        );
        return Number(n);
      },
      1,
    );
  });
}

void main();
