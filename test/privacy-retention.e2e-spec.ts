import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { RetentionService } from '../src/privacy/retention.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { postDocument, SAMPLE_FILES } from './helpers/multipart';
import { apiCaller, createTestApp, okCaller, TestApp, until } from './helpers/test-app';

interface PreviewItem {
  employee: number;
  category: string;
  action: string;
  records: number;
}

/**
 * Retention by policy (issue 69, docs/api/privacy.md): per category of personal data, kept so many
 * years after the termination date, then anonymised or deleted by the daily job; the preview says
 * what the job would do today and writes nothing; a legal hold and a recent leaver are left alone.
 */
describe('privacy: retention policies', () => {
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

  it('policies: one per known category, keep_years 0..100, anonymise or delete; a PUT takes what the GET gave', async () => {
    for (const [body, field] of [
      [{ category: 'contact', keep_years: -1, action: 'anonymise' }, 'keep_years'],
      [{ category: 'contact', keep_years: 101, action: 'anonymise' }, 'keep_years'],
      [{ category: 'contact', keep_years: 1.5, action: 'anonymise' }, 'keep_years'],
      [{ category: 'contact', keep_years: 2, action: 'shred' }, 'action'],
      [{ category: 'payroll', keep_years: 2, action: 'delete' }, 'category'],
      [{ keep_years: 2, action: 'delete' }, 'category'],
    ] as const) {
      const res = await call('POST', '/retention-policies', admin, body);
      expect([res.statusCode, res.json().error.details.map((d: { field: string }) => d.field)]).toEqual([400, [field]]);
    }
    const unknown = await call('POST', '/retention-policies', admin, { category: 'payroll', keep_years: 2, action: 'delete' });
    expect(unknown.json().error.details[0].message).toContain('bank_accounts');
    expect(await ok('GET', '/retention-policies', admin)).toEqual([]);
    const made = await ok('POST', '/retention-policies', admin, { category: 'timesheets', keep_years: 10, action: 'delete' });
    expect(made).toEqual({ id: expect.any(Number), category: 'timesheets', keep_years: 10, action: 'delete' });
    const twice = await call('POST', '/retention-policies', admin, {
      category: 'timesheets',
      keep_years: 3,
      action: 'anonymise',
    });
    expect([twice.statusCode, twice.json().error.details[0].field]).toEqual([409, 'category']);
    const got = await ok('GET', `/retention-policies/${made.id}`, admin);
    expect(await ok('PUT', `/retention-policies/${made.id}`, admin, { ...got, keep_years: 7 })).toEqual({
      ...got,
      keep_years: 7,
    });
    expect((await call('GET', '/retention-policies', c.users.restricted.token)).statusCode).toBe(403);
    expect((await call('GET', '/retention/preview', c.users.restricted.token)).statusCode).toBe(403);
    await ok('DELETE', `/retention-policies/${made.id}`, admin);
    expect(await ok('GET', '/retention-policies', admin)).toEqual([]);
  });

  it('the preview shows what the job does today; the job does it once, skipping legal holds and recent leavers', async () => {
    const ds = t.app.get(DataSource);
    const leaver = async (terminated: string, extra: object = {}) => {
      const id = (
        await ok(
          'POST',
          '/employees',
          admin,
          employeeBody({ joined_date: '2015-03-01', mobile_phone: '+49 170 1234567', private_email: `p${Date.now()}@x.example` }),
        )
      ).id as number;
      await ok('POST', `/employees/${id}/bank-accounts`, admin, { iban: 'DE89370400440532013000', holder_name: 'Someone Else' });
      await ok('POST', '/attendance', admin, {
        employee: id,
        in_time: '2019-06-03T09:00:00Z',
        out_time: '2019-06-03T12:00:00Z',
        note: 'doctor appointment',
      });
      await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated', termination_date: terminated, ...extra });
      return id;
    };
    const due = await leaver('2020-01-31');
    const held = await leaver('2020-01-31', { privacy: { legal_hold: true } });
    const recent = await leaver('2026-10-31');
    // A document of the due leaver, whose file the delete removes from the store.
    const type = (await ok('POST', '/document-types', admin, { name: 'Contract copy' })).id as number;
    const upload = await postDocument(t.app, admin, due, [
      { name: 'document_type', value: String(type) },
      { name: 'file', filename: 'contract.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf('contract') },
    ]);
    expect(upload.statusCode).toBe(200);
    const key = (
      await ds.query<Array<{ file_key: string }>>('SELECT file_key FROM documents WHERE id = ?', [upload.json().data.id])
    )[0].file_key;

    // No policy: nothing to do.
    expect(await ok('GET', '/retention/preview', admin)).toEqual([]);
    for (const [category, action] of [
      ['contact', 'anonymise'],
      ['bank_accounts', 'delete'],
      ['attendance', 'anonymise'],
      ['documents', 'delete'],
    ])
      await ok('POST', '/retention-policies', admin, { category, keep_years: 6, action });
    const auditBefore = (await ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM audit_log'))[0].n;
    const preview = (await ok('GET', '/retention/preview', admin)) as PreviewItem[];
    expect(preview).toEqual([
      { employee: due, category: 'attendance', action: 'anonymise', records: 1 },
      { employee: due, category: 'bank_accounts', action: 'delete', records: 1 },
      { employee: due, category: 'contact', action: 'anonymise', records: 1 },
      { employee: due, category: 'documents', action: 'delete', records: 1 },
    ]);
    // A GET writes nothing: the same answer again, no audit entry, the records as they were.
    expect(await ok('GET', '/retention/preview', admin)).toEqual(preview);
    expect((await ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM audit_log'))[0].n).toBe(auditBefore);
    expect(await ok('GET', `/employees/${due}/bank-accounts`, admin)).toHaveLength(1);

    const retention = t.app.get(RetentionService);
    expect(await retention.apply()).toEqual({ employees: 1, records: 4 });
    const after = await ok('GET', `/employees/${due}`, admin);
    expect([after.mobile_phone, after.private_email, after.work_email]).toEqual([null, null, null]);
    expect(after.first_name).not.toBe('Former employee'); // names are the anonymisation's, not a policy's
    expect(await ok('GET', `/employees/${due}/bank-accounts`, admin)).toEqual([]);
    expect(await ok('GET', `/employees/${due}/documents`, admin)).toEqual([]);
    const attendance = (await ok('GET', `/employees/${due}/attendance?limit=10`, admin)) as Array<{ note: string | null }>;
    expect(attendance.map((a) => a.note)).toEqual([null]);
    const dir = (t.config.fileStorage as { dir: string }).dir;
    await until(() => !existsSync(join(dir, key.slice(0, 2), key)), 10_000).catch(() => undefined);
    expect(existsSync(join(dir, key.slice(0, 2), key))).toBe(false);
    const audit = (await ok('GET', `/employees/${due}/audit-log?limit=100`, admin)) as Array<{ action: string }>;
    expect(audit.filter((a) => a.action === 'retention')).toHaveLength(4);

    // The held and the recent leaver keep everything; a second run finds nothing to do.
    for (const id of [held, recent]) {
      expect((await ok('GET', `/employees/${id}`, admin)).mobile_phone).toBe('+49 170 1234567');
      expect(await ok('GET', `/employees/${id}/bank-accounts`, admin)).toHaveLength(1);
    }
    expect(await ok('GET', '/retention/preview', admin)).toEqual([]);
    expect(await retention.apply()).toEqual({ employees: 0, records: 0 });

    // Lifting the hold makes it due; an audit policy then redacts personal fields in its entries, once.
    await ok('PUT', `/employees/${held}`, admin, { privacy: { legal_hold: false } });
    await ok('POST', '/retention-policies', admin, { category: 'audit', keep_years: 6, action: 'anonymise' });
    const next = (await ok('GET', '/retention/preview', admin)) as PreviewItem[];
    expect(next.map((p) => [p.employee, p.category])).toEqual([
      [due, 'audit'],
      [held, 'attendance'],
      [held, 'audit'],
      [held, 'bank_accounts'],
      [held, 'contact'],
    ]);
    await retention.apply();
    expect(await ok('GET', '/retention/preview', admin)).toEqual([]);
    const entries = (await ok('GET', `/employees/${held}/audit-log?limit=100`, admin)) as Array<{ changes: object }>;
    expect(JSON.stringify(entries)).not.toContain('+49 170 1234567');
  });
});
