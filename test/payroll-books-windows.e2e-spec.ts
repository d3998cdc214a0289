import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { APP_CONFIG } from '../src/config/config.module';
import type { AppConfig } from '../src/config/config';
import { BankFileDocuments } from '../src/payroll/books/bank-file-documents';
import { UsersService } from '../src/users/users.service';
import { createDemoApp, DemoApp } from './helpers/demo-app';
import { apiCaller } from './helpers/test-app';

/** A weekday at least `weeks` weeks from now. */
function weekday(weeks: number): string {
  const d = new Date(Date.now() + 7 * weeks * 86_400_000);
  while ([0, 6].includes(d.getUTCDay())) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

const sortDirs = () => readdirSync(tmpdir()).filter((f) => f.startsWith('hr-sort-')).length;

/**
 * The books read a payroll a window of employees at a time (issue 70, docs/api/payroll.md "The
 * books at scale"): the demo company's Completed payroll (60 employees, several departments) gives
 * the same journal, register and bank file with windows of 1, 4 and 7 employees as with one window
 * of all: sums across windows, the register's sort merged from runs on disk (runs of five windows),
 * the bank file's transfers validated in parts of two windows. (test/payroll-books.e2e-spec.ts runs
 * with windows of one employee: a Restricted Admin's register there.)
 */
describe('payroll books in windows (issue 70)', () => {
  let t: DemoApp;
  let call: ReturnType<typeof apiCaller>;
  let admin: string;
  let payroll: number;
  let config: AppConfig;

  beforeAll(async () => {
    t = await createDemoApp();
    call = apiCaller(t.app);
    const token = async (username: string) =>
      (await t.app.get(TokenService).issue((await t.app.get(UsersService).findByUsername(username))!)).access_token;
    admin = await token('admin');
    const payrolls = (await call('GET', '/payroll_config/payrolls?limit=10', admin)).json().data as Array<{
      id: number;
      status: string;
    }>;
    payroll = payrolls.find((p) => p.status === 'Completed')!.id;
    config = t.app.get<AppConfig>(APP_CONFIG);
  });
  afterAll(() => t.close());

  it('gives the same journal, register and bank file whatever the window', async () => {
    const books = async (round: number) => {
      const journal = await call('GET', `/payroll_config/payrolls/${payroll}/journal`, admin);
      const register = await call('GET', `/payroll_config/payrolls/${payroll}/register`, admin);
      const made = await call('POST', `/payroll_config/payrolls/${payroll}/bank-files`, admin, {
        execution_date: weekday(round + 1),
      });
      expect([journal.statusCode, register.statusCode, made.statusCode]).toEqual([200, 200, 201]);
      const file = await call('GET', `/payroll_config/payrolls/${payroll}/bank-files/${made.json().data.id}/file`, admin);
      return {
        journal: journal.json().data,
        register: register.body,
        // The execution date is the one thing a new file of the same revision changes.
        bankFile: file.body.replaceAll(weekday(round + 1), 'DAY'),
        record: { ...made.json().data, id: 0, execution_date: 'DAY', sha256: '', created_at: '' },
      };
    };
    const whole = await books(0);
    expect(whole.register.split('\n').filter((l) => l.startsWith('employee,'))).toHaveLength(60);
    expect(whole.bankFile).toContain('<NbOfTxs>60</NbOfTxs>');
    const before = sortDirs();
    for (const [round, size] of [1, 4, 7].entries()) {
      config.payrollChunkSize = size;
      try {
        expect({ size, ...(await books(round + 1)) }).toEqual({ size, ...whole });
      } finally {
        config.payrollChunkSize = 2000;
      }
    }
    expect(sortDirs()).toBe(before);
  });

  it('refuses a bank file whose transfers changed while it was made (409), and one that pays no one (409), keeping nothing', async () => {
    const documents = t.app.get(BankFileDocuments);
    const totals = documents.totals.bind(documents);
    // An account added between the count and the writing: the headers would not match the transfers.
    const spy = jest
      .spyOn(documents, 'totals')
      .mockImplementation(async (...args) => (await totals(...args)).map((p) => ({ ...p, count: p.count - 1 })));
    const url = `/payroll_config/payrolls/${payroll}/bank-files`;
    const files = async () => ((await call('GET', url, admin)).json().data as unknown[]).length;
    const kept = await files();
    try {
      const changed = await call('POST', url, admin, { execution_date: weekday(9) });
      expect([changed.statusCode, changed.json().error.code]).toEqual([409, 'CONFLICT']);
      expect(changed.json().error.message).toContain('changed while its bank file was made');
    } finally {
      spy.mockRestore();
    }
    await t.app.get(DataSource).query('UPDATE employee_bank_accounts SET is_primary = ?', [false]);
    const none = await call('POST', url, admin, { execution_date: weekday(9), skip_missing: true });
    expect([none.statusCode, none.json().error.code]).toEqual([409, 'INVALID_STATE']);
    expect(none.json().error.message).toContain('pays no one');
    expect(await files()).toBe(kept);
  });
});
