import JSZip from 'jszip';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { PersonalDataExport } from '../src/privacy/entities/personal-data-export.entity';
import { PersonalDataExportRunner } from '../src/privacy/personal-data-export.runner';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { postDocument, SAMPLE_FILES } from './helpers/multipart';
import { apiCaller, bearer, createTestApp, createUser, okCaller, outboxEvents, TestApp, until } from './helpers/test-app';

interface ExportView {
  id: number;
  employee: number;
  status: string;
  size: number | null;
  expires_at: string;
  created_at: string;
}

/**
 * Subject access (issue 69, GDPR art. 15; docs/api/privacy.md): one ZIP of everything the service
 * holds about a person, for the person or an Admin, kept 7 days, each download audited.
 */
describe('privacy: subject-access exports', () => {
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

  const download = (id: number, token: string) =>
    t.app.inject({ method: 'GET', url: `/app/api/personal-data-exports/${id}/file`, headers: bearer(token) });
  const ready = async (id: number, token: string): Promise<ExportView> => {
    let view: ExportView | null = null;
    await until(async () => {
      view = (await ok('GET', `/personal-data-exports/${id}`, token)) as ExportView;
      return view.status !== 'Queued' && view.status !== 'Running';
    }, 20_000);
    return view!;
  };

  it('holds the record, accounts, bank accounts, time, expenses, documents, audit and notifications; for the person and the Admins only', async () => {
    const marker = { first: 'Quillon', last: 'Brathwick', iban: 'DE89370400440532013000', passport: 'PASSPORT-BYTES-5531' };
    const id = (
      await ok(
        'POST',
        '/employees',
        admin,
        employeeBody({
          first_name: marker.first,
          last_name: marker.last,
          private_email: 'quillon@private.example',
          department: c.departments.platform,
          supervisor: c.emp.manager,
        }),
      )
    ).id as number;
    const user = await createUser(t.app, 'Employee', { employeeId: id, username: 'qbrathwick' });
    await ok('POST', `/employees/${id}/bank-accounts`, admin, {
      iban: marker.iban,
      holder_name: `${marker.first} ${marker.last}`,
    });
    await ok('POST', '/custom-fields', admin, {
      key: 'shirt_size',
      label: 'Shirt size',
      type: 'select',
      options: [
        { value: 'S', label: 'Small' },
        { value: 'M', label: 'Medium' },
      ],
    });
    await ok('PUT', `/employees/${id}`, admin, { custom_fields: { shirt_size: 'M' } });
    await ok('POST', '/attendance', admin, { employee: id, in_time: '2026-04-01T09:00:00Z', out_time: '2026-04-01T12:00:00Z' });
    await ok('POST', '/timesheets', user.token, { date: '2026-03-02', start: '09:00', end: '10:00' });
    const category = (await ok('POST', '/expense-categories', admin, { name: 'Taxi', account: '6400' })).id as number;
    await ok('POST', '/expense-claims', user.token, {
      title: 'Airport taxi',
      items: [{ category, date: '2026-03-03', description: 'taxi', amount: '42.50', currency: 'EUR' }],
    });
    const type = (await ok('POST', '/document-types', admin, { name: 'Passport copy' })).id as number;
    const pdf = SAMPLE_FILES.pdf(marker.passport);
    const upload = await postDocument(t.app, admin, id, [
      { name: 'document_type', value: String(type) },
      { name: 'file', filename: 'passport/scan.pdf', type: 'application/pdf', data: pdf },
    ]);
    expect(upload.statusCode).toBe(200);
    const documentId = upload.json().data.id as number;

    // Who may ask: the person, an Admin; a Manager who sees it: 403; an employee it does not see or an unknown one: 404.
    expect((await call('POST', `/employees/${id}/personal-data-exports`, c.users.manager.token)).statusCode).toBe(403);
    expect((await call('POST', `/employees/${id}/personal-data-exports`, c.users.employee.token)).statusCode).toBe(404);
    expect((await call('POST', '/employees/987654/personal-data-exports', admin)).statusCode).toBe(404);

    const asked = await call('POST', `/employees/${id}/personal-data-exports`, user.token);
    expect(asked.statusCode).toBe(202);
    const queued = asked.json().data as ExportView;
    expect(queued).toMatchObject({ employee: id, status: 'Queued', size: null });
    expect(Date.parse(queued.expires_at) - Date.parse(queued.created_at)).toBe(7 * 24 * 3600_000);
    const done = await ready(queued.id, user.token);
    expect(done).toMatchObject({ status: 'Ready', size: expect.any(Number) });

    // Whoever asked and the Admins read and download it; anyone else: 404.
    expect((await call('GET', `/personal-data-exports/${queued.id}`, c.users.manager.token)).statusCode).toBe(404);
    expect((await download(queued.id, c.users.manager.token)).statusCode).toBe(404);
    expect((await call('GET', `/personal-data-exports/${queued.id}`, admin)).statusCode).toBe(200);
    const res = await download(queued.id, user.token);
    expect([res.statusCode, res.headers['content-type'], Number(res.headers['content-length'])]).toEqual([
      200,
      'application/zip',
      done.size,
    ]);
    expect((await download(queued.id, admin)).statusCode).toBe(200);

    const zip = await JSZip.loadAsync(res.rawPayload);
    const names = Object.keys(zip.files);
    for (const file of [
      'README.txt',
      'employee.json',
      'bank-accounts.json',
      'leave.json',
      'attendance.json',
      'timesheets.json',
      'expenses.json',
      'audit.json',
      'notifications.json',
      'documents/documents.json',
      'payslips/payslips.json',
      'payroll.json',
      'checklists.json',
    ])
      expect(names).toContain(file);
    const json = async (name: string) => JSON.parse(await zip.file(name)!.async('string')) as Record<string, any>;
    const employee = await json('employee.json');
    expect(employee.employee).toMatchObject({ id, first_name: marker.first, last_name: marker.last });
    expect(employee.custom_fields).toEqual({ shirt_size: 'M' });
    expect(employee.users).toHaveLength(1);
    expect(employee.users[0]).toMatchObject({ username: 'qbrathwick' });
    expect(JSON.stringify(employee.users)).not.toMatch(/password_hash|\$scrypt|oidc_subject/);
    expect(employee.history.segments.length).toBeGreaterThan(0);
    expect((await json('bank-accounts.json')).bank_accounts[0]).toMatchObject({ iban: marker.iban });
    expect((await json('attendance.json')).attendance).toHaveLength(1);
    expect((await json('timesheets.json')).time_entries).toHaveLength(1);
    const expenses = await json('expenses.json');
    expect([expenses.claims.length, expenses.items.length]).toEqual([1, 1]);
    expect((await json('documents/documents.json')).documents.map((d: { id: number }) => d.id)).toEqual([documentId]);
    const file = names.find((n) => n.startsWith(`documents/${documentId}/v1-`))!;
    expect(file).toBe(`documents/${documentId}/v1-scan.pdf`);
    expect(Buffer.compare(await zip.file(file)!.async('nodebuffer'), pdf)).toBe(0);
    const audit = (await json('audit.json')).entries as Array<{ resource: string; employee_id: number }>;
    expect(audit.length).toBeGreaterThan(3);
    expect(audit.every((e) => e.employee_id === id)).toBe(true);
    const readme = await zip.file('README.txt')!.async('string');
    for (const file of ['employee.json', 'bank-accounts.json', 'attendance.json', 'documents/documents.json', 'audit.json'])
      expect(readme).toContain(`  ${file}: `);

    // Each download audited; the event names ids, no personal value.
    const downloads = (await ok('GET', `/audit-log?filters[resource]=personal-data-exports&limit=100`, admin)) as Array<{
      action: string;
      resource_id: string;
    }>;
    expect(downloads.filter((a) => a.action === 'download' && a.resource_id === String(queued.id))).toHaveLength(2);
    await t.app.get(OutboxRelay).drain();
    const event = (await outboxEvents(t.app, 'personal_data.exported')).find((e) => (e.data as { id: number }).id === queued.id);
    expect(event?.data).toEqual({
      id: queued.id,
      employee: id,
      requested_by: user.user.id,
      size: done.size,
      expires_at: done.expires_at,
    });

    // Seven days later the sweep removes its file: Expired, and the download is refused.
    const ds = t.app.get(DataSource);
    const key = (await ds.getRepository(PersonalDataExport).findOneByOrFail({ id: queued.id })).fileKey!;
    const dir = (t.config.fileStorage as { dir: string }).dir;
    const stored = () => existsSync(join(dir, key.slice(0, 2), key));
    expect(stored()).toBe(true);
    const runner = t.app.get(PersonalDataExportRunner);
    expect((await runner.sweep(new Date(Date.now() + 6 * 24 * 3600_000))).expired).toBe(0);
    expect((await runner.sweep(new Date(Date.now() + 8 * 24 * 3600_000))).expired).toBe(1);
    expect((await ok('GET', `/personal-data-exports/${queued.id}`, user.token)).status).toBe('Expired');
    const gone = await download(queued.id, user.token);
    expect([gone.statusCode, gone.json().error.code]).toEqual([409, 'INVALID_STATE']);
    expect(stored()).toBe(false);
  });

  it('refuses a second export while one is unfinished, naming it; an export is removed with the anonymisation', async () => {
    const id = (await ok('POST', '/employees', admin, employeeBody({ department: c.departments.platform }))).id as number;
    const ds = t.app.get(DataSource);
    const now = new Date();
    const pending = await ds.getRepository(PersonalDataExport).save({
      employeeId: id,
      requestedBy: null,
      status: 'Queued',
      restarts: 0,
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + 7 * 24 * 3600_000),
    });
    const refused = await call('POST', `/employees/${id}/personal-data-exports`, admin);
    expect([refused.statusCode, refused.json().error.code, refused.json().error.details]).toEqual([
      409,
      'CONFLICT',
      [{ field: 'id', message: String(pending.id) }],
    ]);
    await ds.getRepository(PersonalDataExport).delete({ id: pending.id });

    const made = (await call('POST', `/employees/${id}/personal-data-exports`, admin)).json().data as ExportView;
    expect((await ready(made.id, admin)).status).toBe('Ready');
    const key = (await ds.getRepository(PersonalDataExport).findOneByOrFail({ id: made.id })).fileKey!;
    await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
    await ok('POST', `/employees/${id}/anonymise`, admin);
    expect((await ok('GET', `/personal-data-exports/${made.id}`, admin)).status).toBe('Expired');
    const dir = (t.config.fileStorage as { dir: string }).dir;
    await until(() => !existsSync(join(dir, key.slice(0, 2), key)), 10_000).catch(() => undefined);
    expect(existsSync(join(dir, key.slice(0, 2), key))).toBe(false);
  });
});
