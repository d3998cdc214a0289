import { readFileSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { postDocument, SAMPLE_FILES } from './helpers/multipart';
import { filesUnder } from './helpers/stored-files';
import { apiCaller, createTestApp, createUser, okCaller, outboxEvents, TestApp, until } from './helpers/test-app';

/**
 * Anonymisation of a leaver (issue 69, docs/api/privacy.md): its personal values gone from every
 * table and from the file store, what happened kept, all or nothing.
 */
describe('privacy: anonymising a leaver', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  const relay = () => t.app.get(OutboxRelay).drain();

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
  });
  afterAll(() => t.close());

  it('clears the person from every table and the file store; keeps its employment; once, and only for a Terminated employee', async () => {
    // A person whose every value is a marker no fixture holds.
    const marker = {
      first: 'Zyxqua',
      last: 'Vorpeltine',
      email: 'zyxqua.vorpeltine@private.example',
      work: 'z.vorpeltine@work.example',
      phone: '+49 170 5550199',
      ssn: 'SSN-77312-PRIV',
      address: 'Quarzweg 17a',
      iban: 'DE89370400440532013000',
      pii: 'PII-MARKER-4417',
      passport: 'PASSPORT-CONTENT-9981',
    };
    const fullName = `${marker.first} ${marker.last}`;
    const id = (
      await ok(
        'POST',
        '/employees',
        admin,
        employeeBody({
          first_name: marker.first,
          last_name: marker.last,
          private_email: marker.email,
          work_email: marker.work,
          mobile_phone: marker.phone,
          ssn_num: marker.ssn,
          address1: marker.address,
          birthday: '1988-04-12',
          department: c.departments.platform,
          supervisor: c.emp.manager,
        }),
      )
    ).id as number;
    const user = await createUser(t.app, 'Employee', { employeeId: id, username: 'zvorpeltine' });
    await ok('POST', `/employees/${id}/bank-accounts`, admin, { iban: marker.iban, holder_name: fullName });
    await ok('POST', '/custom-fields', admin, { key: 'passport_no', label: 'Passport number', type: 'text', pii: true });
    await ok('PUT', `/employees/${id}`, admin, { custom_fields: { passport_no: marker.pii } });
    // A document whose file holds a marker.
    const type = (await ok('POST', '/document-types', admin, { name: 'Passport copy' })).id as number;
    const upload = await postDocument(t.app, admin, id, [
      { name: 'document_type', value: String(type) },
      { name: 'notes', value: `scan of ${fullName}` },
      { name: 'file', filename: `passport-${marker.last}.pdf`, type: 'application/pdf', data: SAMPLE_FILES.pdf(marker.passport) },
    ]);
    expect(upload.statusCode).toBe(200);
    // Text elsewhere that names the person: its supervisor's notification and task of a submitted time entry.
    const entry = (await ok('POST', '/timesheets', user.token, { date: '2026-03-02', start: '09:00', end: '10:00' })).id;
    await ok('POST', `/timesheets/${entry}/submit`, user.token);
    await relay();
    const supervisorTasks = (await ok('GET', '/tasks?limit=100', c.users.manager.token)) as Array<{ title: string }>;
    expect(supervisorTasks.some((x) => x.title.includes(fullName))).toBe(true);

    // Where its values stand, table by table (SQLite's search index tables aside: they hold tokens, rebuilt from the rows).
    const ds = t.app.get(DataSource);
    const needles = [
      fullName,
      marker.email,
      marker.work,
      marker.phone,
      marker.ssn,
      marker.address,
      marker.iban,
      marker.pii,
      'zvorpeltine',
    ];
    const scan = async () => {
      const sqlite = ds.options.type === 'better-sqlite3';
      const tables = (
        await ds.query<Array<{ name: string }>>(
          sqlite
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'employees_search%'"
            : 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
        )
      ).map((r) => r.name);
      const found: string[] = [];
      for (const table of tables) {
        const text = JSON.stringify(await ds.query(sqlite ? `SELECT * FROM "${table}"` : `SELECT * FROM \`${table}\``));
        for (const n of needles) if (text.includes(n)) found.push(`${table}: ${n}`);
      }
      return found;
    };
    const dir = (t.config.fileStorage as { dir: string }).dir;
    const holding = () => filesUnder(dir).filter((f) => readFileSync(f).includes(marker.passport));
    // Before: the record, the user, the bank account, the custom field, the audit log, the events, the supervisor's notification and task, the file.
    const before = await scan();
    for (const table of [
      'employees',
      'users',
      'employee_bank_accounts',
      'custom_field_values',
      'audit_log',
      'outbox_events',
      'notifications',
      'tasks',
    ])
      expect(before.some((f) => f.startsWith(`${table}:`))).toBe(true);
    expect(holding()).toHaveLength(1);

    // Not while Active.
    const active = await call('POST', `/employees/${id}/anonymise`, admin);
    expect([active.statusCode, active.json().error.code, active.json().error.details]).toEqual([
      409,
      'INVALID_STATE',
      [{ field: 'status', message: 'Active' }],
    ]);
    await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
    // An Admin's alone; an unknown employee is 404.
    expect((await call('POST', `/employees/${id}/anonymise`, c.users.restricted.token)).statusCode).toBe(403);
    expect((await call('POST', '/employees/987654/anonymise', admin)).statusCode).toBe(404);

    const done = await ok('POST', `/employees/${id}/anonymise`, admin);
    expect(done).toEqual({ id, name: `Former employee ${id}`, anonymised_at: expect.any(String) });
    const again = await call('POST', `/employees/${id}/anonymise`, admin);
    expect([again.statusCode, again.json().error.details[0].field]).toEqual([409, 'anonymised_at']);
    await relay();

    // What stays: the record, its employment and dates; what went: the rest.
    const after = await ok('GET', `/employees/${id}`, admin);
    expect(after).toMatchObject({
      first_name: 'Former employee',
      last_name: String(id),
      private_email: null,
      work_email: null,
      mobile_phone: null,
      ssn_num: null,
      address1: null,
      birthday: null,
      department: c.departments.platform,
      status: 'Terminated',
    });
    expect(after.custom_fields?.passport_no ?? null).toBeNull();
    expect(await ok('GET', `/employees/${id}/bank-accounts`, admin)).toEqual([]);
    expect(await ok('GET', `/employees/${id}/documents`, admin)).toEqual([]);
    expect((await call('GET', '/employees/me', user.token)).statusCode).toBe(401);
    const event = (await outboxEvents(t.app, 'employee.anonymised')).find((e) => (e.data as { id: number }).id === id);
    expect(event?.data).toEqual({ id, employee: id, changes: { anonymised_at: [null, done.anonymised_at] } });

    expect(await scan()).toEqual([]);
    // Nor the file store: the removal job (queued in the anonymisation's transaction) deletes the files once it committed.
    await until(() => Promise.resolve(holding().length === 0), 10_000).catch(() => undefined);
    expect(holding()).toEqual([]);
  });

  it('a legal hold, set by an Admin on the employee, blocks anonymisation; the privacy property reads back and round-trips', async () => {
    const id = (await ok('POST', '/employees', admin, employeeBody({ department: c.departments.platform }))).id as number;
    const fresh = await ok('GET', `/employees/${id}`, admin);
    expect(fresh.privacy).toEqual({ legal_hold: false, anonymised_at: null });
    // Only an Admin sets it (a Restricted Admin in scope: 403 naming the field); a wrong type or key: 400.
    const restricted = await call('PUT', `/employees/${id}`, c.users.restricted.token, { privacy: { legal_hold: true } });
    expect([restricted.statusCode, restricted.json().error.details?.[0]?.field]).toEqual([403, 'privacy.legal_hold']);
    for (const [body, field] of [
      [{ legal_hold: 'yes' }, 'privacy.legal_hold'],
      [{ hold: true }, 'privacy.hold'],
    ] as const) {
      const bad = await call('PUT', `/employees/${id}`, admin, { privacy: body });
      expect([bad.statusCode, bad.json().error.details[0].field]).toEqual([400, field]);
    }
    const held = await ok('PUT', `/employees/${id}`, admin, { privacy: { legal_hold: true } });
    expect(held.privacy).toEqual({ legal_hold: true, anonymised_at: null });
    // A PUT of what the GET returned changes nothing; a Manager reads no hold.
    expect((await ok('PUT', `/employees/${id}`, admin, await ok('GET', `/employees/${id}`, admin))).privacy.legal_hold).toBe(
      true,
    );
    expect((await ok('GET', `/employees/${c.emp.report1}`, c.users.manager.token)).privacy).toEqual({
      legal_hold: null,
      anonymised_at: null,
    });
    const audit = (await ok('GET', `/audit-log?filters[resource]=employees&limit=100`, admin)) as Array<{
      resource_id: string;
      changes: object;
    }>;
    expect(audit.some((a) => a.resource_id === String(id) && JSON.stringify(a.changes).includes('legal_hold'))).toBe(true);

    await ok('PUT', `/employees/${id}`, admin, { status: 'Terminated' });
    const refused = await call('POST', `/employees/${id}/anonymise`, admin);
    expect([refused.statusCode, refused.json().error.details]).toEqual([
      409,
      [{ field: 'legal_hold', message: 'the employee is under legal hold' }],
    ]);
    expect((await ok('GET', `/employees/${id}`, admin)).first_name).not.toBe('Former employee');
    await ok('PUT', `/employees/${id}`, admin, { privacy: { legal_hold: false } });
    const done = await ok('POST', `/employees/${id}/anonymise`, admin);
    expect((await ok('GET', `/employees/${id}`, admin)).privacy).toEqual({
      legal_hold: false,
      anonymised_at: done.anonymised_at,
    });
  });
});
