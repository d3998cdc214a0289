/**
 * Payslip PDFs and e-mails at volume, run by hand: `npm run bench:payslips [employees]` (SQLite file
 * in a temp dir, the in-process job runner: this process is the worker), or with
 * DATABASE_URL=mysql://... (that database is emptied first!). Needs Chromium (and poppler for the
 * check of one PDF): `apt-get install -y chromium poppler-utils`.
 * Loads N employees (default 1 000) with salaries, the 30 benchmark columns and a payslip template;
 * processes the payroll, then times generate-payslips (the HTML and each payslip's PDF, rendered by
 * Chromium PDF_PAGES at a time and stored as the employee's document) and send-payslips (one e-mail
 * per payslip with its PDF, to an SMTP sink on loopback started here) until every payslip is sent.
 * Prints seconds, per-second rates and the peak RSS of this process with the browser's processes.
 * Targets (issue 29): 1 000 PDFs in ≤ 60 s with RSS ≤ 1 GiB; 1 000 e-mails in ≤ 60 s.
 */
import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { ReferenceService } from '../src/reference/reference.service';
import { UsersService } from '../src/users/users.service';
import { benchColumns, loadPayrollDataset } from './bench-payroll-columns';
import { BENCH_PASSWORD, pssMiB, rssMiB, smtpSink, withBenchApp } from './bench-tools';
import { PAYSLIP_BENCH_TEMPLATE as TEMPLATE } from './bench-payslips-template';

const COUNT = Number(process.argv[2] ?? 1000);

async function main(): Promise<void> {
  const sink = await smtpSink();
  try {
    await withBenchApp('payslips', { SMTP_URL: sink.url, MAIL_RETRY_BACKOFF_MS: '1000' }, async (app, config) => {
      let peak = 0;
      let peakPss = 0;
      let peakOwn = 0;
      const sample = () => {
        peak = Math.max(peak, rssMiB(process.pid));
        peakPss = Math.max(peakPss, pssMiB(process.pid));
        peakOwn = Math.max(peakOwn, process.memoryUsage().rss / 1048576);
      };
      const sampler = setInterval(sample, 100);
      try {
        const department = await app.get(ReferenceService).addDepartment('Bench', null);
        const t0 = Date.now();
        await loadPayrollDataset(app, department, COUNT);
        // Every one of them paid (the dataset makes every seventh Terminated, whom a payroll leaves out).
        await app.get(DataSource).query(`UPDATE employees SET status = 'Active'`);
        console.log(`${config.database.type}: loaded ${COUNT} employees with salaries in ${Date.now() - t0} ms`);
        const admin = await app
          .get(UsersService)
          .create({ username: 'bench-admin', email: 'bench@x.test', password: BENCH_PASSWORD, level: 'Admin' });
        const token = (await app.get(TokenService).issue(admin)).access_token;
        const call = async <T>(method: 'GET' | 'POST', url: string, payload?: object): Promise<T> => {
          const res = await app.inject({ method, url: `/app/api${url}`, headers: { authorization: `Bearer ${token}` }, payload });
          if (res.statusCode !== 200) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
          return res.json<{ data: T }>().data;
        };
        const template = await call<{ id: number }>('POST', '/payroll_config/payslip-templates', {
          name: 'Bench',
          content: TEMPLATE,
        });
        const payroll = await call<{ id: number }>('POST', '/payroll_config/payrolls', {
          name: 'Bench January',
          pay_period: 4,
          department,
          date_start: '2026-01-01',
          date_end: '2026-01-31',
          columns: benchColumns().map((c) => c.id),
          payslip_template: template.id,
        });
        const until = async (done: () => Promise<boolean>) => {
          while (!(await done())) await new Promise((r) => setTimeout(r, 100));
        };
        const status = async () =>
          await call<{ status: string; error: string | null }>('GET', `/payroll_config/payrolls/${payroll.id}`);
        await call('POST', `/payroll_config/payrolls/${payroll.id}/process`);
        await until(async () => (await status()).status !== 'Processing');

        sample();
        const before = peak;
        let start = process.hrtime.bigint();
        await call('POST', `/payroll_config/payrolls/${payroll.id}/generate-payslips`);
        await until(async () => (await status()).status !== 'Completing');
        let seconds = Number(process.hrtime.bigint() - start) / 1e9;
        const after = await status();
        if (after.status !== 'Completed') throw new Error(`generate-payslips ended ${after.status}: ${after.error}`);
        const [first] = await call<Array<{ id: number; employee: number; document: number | null }>>(
          'GET',
          `/payroll_config/payrolls/${payroll.id}/payslips?limit=1`,
        );
        if (first.document === null) throw new Error('no PDF was made: is Chromium installed (CHROMIUM_PATH)?');
        const made = (
          await app.inject({
            method: 'GET',
            url: `/app/api/payroll_config/payrolls/${payroll.id}/payslips?limit=1`,
            headers: { authorization: `Bearer ${token}` },
          })
        ).json<{ total: number }>().total;
        if (made !== COUNT) throw new Error(`${made} payslips were made, not ${COUNT}`);
        const pdf = await app.inject({
          method: 'GET',
          url: `/app/api/employees/${first.employee}/payslips/${first.id}/pdf`,
          headers: { authorization: `Bearer ${token}` },
        });
        const pages = /^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', ['-'], { input: pdf.rawPayload }).toString())?.[1];
        console.log(
          `generate-payslips: ${COUNT} payslips with their PDFs in ${seconds.toFixed(1)} s (${(COUNT / seconds).toFixed(1)} PDFs/s, ` +
            `PDF_PAGES=${config.pdf.pages}); one PDF: ${pdf.rawPayload.length.toLocaleString('en-US')} bytes, ${pages} page(s)`,
        );
        console.log(
          `memory of this process and the browser's: PSS peak ${peakPss.toFixed(0)} MiB (RSS summed over the processes, ` +
            `shared pages counted in each: ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB); this process alone: peak RSS ${peakOwn.toFixed(0)} MiB`,
        );

        start = process.hrtime.bigint();
        const sent = await call<{ queued: number; no_address: number }>(
          'POST',
          `/payroll_config/payrolls/${payroll.id}/send-payslips`,
          {},
        );
        if (sent.no_address)
          console.log(`send-payslips: ${sent.no_address} employees of the dataset have no work e-mail (no_address)`);
        await until(async () => sink.messages() >= sent.queued);
        seconds = Number(process.hrtime.bigint() - start) / 1e9;
        const sentCount = async () => {
          const filter = encodeURIComponent('{"delivery_status":"sent"}');
          const res = await app.inject({
            method: 'GET',
            url: `/app/api/payroll_config/payrolls/${payroll.id}/payslips?limit=1&filters=${filter}`,
            headers: { authorization: `Bearer ${token}` },
          });
          return res.json<{ total: number }>().total;
        };
        await until(async () => (await sentCount()) >= sent.queued);
        const settled = Number(process.hrtime.bigint() - start) / 1e9;
        console.log(
          `send-payslips: ${sink.messages()} e-mails (${(sink.bytes() / 1048576).toFixed(1)} MiB with their PDFs) delivered to the SMTP sink in ` +
            `${seconds.toFixed(1)} s (${(sink.messages() / seconds).toFixed(1)} e-mails/s); every payslip sent (recorded) after ${settled.toFixed(1)} s`,
        );
        console.log(`over the whole run: PSS peak ${peakPss.toFixed(0)} MiB, RSS summed ${peak.toFixed(0)} MiB`);
      } finally {
        clearInterval(sampler);
      }
    });
  } finally {
    await sink.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
