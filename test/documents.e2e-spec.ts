import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { FILE_STORE, FileStore, KEY_PATTERN } from '../src/common/storage/file-store';
import { DocumentJobsService } from '../src/documents/document-jobs.service';
import { addDays } from '../src/common/time/days';
import { receiveUpload } from '../src/documents/document-upload';
import { EmployeesService } from '../src/employees/employees.service';
import { EmployeeFactsService } from '../src/employees/employee-facts.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { FormPart, multipartForm, SAMPLE_FILES } from './helpers/multipart';
import { startS3Emulator } from './helpers/s3-emulator';
import { OutboxRelay } from '../src/common/outbox/outbox-relay';
import { apiCaller, bearer, createTestApp, INTEGRATION, okCaller, TestApp, until } from './helpers/test-app';

/** Employee documents (issue 28, docs/api/decisions.md §14): the document types. */
describe('document types', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  it('Admins create them with defaults (reminders 30, 7, 1; visible to the employee only); everyone reads', async () => {
    const admin = c.users.admin.token;
    const passport = await call('POST', '/document-types', admin, {
      name: 'Passport',
      expires: true,
      notify_days_before: [7, 90, 30],
    });
    expect(passport.statusCode).toBe(200);
    expect(passport.json().data).toEqual({
      id: expect.any(Number),
      name: 'Passport',
      expires: true,
      notify_days_before: [90, 30, 7],
      visible_to_employee: true,
      visible_to_manager: false,
      employee_may_upload: false,
    });
    const contract = (await call('POST', '/document-types', admin, { name: 'Contract', visible_to_manager: true })).json().data;
    expect(contract).toMatchObject({ expires: false, notify_days_before: [30, 7, 1], visible_to_manager: true });

    const changed = await call('PUT', `/document-types/${contract.id}`, admin, { employee_may_upload: true });
    expect(changed.json().data).toMatchObject({
      employee_may_upload: true,
      visible_to_manager: true,
      notify_days_before: [30, 7, 1],
    });

    const read = await call('GET', '/document-types?filters=%7B%22expires%22%3Atrue%7D', c.users.employee.token);
    expect(read.statusCode).toBe(200);
    expect(read.json().data.map((d: { name: string }) => d.name)).toEqual(['Passport']);
    expect((await call('POST', '/document-types', c.users.restricted.token, { name: 'Visa' })).statusCode).toBe(403);
  });

  it('refuses a duplicate name (409) and reminders that are not 0-365 whole days, at most 10, each once', async () => {
    const admin = c.users.admin.token;
    await call('POST', '/document-types', admin, { name: 'Work permit', expires: true });
    expect((await call('POST', '/document-types', admin, { name: 'Work permit' })).statusCode).toBe(409);
    for (const notify_days_before of [[-1], [400], [1.5], [7, 7], Array.from({ length: 11 }, (_, i) => i), '30']) {
      const res = await call('POST', '/document-types', admin, {
        name: `Bad ${JSON.stringify(notify_days_before)}`,
        notify_days_before,
      });
      expect({ notify_days_before, status: res.statusCode, field: res.json().error?.details?.[0]?.field }).toEqual({
        notify_days_before,
        status: 400,
        field: 'notify_days_before',
      });
    }
  });
});

type Doc = Record<string, unknown> & { id: number; version: number; status: string; sha256: string };

/** How many files a store holds, and how to stop it. */
interface StorageDriver {
  env: Record<string, string>;
  count(): Promise<number>;
  close(): Promise<void>;
}

