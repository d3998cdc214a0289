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

const tempDirs = (prefix: string) => readdirSync(tmpdir()).filter((f) => f.startsWith(prefix)).length;

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
    const before = [tempDirs('hr-sort-'), tempDirs('hr-bank-file-')];
    for (const [round, size] of [1, 4, 7].entries()) {
      config.payrollChunkSize = size;
      try {
        expect({ size, ...(await books(round + 1)) }).toEqual({ size, ...whole });
      } finally {
        config.payrollChunkSize = 2000;
      }
    }
    expect([tempDirs('hr-sort-'), tempDirs('hr-bank-file-')]).toEqual(before);
  });

  it('keeps nothing of a file a part of which fails the schema (500): no record, no stored bytes, no temporary file', async () => {
    const documents = t.app.get<{ validate(...args: unknown[]): Promise<void> }>(BankFileDocuments);
    // The second part of four-transfer windows (parts of eight) is refused, once the first is stored.
    const spy = jest
      .spyOn(documents, 'validate')
      .mockResolvedValueOnce(undefined)
      .mockRejectedValueOnce(new Error('bank file of payroll failed schema validation'));
    const url = `/payroll_config/payrolls/${payroll}/bank-files`;
    const stored = () =>
      readdirSync((t.config.fileStorage as { dir: string }).dir, { recursive: true, withFileTypes: true }).filter((f) =>
        f.isFile(),
      ).length;
    const [records, bytes, temp] = [(await call('GET', url, admin)).json().data.length, stored(), tempDirs('hr-bank-file-')];
    config.payrollChunkSize = 4;
    try {
      const failed = await call('POST', url, admin, { execution_date: weekday(10) });
      expect([failed.statusCode, failed.json().error.code]).toEqual([500, 'INTERNAL_ERROR']);
      expect(spy).toHaveBeenCalledTimes(2); // the third part is read, never validated
    } finally {
      config.payrollChunkSize = 2000;
      spy.mockRestore();
    }
    expect([(await call('GET', url, admin)).json().data.length, stored(), tempDirs('hr-bank-file-')]).toEqual([
      records,
      bytes,
      temp,
    ]);
  });

  it('refuses a bank file that pays no one (409), keeping nothing and no temporary file', async () => {
    const url = `/payroll_config/payrolls/${payroll}/bank-files`;
    const files = async () => ((await call('GET', url, admin)).json().data as unknown[]).length;
    const [kept, before] = [await files(), tempDirs('hr-bank-file-')];
    await t.app.get(DataSource).query('UPDATE employee_bank_accounts SET is_primary = ?', [false]);
    const missing = await call('POST', url, admin, { execution_date: weekday(9) });
    expect([missing.statusCode, missing.json().error.code]).toEqual([409, 'MISSING_BANK_ACCOUNTS']);
    expect(missing.json().error.message).toMatch(/^60 employees with a net pay/);
    const none = await call('POST', url, admin, { execution_date: weekday(9), skip_missing: true });
    expect([none.statusCode, none.json().error.code]).toEqual([409, 'INVALID_STATE']);
    expect(none.json().error.message).toContain('pays no one');
    expect(await files()).toBe(kept);
    expect(tempDirs('hr-bank-file-')).toBe(before);
  });
});
