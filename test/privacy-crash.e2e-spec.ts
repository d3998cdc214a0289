import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source';
import { buildCompany, employeeBody } from './helpers/company';
import { DIST, NodeProcess } from './helpers/node-process';
import { describeIf, NEEDS_SERVERS } from './helpers/skip';
import { createTestApp, INTEGRATION, okCaller, testConfig, until } from './helpers/test-app';

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const p = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(p));
    });
  });

/**
 * A crash in the middle of an anonymisation (issue 69): the built service on SQLite, killed with
 * SIGKILL inside the anonymisation's transaction (test/helpers/pause-in-anonymisation.js holds it
 * at its first holder's write), leaves the employee untouched; started again, the same request
 * anonymises it whole. A step of `.ci/run`'s integration run (it needs the built service).
 */
describeIf(INTEGRATION, NEEDS_SERVERS)('privacy: a crash in the middle of an anonymisation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hr-privacy-crash-'));
  const url = `sqlite:${join(dir, 'hr.sqlite')}`;
  const processes: NodeProcess[] = [];
  afterAll(async () => {
    for (const p of processes) if (p.running) await p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('leaves the employee untouched or anonymised, never half', async () => {
    if (!existsSync(join(DIST, 'main.js'))) throw new Error('dist/src/main.js is missing: npm run build');
    const seeding = await createTestApp({ DATABASE_URL: url, REDIS_URL: '' });
    const c = await buildCompany(seeding.app);
    const ok = okCaller(seeding.app);
    const admin = c.users.admin.token;
    const id = (
      await ok(
        'POST',
        '/employees',
        admin,
        employeeBody({ first_name: 'Quillon', last_name: 'Marsh', private_email: 'quillon@private.example' }),
      )
    ).id as number;
    await ok('POST', `/employees/${id}/bank-accounts`, admin, { iban: 'DE89370400440532013000', holder_name: 'Quillon Marsh' });
    await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
    await seeding.close();

    const env = (port: number) => ({
      DATABASE_URL: url,
      REDIS_URL: '',
      PORT: String(port),
      FILE_STORAGE: `local:${join(dir, 'files')}`,
    });
    const anonymise = async (port: number) =>
      fetch(`http://127.0.0.1:${port}/app/api/employees/${id}/anonymise`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      }).catch(() => null);
    const started = async (p: NodeProcess, port: number) => {
      processes.push(p);
      await until(
        async () => (await fetch(`http://127.0.0.1:${port}/app/api/health/live`).catch(() => null))?.status === 200 || !p.running,
        30_000,
      );
    };

    // Killed inside the transaction.
    const port = await freePort();
    const paused = new NodeProcess('main', {
      ...env(port),
      NODE_OPTIONS: `--require ${join(__dirname, 'helpers', 'pause-in-anonymisation.js')}`,
    });
    paused.onLine((line) => {
      if (line.includes('paused in an anonymisation')) paused.proc.kill('SIGKILL');
    });
    await started(paused, port);
    void anonymise(port);
    await until(() => !paused.running, 30_000);
    expect(paused.messages()).toContain('paused in an anonymisation');

    const ds = await new DataSource(dataSourceOptions(testConfig({ DATABASE_URL: url }).database)).initialize();
    try {
      const read = async () => ({
        employee: (
          await ds.query<Array<{ first_name: string; private_email: string | null }>>(
            'SELECT first_name, private_email FROM employees WHERE id = ?',
            [id],
          )
        )[0],
        accounts: Number(
          (
            await ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM employee_bank_accounts WHERE employee_id = ?', [id])
          )[0].n,
        ),
        privacy: await ds.query<Array<{ anonymised_at: string | null }>>(
          'SELECT anonymised_at FROM employee_privacy WHERE employee_id = ?',
          [id],
        ),
        audit: Number(
          (await ds.query<Array<{ n: number }>>("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'anonymise'"))[0].n,
        ),
      });
      expect(await read()).toEqual({
        employee: { first_name: 'Quillon', private_email: 'quillon@private.example' },
        accounts: 1,
        privacy: [],
        audit: 0,
      });

      // Started again, the same request anonymises it whole.
      const again = await freePort();
      await started(new NodeProcess('main', env(again)), again);
      expect((await anonymise(again))?.status).toBe(200);
      const after = await read();
      expect([after.employee, after.accounts, after.privacy.length, after.audit]).toEqual([
        { first_name: 'Former employee', private_email: null },
        0,
        1,
        1,
      ]);
    } finally {
      await ds.destroy();
    }
  }, 120_000);
});