async function localStorage(): Promise<StorageDriver> {
  const dir = mkdtempSync(join(tmpdir(), 'hr-document-files-'));
  const count = () => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return {
    env: { FILE_STORAGE: `local:${dir}` },
    count: () => Promise.resolve(count()),
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

async function s3Storage(): Promise<StorageDriver> {
  const s3 = await startS3Emulator();
  return { env: s3.env, count: () => s3.objectCount(), close: () => s3.close() };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The company's day `offset` days from today (no Time Zone set: UTC's). */
const day = (offset: number) => addDays(new Date().toISOString().slice(0, 10), offset);

/** Employee documents (issue 28): uploads, versions, downloads, scope, refusals, deletion, on each storage driver. */
describe.each([
  ['local disk', localStorage],
  ['S3 (s3rver)', s3Storage],
])('employee documents on %s', (_name, makeDriver) => {
  let driver: StorageDriver;
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ok: ReturnType<typeof okCaller>;
  let admin: string;
  const types = { passport: 0, contract: 0, secret: 0 };

  const upload = (token: string, employee: number, parts: FormPart[], path = '') => {
    const form = multipartForm(parts);
    return t.app.inject({
      method: 'POST',
      url: `/app/api/employees/${employee}/documents${path}`,
      headers: { ...bearer(token), ...form.headers },
      payload: form.payload,
    });
  };
  const pdfPart = (data: Buffer = SAMPLE_FILES.pdf(), filename = 'passport.pdf', type = 'application/pdf'): FormPart => ({
    name: 'file',
    filename,
    type,
    data,
  });
  const uploaded = async (token: string, employee: number, parts: FormPart[], path = ''): Promise<Doc> => {
    const res = await upload(token, employee, parts, path);
    expect({ status: res.statusCode, body: res.statusCode === 200 ? null : res.json() }).toEqual({ status: 200, body: null });
    return res.json().data as Doc;
  };
  const download = (token: string, path: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/app/api${path}`, headers: { ...bearer(token), ...headers } });
  const rows = async () => Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM documents'))[0].n);

  beforeAll(async () => {
    driver = await makeDriver();
    t = await createTestApp(driver.env);
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ok = okCaller(t.app);
    admin = c.users.admin.token;
    types.passport = (await ok('POST', '/document-types', admin, { name: 'Passport', expires: true })).id;
    types.contract = (
      await ok('POST', '/document-types', admin, { name: 'Contract', visible_to_manager: true, employee_may_upload: true })
    ).id;
    types.secret = (await ok('POST', '/document-types', admin, { name: 'Disciplinary note', visible_to_employee: false })).id;
  });
  afterAll(async () => {
    await t.close();
    await driver.close();
  });

  it('uploads a document, lists and reads it, and streams it back with safe headers, by range too', async () => {
    const file = SAMPLE_FILES.pdf('x'.repeat(5000));
    const doc = await uploaded(admin, c.emp.report1, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_from', value: day(-300) },
      { name: 'valid_until', value: day(3000) },
      { name: 'notes', value: 'Checked at the desk' },
      pdfPart(file),
    ]);
    expect(doc).toEqual({
      id: expect.any(Number),
      employee: c.emp.report1,
      document_type: types.passport,
      name: 'Passport',
      file_name: 'passport.pdf',
      content_type: 'application/pdf',
      size: file.length,
      sha256: sha256(file),
      valid_from: day(-300),
      valid_until: day(3000),
      status: 'Valid',
      version: 1,
      notes: 'Checked at the desk',
      uploaded_by: c.users.admin.user.id,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await ok('GET', `/employees/${c.emp.report1}/documents/${doc.id}`, admin)).toEqual(doc);
    // A type with documents stays.
    const typeInUse = await call('DELETE', `/document-types/${types.passport}`, admin);
    expect([typeInUse.statusCode, typeInUse.json().error.code]).toEqual([409, 'IN_USE']);
    const list = await call(
      'GET',
      `/employees/${c.emp.report1}/documents?filters=${encodeURIComponent(`{"status":"Valid"}`)}`,
      admin,
    );
    expect(list.json().data.map((d: Doc) => d.id)).toContain(doc.id);

    const path = `/employees/${c.emp.report1}/documents/${doc.id}/file`;
    const whole = await download(admin, path);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(file)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': String(file.length),
      'content-disposition': `attachment; filename="passport.pdf"; filename*=UTF-8''passport.pdf`,
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
      etag: `"${sha256(file)}"`,
      'accept-ranges': 'bytes',
    });
    const part = await download(admin, path, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${file.length}`);
    expect(part.rawPayload.equals(file.subarray(100, 200))).toBe(true);
    const tail = await download(admin, path, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(file.subarray(file.length - 10))).toBe(true);
    const open = await download(admin, path, { range: `bytes=${file.length - 5}-` });
    expect(open.rawPayload.equals(file.subarray(file.length - 5))).toBe(true);
    const outside = await download(admin, path, { range: `bytes=${file.length}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${file.length}`);
    expect(outside.json().error.code).toBe('RANGE_NOT_SATISFIABLE');
    // Several ranges, or a range for another version of the file (If-Range): the whole file.
    expect((await download(admin, path, { range: 'bytes=0-1,5-6' })).statusCode).toBe(200);
    expect((await download(admin, path, { range: 'bytes=0-1', 'if-range': '"other"' })).statusCode).toBe(200);
    const cached = await download(admin, path, { 'if-none-match': `"${sha256(file)}"` });
    expect(cached.statusCode).toBe(304);

    // Who read whose passport: every download is audited (the 304 sent nothing).
    const audit = await ok(
      'GET',
      `/employees/${c.emp.report1}/audit-log?limit=100&filters=${encodeURIComponent('{"resource":"employees/documents"}')}`,
      admin,
    );
    const actions = (audit as Array<{ action: string; resource_id: string }>).filter((a) => a.resource_id === String(doc.id));
    expect(actions.filter((a) => a.action === 'download')).toHaveLength(6);
    expect(actions.filter((a) => a.action === 'upload')).toHaveLength(1);
  });

  it('keeps every version readable when a renewed file is uploaded', async () => {
    const first = SAMPLE_FILES.pdf('first');
    const doc = await uploaded(admin, c.emp.report2, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_until', value: day(10) },
      pdfPart(first, 'old passport.pdf'),
    ]);
    expect(doc.status).toBe('Expiring');
    const second = SAMPLE_FILES.png();
    const renewed = await uploaded(
      admin,
      c.emp.report2,
      [
        { name: 'valid_from', value: day(0) },
        { name: 'valid_until', value: day(3650) },
        { name: 'file', filename: 'scan.png', type: 'image/png', data: second },
      ],
      `/${doc.id}/versions`,
    );
    expect(renewed).toMatchObject({
      id: doc.id,
      version: 2,
      status: 'Valid',
      file_name: 'scan.png',
      content_type: 'image/png',
      sha256: sha256(second),
      valid_until: day(3650),
    });
    const base = `/employees/${c.emp.report2}/documents/${doc.id}`;
    const versions = (await ok('GET', `${base}/versions`, admin)) as Array<Record<string, unknown>>;
    expect(versions.map((v) => [v.version, v.file_name, v.sha256, v.valid_until])).toEqual([
      [2, 'scan.png', sha256(second), day(3650)],
      [1, 'old passport.pdf', sha256(first), day(10)],
    ]);
    expect((await download(admin, `${base}/versions/1/file`)).rawPayload.equals(first)).toBe(true);
    expect((await download(admin, `${base}/versions/2/file`)).rawPayload.equals(second)).toBe(true);
    expect((await download(admin, `${base}/file`)).rawPayload.equals(second)).toBe(true);
    expect((await download(admin, `${base}/versions/3/file`)).statusCode).toBe(404);
  });

  it('refuses a file that is not what it claims, HTML and SVG, a zip that is no Office file (415): nothing stored', async () => {
    const files = await driver.count();
    const docs = await rows();
    const passport = { name: 'document_type', value: String(types.passport) };
    const until = { name: 'valid_until', value: day(100) };
    const cases: Array<[string, FormPart]> = [
      ['a PDF renamed .png', pdfPart(SAMPLE_FILES.pdf(), 'photo.png', 'application/octet-stream')],
      ['a PDF declared image/png', pdfPart(SAMPLE_FILES.pdf(), 'photo', 'image/png')],
      ['HTML', pdfPart(Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'), 'page.html', 'text/html')],
      ['HTML as text', pdfPart(Buffer.from('  <html><body onload="x()">hi</body></html>'), 'notes.txt', 'text/plain')],
      ['SVG', pdfPart(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'), 'x.svg', 'image/svg+xml')],
      ['a plain zip', pdfPart(SAMPLE_FILES.zip(), 'bundle.zip', 'application/zip')],
      ['binary junk', pdfPart(Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0]), 'data.bin')],
    ];
    for (const [what, file] of cases) {
      const res = await upload(admin, c.emp.report1, [passport, until, file]);
      expect({ what, status: res.statusCode, code: res.json().error?.code }).toEqual({
        what,
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
      });
    }
    // What is allowed passes: a DOCX (told by its entries) and text.
    const docx = await uploaded(admin, c.emp.report1, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(SAMPLE_FILES.docx(), 'contract.docx', 'application/octet-stream'),
    ]);
    expect(docx.content_type).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    // Bad fields: the stored file is removed again.
    const bad = await upload(admin, c.emp.report1, [{ name: 'document_type', value: String(types.passport) }, pdfPart()]);
    expect(bad.json().error.details).toEqual([
      { field: 'valid_until', message: 'is required: documents of type Passport expire' },
    ]);
    const noType = await upload(admin, c.emp.report1, [{ name: 'document_type', value: '999999' }, pdfPart()]);
    expect(noType.json().error.details).toEqual([{ field: 'document_type', message: 'does not exist' }]);
    const noFile = await upload(admin, c.emp.report1, [passport, until]);
    expect(noFile.json().error.details).toEqual([{ field: 'file', message: 'is required: a "file" part with the document' }]);
    const json = await call('POST', `/employees/${c.emp.report1}/documents`, admin, { document_type: types.passport });
    expect(json.statusCode).toBe(415);
    expect(await driver.count()).toBe(files + 1);
    expect(await rows()).toBe(docs + 1);
  });

  it('refuses a file over DOCUMENT_MAX_BYTES (413) and an upload cut off mid-stream (400), keeping nothing', async () => {
    const files = await driver.count();
    const docs = await rows();
    const big = Buffer.concat([SAMPLE_FILES.pdf(), Buffer.alloc(21 * 1024 * 1024, 0x20)]);
    const tooLarge = await upload(admin, c.emp.report1, [{ name: 'document_type', value: String(types.contract) }, pdfPart(big)]);
    expect(tooLarge.statusCode).toBe(413);
    // Without a Content-Length the limit holds while the file streams in.
    const form = multipartForm([{ name: 'document_type', value: String(types.contract) }, pdfPart(big)]);
    const limits = t.config.documents;
    const store = t.app.get<FileStore>(FILE_STORE);
    await expect(
      receiveUpload(store, { headers: form.headers, body: Readable.from([form.payload]) }, limits),
    ).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    });
    // A client that hangs up half-way through the file.
    const cut = form.payload.subarray(0, 3 * 1024 * 1024);
    let sent = false;
    const hangsUp = new Readable({
      read() {
        if (sent) return this.destroy(new Error('connection reset'));
        sent = true;
        this.push(cut);
      },
    });
    await expect(receiveUpload(store, { headers: form.headers, body: hangsUp }, limits)).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    expect(await driver.count()).toBe(files);
    expect(await rows()).toBe(docs);
  });

  it('stores a path-traversal file name under a random key and offers it back with a safe Content-Disposition', async () => {
    const text = Buffer.from('root:x:0:0:root:/root:/bin/bash\n');
    const doc = await uploaded(admin, c.emp.report1, [
      { name: 'document_type', value: String(types.contract) },
      { name: 'file', filename: '../../etc/passwd', type: 'text/plain', data: text },
    ]);
    expect(doc).toMatchObject({ file_name: 'passwd', content_type: 'text/plain' });
    const res = await download(admin, `/employees/${c.emp.report1}/documents/${doc.id}/file`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="passwd"; filename*=UTF-8''passwd`);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const [{ file_key: key }] = await t.app.get(DataSource).query('SELECT file_key FROM documents WHERE id = ?', [doc.id]);
    expect(key).toMatch(KEY_PATTERN);
    expect(JSON.stringify(doc)).not.toContain(key);

    const unicode = await uploaded(admin, c.emp.report1, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(SAMPLE_FILES.pdf(), 'Zeugnis "Müller"; 2026.pdf'),
    ]);
    const named = await download(admin, `/employees/${c.emp.report1}/documents/${unicode.id}/file`);
    expect(named.headers['content-disposition']).toBe(
      `attachment; filename="Zeugnis _M_ller__ 2026.pdf"; filename*=UTF-8''Zeugnis%20%22M%C3%BCller%22%3B%202026.pdf`,
    );
  });

  it('lets each level do what docs/api/decisions.md §14 says: HR everything in scope, a Manager its reports’ manager-visible types, an Employee its own', async () => {
    const { employee, manager, restricted } = c.users;
    const mine = (type: number, name: string) =>
      uploaded(admin, c.emp.report1, [
        { name: 'document_type', value: String(type) },
        { name: 'name', value: name },
        { name: 'valid_until', value: day(400) },
        pdfPart(),
      ]);
    const passport = await mine(types.passport, 'Scope passport');
    const contract = await mine(types.contract, 'Scope contract');
    const secret = await mine(types.secret, 'Scope note');
    const outsiders = await uploaded(admin, c.emp.outsider, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(),
    ]);
    const base = `/employees/${c.emp.report1}/documents`;
    const names = async (token: string) =>
      ((await ok('GET', `${base}?limit=100&search=Scope`, token)) as Doc[]).map((d) => d.name).sort();

    expect(await names(admin)).toEqual(['Scope contract', 'Scope note', 'Scope passport']);
    expect(await names(restricted.token)).toEqual(['Scope contract', 'Scope note', 'Scope passport']);
    expect(await names(employee.token)).toEqual(['Scope contract', 'Scope passport']);
    expect(await names(manager.token)).toEqual(['Scope contract']);
    expect((await call('GET', `${base}/${secret.id}`, employee.token)).statusCode).toBe(404);
    expect((await call('GET', `${base}/${passport.id}`, manager.token)).statusCode).toBe(404);
    expect((await download(manager.token, `${base}/${passport.id}/file`)).statusCode).toBe(404);
    expect((await download(manager.token, `${base}/${contract.id}/file`)).statusCode).toBe(200);
    expect((await download(employee.token, `${base}/${secret.id}/file`)).statusCode).toBe(404);
    // Out of scope: the Restricted Admin's departments hold no Sales employee; an Employee has only itself.
    const outside = `/employees/${c.emp.outsider}/documents`;
    for (const token of [restricted.token, manager.token, employee.token, c.users.orphan.token]) {
      expect((await call('GET', outside, token)).statusCode).toBe(404);
      expect((await call('GET', `${outside}/${outsiders.id}`, token)).statusCode).toBe(404);
      expect(
        (await upload(token, c.emp.outsider, [{ name: 'document_type', value: String(types.contract) }, pdfPart()])).statusCode,
      ).toBe(404);
    }
    // Uploads: the employee its own where the type allows; a Manager never.
    const own = await uploaded(employee.token, c.emp.report1, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(),
    ]);
    expect(own.uploaded_by).toBe(employee.user.id);
    const refused = await upload(employee.token, c.emp.report1, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_until', value: day(400) },
      pdfPart(),
    ]);
    expect(refused.statusCode).toBe(403);
    expect(
      (await upload(manager.token, c.emp.report1, [{ name: 'document_type', value: String(types.contract) }, pdfPart()]))
        .statusCode,
    ).toBe(403);
    expect((await upload(employee.token, c.emp.report1, [pdfPart()], `/${contract.id}/versions`)).statusCode).toBe(200);
    expect(
      (
        await upload(
          employee.token,
          c.emp.report1,
          [{ name: 'valid_until', value: day(9) }, pdfPart()],
          `/${passport.id}/versions`,
        )
      ).statusCode,
    ).toBe(403);
    // Changes and deletions are HR's.
    expect((await call('PUT', `${base}/${contract.id}`, employee.token, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('DELETE', `${base}/${contract.id}`, manager.token)).statusCode).toBe(403);
    expect((await call('PUT', `${base}/${contract.id}`, restricted.token, { name: 'Signed contract' })).json().data.name).toBe(
      'Signed contract',
    );
    // The company-wide list: HR only, a Restricted Admin sees its departments'.
    const everywhere = (await ok(
      'GET',
      `/documents?limit=100&filters=${encodeURIComponent(`{"document_type":${types.contract}}`)}`,
      admin,
    )) as Doc[];
    expect(everywhere.map((d) => d.employee)).toContain(c.emp.outsider);
    const departments = (await ok(
      'GET',
      `/documents?limit=100&filters=${encodeURIComponent(`{"document_type":${types.contract}}`)}`,
      restricted.token,
    )) as Doc[];
    expect(departments.length).toBeGreaterThan(0);
    expect(departments.map((d) => d.employee)).not.toContain(c.emp.outsider);
    for (const token of [manager.token, employee.token]) expect((await call('GET', '/documents', token)).statusCode).toBe(403);
  });

  it('GET /documents: what expires soonest first, filtered by status, type, employee and valid_until_before', async () => {
    const soon = await uploaded(admin, c.emp.grandReport, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_until', value: day(5) },
      pdfPart(),
    ]);
    const later = await uploaded(admin, c.emp.grandReport, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_until', value: day(20) },
      pdfPart(),
    ]);
    await uploaded(admin, c.emp.grandReport, [
      { name: 'document_type', value: String(types.passport) },
      { name: 'valid_until', value: day(200) },
      pdfPart(),
    ]);
    const filters = (f: object) => `/documents?filters=${encodeURIComponent(JSON.stringify(f))}`;
    const found = (await ok('GET', filters({ employee: c.emp.grandReport, status: 'Expiring' }), admin)) as Doc[];
    expect(found.map((d) => d.id)).toEqual([soon.id, later.id]);
    const quarter = (await ok('GET', filters({ employee: c.emp.grandReport, valid_until_before: day(20) }), admin)) as Doc[];
    expect(quarter.map((d) => d.id)).toEqual([soon.id, later.id]);
    const week = (await ok('GET', filters({ employee: c.emp.grandReport, valid_until_before: day(19) }), admin)) as Doc[];
    expect(week.map((d) => d.id)).toEqual([soon.id]);
    const bad = await call('GET', filters({ valid_until_before: [day(1), day(2)] }), admin);
    expect(bad.json().error.details).toEqual([{ field: 'filters.valid_until_before', message: 'must be one value' }]);
    expect((await call('GET', filters({ status: 'Lost' }), admin)).statusCode).toBe(400);
  });

  it('PUT changes the metadata and the status follows; DELETE removes the rows now and the files by a job, retried until done', async () => {
    const doc = await uploaded(admin, c.emp.report2, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(SAMPLE_FILES.pdf('to delete')),
    ]);
    const base = `/employees/${c.emp.report2}/documents/${doc.id}`;
    expect(doc.status).toBe('No expiry');
    const changed = await ok('PUT', base, admin, { valid_until: day(-1), name: 'Old contract' });
    expect(changed).toMatchObject({ status: 'Expired', name: 'Old contract', valid_until: day(-1), version: 1 });
    expect((await call('PUT', base, admin, { valid_from: day(0) })).json().error.details).toEqual([
      { field: 'valid_until', message: 'must not be before valid_from' },
    ]);
    expect((await call('PUT', base, admin, { document_type: types.passport, valid_until: null })).statusCode).toBe(400);
    await uploaded(admin, c.emp.report2, [pdfPart(SAMPLE_FILES.pdf('v2'))], `/${doc.id}/versions`);

    const store = t.app.get<FileStore>(FILE_STORE);
    const keys = (
      await t.app.get(DataSource).query('SELECT file_key FROM document_versions WHERE document_id = ?', [doc.id])
    ).map((r: { file_key: string }) => r.file_key);
    expect(keys).toHaveLength(2);
    // The store refuses at first: the removals wait, counted, and the next run removes them.
    const refuse = jest.spyOn(store, 'remove').mockRejectedValue(new Error('store unavailable'));
    expect(await ok('DELETE', base, admin)).toEqual({ id: doc.id });
    expect((await call('GET', base, admin)).statusCode).toBe(404);
    const pending = async () =>
      t.app.get(DataSource).query<Array<{ attempts: number }>>('SELECT attempts FROM document_file_removals');
    await until(async () => (await pending()).some((p) => Number(p.attempts) > 0), 5000);
    for (const key of keys) expect(await store.exists(key)).toBe(true);
    refuse.mockRestore();
    expect(await t.app.get(DocumentJobsService).removeFiles()).toEqual({ removed: 2, failed: 0 });
    for (const key of keys) expect(await store.exists(key)).toBe(false);
    expect(await pending()).toEqual([]);
  });

  it("deleting an employee deletes its documents' files", async () => {
    const leaver = (await t.app.get(EmployeesService).create(employeeBody())).id;
    const a = await uploaded(admin, leaver, [
      { name: 'document_type', value: String(types.contract) },
      pdfPart(SAMPLE_FILES.pdf('a')),
    ]);
    await uploaded(admin, leaver, [pdfPart(SAMPLE_FILES.pdf('a2'))], `/${a.id}/versions`);
    await uploaded(admin, leaver, [{ name: 'document_type', value: String(types.contract) }, pdfPart(SAMPLE_FILES.pdf('b'))]);
    const keys = (
      await t.app
        .get(DataSource)
        .query('SELECT v.file_key FROM document_versions v JOIN documents d ON d.id = v.document_id WHERE d.employee_id = ?', [
          leaver,
        ])
    ).map((r: { file_key: string }) => r.file_key);
    expect(keys).toHaveLength(3);
    const store = t.app.get<FileStore>(FILE_STORE);
    await ok('DELETE', `/employees/${leaver}`, admin);
    await until(async () => !(await Promise.all(keys.map((k: string) => store.exists(k)))).some(Boolean), 10_000);
    expect(
      Number((await t.app.get(DataSource).query('SELECT COUNT(*) AS n FROM documents WHERE employee_id = ?', [leaver]))[0].n),
    ).toBe(0);
  });
});

/** The daily expiry run (issue 28): statuses, reminders as tasks and webhook events, once per document, version and mark. */
describe('document expiry reminders', () => {
  let t: TestApp;
  let second: TestApp | null = null;
  let c: Company;
  let ok: ReturnType<typeof okCaller>;

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    ok = okCaller(t.app);
    // Two workers: on MariaDB a second application on the same database, racing for real.
    if (INTEGRATION) second = await createTestApp({}, { keepDatabase: true });
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  it('marks documents Expiring and Expired and reminds HR and the employee once per mark, even with two workers', async () => {
    const admin = c.users.admin.token;
    const passport = (await ok('POST', '/document-types', admin, { name: 'Passport', expires: true })).id;
    const hidden = (await ok('POST', '/document-types', admin, { name: 'Visa', expires: true, visible_to_employee: false })).id;
    const form = (type: number, until: string) =>
      multipartForm([
        { name: 'document_type', value: String(type) },
        { name: 'valid_until', value: until },
        { name: 'file', filename: 'scan.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf() },
      ]);
    const add = async (type: number, until: string) => {
      const f = form(type, until);
      const res = await t.app.inject({
        method: 'POST',
        url: `/app/api/employees/${c.emp.report1}/documents`,
        headers: { ...bearer(admin), ...f.headers },
        payload: f.payload,
      });
      return res.json().data as Doc;
    };
    const month = await add(passport, day(30));
    const soon = await add(passport, day(3));
    const far = await add(passport, day(100));
    const visa = await add(hidden, day(2));
    const jobs = [t.app.get(DocumentJobsService), (second ?? t).app.get(DocumentJobsService)];
    const ds = t.app.get(DataSource);
    const events = async () =>
      (
        await ds.query(
          "SELECT event, payload FROM outbox_events WHERE event IN ('document.expiring', 'document.expired') ORDER BY id",
        )
      ).map((r: { event: string; payload: string }) => [r.event, JSON.parse(r.payload).id, JSON.parse(r.payload).days_left]);
    const tasks = async (token: string) =>
      (
        (await ok('GET', '/tasks?limit=100&filters=%7B%22source%22%3A%22document-expiry%22%7D', token)) as Array<{
          title: string;
        }>
      ).map((x) => x.title);
    const status = async (d: Doc) => ((await ok('GET', `/employees/${c.emp.report1}/documents/${d.id}`, admin)) as Doc).status;

    // Today: the 30-day mark of one, the 7-day mark of two; both workers at once make each once.
    const runs = await Promise.all(jobs.map((j) => j.runExpiry()));
    expect(runs[0].reminders + runs[1].reminders).toBe(3);
    expect(await events()).toEqual([
      ['document.expiring', month.id, 30],
      ['document.expiring', soon.id, 3],
      ['document.expiring', visa.id, 2],
    ]);
    expect((await jobs[0].runExpiry()).reminders).toBe(0);
    expect([await status(month), await status(soon), await status(far)]).toEqual(['Expiring', 'Expiring', 'Valid']);
    // The employee's HR: the Restricted Admin of Engineering (Platform's parent); the employee for the types it sees.
    const name = (await t.app.get(EmployeeFactsService).displayName(c.emp.report1))!;
    await until(async () => (await tasks(c.users.restricted.token)).length === 3, 5000);
    expect((await tasks(c.users.restricted.token)).sort()).toEqual(
      [
        `Passport of ${name} expires in 30 days (${day(30)})`,
        `Passport of ${name} expires in 3 days (${day(3)})`,
        `Visa of ${name} expires in 2 days (${day(2)})`,
      ].sort(),
    );
    expect((await tasks(c.users.employee.token)).length).toBe(2);
    expect(await tasks(admin)).toEqual([]);

    // Four days on: two expired (one reminder each, whatever the number of runs); the 30-day one has no new mark.
    const later = await Promise.all(jobs.map((j) => j.runExpiry(day(4))));
    expect(later[0].reminders + later[1].reminders).toBe(2);
    expect((await events()).slice(3)).toEqual([
      ['document.expired', soon.id, -1],
      ['document.expired', visa.id, -2],
    ]);
    // Twenty-four days on: the 7-day mark of the month's document.
    expect((await jobs[0].runExpiry(day(24))).reminders).toBe(1);
    expect((await events()).slice(5)).toEqual([['document.expiring', month.id, 6]]);

    // A renewed passport: its reminder tasks are done.
    const renewal = multipartForm([
      { name: 'valid_until', value: day(3650) },
      { name: 'file', filename: 'new.pdf', type: 'application/pdf', data: SAMPLE_FILES.pdf('new') },
    ]);
    const renewed = await t.app.inject({
      method: 'POST',
      url: `/app/api/employees/${c.emp.report1}/documents/${month.id}/versions`,
      headers: { ...bearer(admin), ...renewal.headers },
      payload: renewal.payload,
    });
    expect(renewed.json().data).toMatchObject({ version: 2, status: 'Valid' });
    await t.app.get(OutboxRelay).drain(); // the tasks are done by the relay's tasks subscriber
    const open = async () =>
      (
        (await ok('GET', '/tasks?limit=100&filters=%7B%22status%22%3A%22Open%22%7D', c.users.restricted.token)) as Array<{
          link: string;
        }>
      ).filter((x) => x.link.endsWith(`/documents/${month.id}`));
    // With two workers the other process's relay may hold the event's claim when this one drains.
    await until(async () => (await open()).length === 0, 10_000);
    expect(await open()).toEqual([]);
  });
});
