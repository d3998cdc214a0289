import { IMPORT_KIND_NAMES } from '../src/common/import/import-kinds.constants';
import ExcelJS from 'exceljs';
import { multipartForm } from './helpers/multipart';
import JSZip from 'jszip';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { XLSX_TYPE } from '../src/common/export/sheet-writers';
import { EmployeesService } from '../src/employees/employees.service';
import { rebuildInsightRollups } from '../src/database/insight-rollups';
import { ImportRecord } from '../src/imports/entities/import.entities';
import { ImportFiles } from '../src/imports/import-files';
import { FILE_STORE, FileStore } from '../src/common/storage/file-store';
import { MaintenanceService } from '../src/maintenance/maintenance.service';
import { Employee } from '../src/employees/entities/employee.entity';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { createDemoApp } from './helpers/demo-app';
import {
  apiCaller,
  bearer,
  createTestApp,
  createUser,
  itTimed,
  longestPause,
  processPayroll,
  TestApp,
  until,
} from './helpers/test-app';

interface ImportBody {
  id: number;
  status: string;
  rows_total: number;
  rows_valid: number;
  rows_failed: number;
  progress: number;
  error: string | null;
  dry_run: boolean;
  file_name: string;
}

describe('imports of CSV and XLSX files (issue 27, docs/api/decisions.md §13)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  let ds: DataSource;
  const dir = mkdtempSync(join(tmpdir(), 'hr-imports-'));

  beforeAll(async () => {
    t = await createTestApp({
      IMPORT_DIR: dir,
      IMPORT_MAX_UNZIPPED_BYTES: '4mb',
      IMPORT_MAX_ROWS: '5000',
      IMPORT_MAX_BYTES: '1mb',
    });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    ds = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  const upload = (body: string | Buffer, query: string, token = c.users.admin.token, type = 'text/csv', name = 'people.csv') =>
    t.app.inject({
      method: 'POST',
      url: `/app/api/imports?${query}`,
      headers: { ...bearer(token), 'content-type': type, 'content-disposition': `attachment; filename="${name}"` },
      payload: body,
    });

  /** Uploads and waits for the import to end; its record. */
  async function imported(
    body: string | Buffer,
    query: string,
    token = c.users.admin.token,
    type = 'text/csv',
  ): Promise<ImportBody> {
    const res = await upload(body, query, token, type);
    expect(res.statusCode).toBe(202);
    return finished(res.json<{ data: ImportBody }>().data.id, token);
  }

  async function finished(id: number, token = c.users.admin.token): Promise<ImportBody> {
    let record: ImportBody | null = null;
    await until(async () => {
      record = (await call('GET', `/imports/${id}`, token)).json().data as ImportBody;
      return ['Validated', 'Completed', 'Failed'].includes(record.status);
    }, 20_000);
    return record!;
  }

  const errorsOf = async (id: number, token = c.users.admin.token) =>
    (await call('GET', `/imports/${id}/errors?limit=500`, token)).json().data as Array<{
      row: number;
      column: string | null;
      field: string | null;
      message: string;
    }>;

  const store = () => t.app.get<FileStore>(FILE_STORE);
  const countEmployees = () => ds.getRepository(Employee).count();
  const byEmployeeId = (employeeId: string) => ds.getRepository(Employee).findOne({ where: { employeeId } });
  const deptName = async (id: number) =>
    (await call('GET', `/departments/${id}`, c.users.admin.token)).json().data.name as string;

  it('a file sent as a form (curl -F) is refused with 415 saying how to send it (Hardening IV item 9)', async () => {
    const form = multipartForm([{ name: 'file', filename: 'people.csv', type: 'text/csv', data: Buffer.from('employee_id\n') }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=employees',
      headers: { ...bearer(c.users.admin.token), ...form.headers },
      payload: form.payload,
    });
    expect([res.statusCode, res.json().error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(res.json().error.message).toMatch(
      /^POST \/imports takes the file itself as the body, not a form: Content-Type text\/csv/,
    );
  });

  it('gives a template of the kind: its columns and one example row, as CSV and XLSX', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/app/api/imports/templates/employees',
      headers: bearer(c.users.admin.token),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, example] = res.body.trim().split('\r\n');
    expect(header.split(',').slice(0, 4)).toEqual(['employee_id', 'first_name', 'middle_name', 'last_name']);
    expect(example).toContain('E0100');
    const xlsx = await t.app.inject({
      method: 'GET',
      url: '/app/api/imports/templates/attendance?format=xlsx',
      headers: bearer(c.users.admin.token),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe(XLSX_TYPE);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets[0].getRow(1).getCell(1).value).toBe('employee');
  });

  it('a dry run reports every bad row and changes nothing; commit in all-or-nothing is refused, with valid-rows it imports the valid rows', async () => {
    const engineering = await deptName(c.departments.engineering);
    const taken = (await t.app.get(EmployeesService).create(employeeBody({ work_email: 'taken@company.test' }))).employee_id;
    const before = await countEmployees();
    const csv = [
      'Employee ID,First name,last_name,joined_date,Department,birthday,work_email,supervisor,Shoe size',
      `N001,Ada,Lovelace,2024-01-15,${engineering},1990-12-10,ada@company.test,,44`,
      'N002,Bad,Date,2024-01-15,,1990-13-45,,,',
      'N003,No,Where,2024-01-15,Nowhere,,,,',
      'N001,Twice,Again,2024-01-15,,,,,',
      `N004,Mail,Taken,2024-01-15,,,taken@company.test,,`,
      `N005,Grace,Hopper,2024-02-01,${c.departments.platform},,grace@company.test,N001,`,
      `N006,Boss,Missing,2024-02-01,,,,ZZZ,`,
      `N007,Reports,ToInvalid,2024-02-01,,,,N002,`,
    ].join('\n');
    const dry = await imported(csv, 'kind=employees');
    expect(dry).toMatchObject({
      status: 'Validated',
      dry_run: true,
      rows_total: 8,
      rows_failed: 6,
      rows_valid: 2,
      progress: 100,
    });
    expect(dry.file_name).toBe('people.csv');
    const errors = await errorsOf(dry.id);
    expect(errors).toEqual([
      { row: 0, column: 'Shoe size', field: null, message: 'is not a column of this kind: ignored' },
      { row: 2, column: 'birthday', field: 'birthday', message: expect.stringMatching(/date/) },
      { row: 3, column: 'Department', field: 'department', message: 'no department is named "Nowhere"' },
      { row: 4, column: 'Employee ID', field: 'employee_id', message: 'appears twice in the file (first at row 1)' },
      { row: 5, column: 'work_email', field: 'work_email', message: 'already used' },
      { row: 7, column: 'supervisor', field: 'supervisor', message: 'employee does not exist' },
      { row: 8, column: 'supervisor', field: 'supervisor', message: 'is the employee_id of row 2, which is not valid' },
    ]);
    expect(await countEmployees()).toBe(before);
    expect(taken).toBeDefined();
    // The dry run keeps its file in the file store for the commit.
    const key = (await ds.getRepository(ImportRecord).findOneByOrFail({ id: dry.id })).fileKey!;
    expect(await store().exists(key)).toBe(true);

    const refused = await call('POST', `/imports/${dry.id}/commit`, c.users.admin.token);
    expect(refused.statusCode).toBe(409);
    const commit = await call('POST', `/imports/${dry.id}/commit?mode=valid-rows`, c.users.admin.token);
    expect(commit.statusCode).toBe(202);
    const done = await finished(dry.id);
    expect(done).toMatchObject({ status: 'Completed', dry_run: false, rows_total: 8, rows_valid: 2, rows_failed: 6 });
    const ada = await byEmployeeId('N001');
    const grace = await byEmployeeId('N005');
    expect(ada).toMatchObject({ firstName: 'Ada', departmentId: c.departments.engineering, birthday: '1990-12-10' });
    expect(grace).toMatchObject({ supervisorId: ada!.id, departmentId: c.departments.platform });
    expect(await countEmployees()).toBe(before + 2);
    // Audited as the uploader, under a request id naming the import; the webhook event with it.
    const audit = (
      await call(
        'GET',
        `/audit-log?filters=${encodeURIComponent(JSON.stringify({ resource: 'employees', resource_id: String(ada!.id) }))}`,
        c.users.admin.token,
      )
    ).json().data;
    expect(audit[0]).toMatchObject({ action: 'create', actor: c.users.admin.user.id, request_id: `import-${dry.id}` });
    // The file is removed once the import ended (just after its end is recorded).
    await until(async () => !(await store().exists(key)), 5000);
    expect(await store().exists(key)).toBe(false);
    // Nor is the job's local copy left behind (removed in the same cleanup, a moment apart under load).
    await until(() => readdirSync(dir).length === 0, 5000).catch(() => undefined);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("an import runs with SQLite's page cache raised to 64 MiB and puts SQLITE_CACHE_MB back after it (MariaDB: untouched)", async () => {
    const sqlite = t.config.database.type === 'sqlite';
    // An earlier test's import puts the cache back just after it ends: wait for that first.
    const usual = async () => (await ds.query<Array<{ cache_size: number }>>('PRAGMA cache_size'))[0].cache_size === -2048;
    if (sqlite) await until(usual, 5000);
    const query = jest.spyOn(ds, 'query');
    try {
      const done = await imported(
        'employee_id,first_name,last_name,joined_date\nC001,Cache,Row,2024-01-01\n',
        'kind=employees&dry_run=false',
      );
      expect(done.status).toBe('Completed');
      const sizes = () => query.mock.calls.map(([sql]) => String(sql)).filter((sql) => sql.startsWith('PRAGMA cache_size ='));
      // The import is Completed inside the work; the cache is put back right after it.
      if (sqlite) await until(() => sizes().length === 2, 5000);
      expect(sizes()).toEqual(sqlite ? ['PRAGMA cache_size = -65536', 'PRAGMA cache_size = -2048'] : []);
      if (sqlite) expect(await usual()).toBe(true);
    } finally {
      query.mockRestore();
    }
  });

  it('all-or-nothing writes nothing when one row is invalid; a valid file is imported whole, updates matched on employee_id', async () => {
    const before = await countEmployees();
    const bad = await imported(
      'employee_id,first_name,last_name,joined_date\nA001,One,Row,2024-01-01\nA002,Two,Row,not-a-date\n',
      'kind=employees&dry_run=false',
    );
    expect(bad).toMatchObject({
      status: 'Failed',
      rows_total: 2,
      rows_failed: 1,
      error: '1 of 2 rows is invalid: nothing was imported',
    });
    expect(await byEmployeeId('A001')).toBeNull();
    expect(await countEmployees()).toBe(before);

    const good = await imported(
      'employee_id,first_name,last_name,joined_date\nA001,One,Row,2024-01-01\nN001,Augusta,Lovelace,2024-01-15\n',
      'kind=employees&dry_run=false',
    );
    expect(good).toMatchObject({ status: 'Completed', rows_total: 2, rows_valid: 2, rows_failed: 0 });
    expect(await byEmployeeId('A001')).toMatchObject({ firstName: 'One', status: 'Active' });
    expect(await byEmployeeId('N001')).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace' });
    expect(await countEmployees()).toBe(before + 1);
  });

  it("a Restricted Admin's import cannot touch an employee outside its departments, nor move one out of them", async () => {
    const get = async (id: number) =>
      (await call('GET', `/employees/${id}`, c.users.admin.token)).json().data as { employee_id: string; first_name: string };
    const inside = await get(c.emp.report2);
    const outside = await get(c.emp.outsider);
    const csv = [
      'employee_id,first_name,department',
      `${inside.employee_id},Renamed,`,
      `${outside.employee_id},Hijacked,`,
      `${inside.employee_id}X,New,${c.departments.platform}`,
    ].join('\n');
    const moved = `employee_id,department\n${inside.employee_id},${c.departments.sales}\n`;
    const run = await imported(csv, 'kind=employees&dry_run=false&mode=valid-rows', c.users.restricted.token);
    expect(run).toMatchObject({ status: 'Completed', rows_valid: 1, rows_failed: 2 });
    expect(await errorsOf(run.id, c.users.restricted.token)).toEqual([
      { row: 2, column: 'employee_id', field: 'employee_id', message: 'Employee not found' },
      { row: 3, column: 'employee_id', field: 'employee_id', message: 'new employees are created by an Admin only' },
    ]);
    expect((await byEmployeeId(inside.employee_id))!.firstName).toBe('Renamed');
    expect((await byEmployeeId(outside.employee_id))!.firstName).toBe(outside.first_name);
    const move = await imported(moved, 'kind=employees', c.users.restricted.token);
    expect(await errorsOf(move.id, c.users.restricted.token)).toEqual([
      { row: 1, column: 'department', field: 'department', message: 'may not be changed by you' },
    ]);
    // Its imports are its own: an Admin's are not listed, nor readable.
    const list = (await call('GET', '/imports', c.users.restricted.token)).json();
    expect(list.data.every((i: { created_by: number }) => i.created_by === c.users.restricted.user.id)).toBe(true);
    expect((await call('GET', '/imports/1', c.users.restricted.token)).statusCode).toBe(404);
    expect((await call('GET', '/imports', c.users.manager.token)).statusCode).toBe(403);
  });

  it("a commit runs as the dry run's uploader, as it is now: one deactivated since fails the import, writing nothing", async () => {
    const uploader = await createUser(t.app, 'Admin');
    const dry = await imported(
      'employee_id,first_name,last_name,joined_date\nDM1,Demoted,Uploader,2024-01-01\n',
      'kind=employees',
      uploader.token,
    );
    expect(dry).toMatchObject({ status: 'Validated', rows_valid: 1 });
    expect((await call('PUT', `/users/${uploader.user.id}`, c.users.admin.token, { active: false })).statusCode).toBe(200);
    expect((await call('POST', `/imports/${dry.id}/commit`, c.users.admin.token)).statusCode).toBe(202);
    expect(await finished(dry.id)).toMatchObject({
      status: 'Failed',
      error: 'The user who started the import is no longer an active administrator',
    });
    expect(await byEmployeeId('DM1')).toBeNull();
  });

  it('the daily purge removes the file of a dry run not committed within a week: its commit is then 409', async () => {
    const dry = await imported('employee_id,first_name,last_name,joined_date\nST1,Stale,Run,2024-01-01\n', 'kind=employees');
    const fresh = await imported('employee_id,first_name,last_name,joined_date\nST2,Fresh,Run,2024-01-01\n', 'kind=employees');
    const keyOf = async (id: number) => (await ds.getRepository(ImportRecord).findOneByOrFail({ id })).fileKey;
    const staleFile = (await keyOf(dry.id))!;
    const freshFile = (await keyOf(fresh.id))!;
    await ds.getRepository(ImportRecord).update({ id: dry.id }, { finishedAt: new Date(Date.now() - 8 * 86_400_000) });
    expect((await t.app.get(MaintenanceService).purge()).importFiles).toBe(1);
    expect([await store().exists(staleFile), await store().exists(freshFile), await keyOf(dry.id)]).toEqual([false, true, null]);
    const refused = await call('POST', `/imports/${dry.id}/commit`, c.users.admin.token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/no longer stored/);
    expect((await call('POST', `/imports/${fresh.id}/commit`, c.users.admin.token)).statusCode).toBe(202);
    expect(await finished(fresh.id)).toMatchObject({ status: 'Completed' });
  });

  it('an XLSX formula is imported as its cached value, never evaluated; date cells are dates', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('People');
    sheet.addRow(['employee_id', 'first_name', 'last_name', 'joined_date', 'birthday']);
    const row = sheet.addRow(['X001', null, 'Formula', new Date(Date.UTC(2024, 2, 1)), new Date(Date.UTC(1985, 6, 4))]);
    row.getCell(2).value = { formula: 'CONCATENATE("Li","sa")', result: 'Lisa' };
    row.getCell(4).numFmt = 'dd/mm/yyyy';
    row.getCell(5).numFmt = 'yyyy-mm-dd';
    sheet.addRow([1002, { formula: 'WEBSERVICE("http://evil.test")', result: 'Cached' }, 'Number', '2024-03-02']);
    const file = Buffer.from(await book.xlsx.writeBuffer());
    const done = await imported(file, 'kind=employees&dry_run=false', c.users.admin.token, XLSX_TYPE);
    expect(done).toMatchObject({ status: 'Completed', rows_valid: 2 });
    expect(await byEmployeeId('X001')).toMatchObject({ firstName: 'Lisa', joinedDate: '2024-03-01', birthday: '1985-07-04' });
    expect(await byEmployeeId('1002')).toMatchObject({ firstName: 'Cached', joinedDate: '2024-03-02' });
  });

  it('refuses a zip bomb, a file that is not what its type says, and a body over the size limit, without holding them in memory', async () => {
    const zip = new JSZip();
    zip.file('[Content_Types].xml', '<Types/>');
    zip.file('xl/workbook.xml', '<workbook><sheets><sheet name="a" sheetId="1" r:id="rId1"/></sheets></workbook>');
    zip.file(
      'xl/_rels/workbook.xml.rels',
      '<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    );
    zip.file('xl/sharedStrings.xml', Buffer.alloc(64 * 1024 * 1024, 0x20)); // 64 MiB of spaces, ~64 KiB packed
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const rss = process.memoryUsage().rss;
    const refused = await imported(bomb, 'kind=employees', c.users.admin.token, XLSX_TYPE);
    expect(refused.status).toBe('Failed');
    expect(refused.error).toMatch(/unpacks to more than 4 MiB/);
    expect(process.memoryUsage().rss - rss).toBeLessThan(48 * 1024 * 1024);

    // Past IMPORT_MAX_BYTES (1 MiB here): 413 from Content-Length, or while a body without it streams; nothing kept.
    const imports = async () => (await call('GET', '/imports?limit=1', c.users.admin.token)).json().total as number;
    const before = await imports();
    const big = `employee_id\n${'E1\n'.repeat(400_000)}`;
    expect((await upload(big, 'kind=employees')).statusCode).toBe(413);
    const streamed = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=employees',
      headers: { ...bearer(c.users.admin.token), 'content-type': 'text/csv' },
      payload: Readable.from([Buffer.from(big.slice(0, 700_000)), Buffer.from(big.slice(700_000))]),
    });
    expect(streamed.statusCode).toBe(413);
    // A body cut off half-way (a client that hangs up): refused, nothing kept, nothing left waiting.
    let sent = false;
    const cut = new Readable({
      read() {
        if (sent) return this.destroy(new Error('connection reset'));
        sent = true;
        this.push('employee_id\nE1\n');
      },
    });
    await expect(t.app.get(ImportFiles).save(cut)).rejects.toThrow('The upload was interrupted');
    expect(await imports()).toBe(before);
    const notXlsx = await upload('employee_id\nA1\n', 'kind=employees', c.users.admin.token, XLSX_TYPE);
    expect(notXlsx.statusCode).toBe(415);
    const binary = await upload(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]), 'kind=employees');
    expect(binary.statusCode).toBe(415);
    const unknownKind = await upload('a\n1\n', 'kind=payslips');
    expect(unknownKind.statusCode).toBe(400);
    // A file is a body of the upload route only.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/app/api/employees',
      headers: { ...bearer(c.users.admin.token), 'content-type': 'text/csv' },
      payload: 'employee_id\nA1\n',
    });
    expect(elsewhere.statusCode).toBe(415);
    const many = ['employee_id', ...Array.from({ length: 5002 }, (_, i) => `R${i}`)].join('\n');
    const tooMany = await imported(many, 'kind=employees');
    expect(tooMany).toMatchObject({ status: 'Failed', error: 'The file has more than 5000 rows; split it into several imports' });
    const longCell = await imported(`employee_id,first_name\nL1,${'x'.repeat(40_000)}\n`, 'kind=employees');
    expect(longCell).toMatchObject({ status: 'Failed', error: 'Line 2: a cell longer than 32767 characters' });
  });

  it('a CSV injection payload exported and imported again stays the same text, and is neutralized again in the next export', async () => {
    const payload = '=HYPERLINK("http://evil.test","x")';
    const created = await t.app.get(EmployeesService).create(employeeBody({ first_name: payload, employee_id: 'INJ1' }));
    const exported = await t.app.inject({
      method: 'GET',
      url: `/app/api/employees?format=csv&search=INJ1`,
      headers: bearer(c.users.admin.token),
    });
    expect(exported.body).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    // The list's columns that are employee fields (id and the names are read, the rest ignored).
    const again = await imported(exported.body, 'kind=employees&dry_run=false');
    expect(again.status).toBe('Completed');
    expect((await byEmployeeId('INJ1'))!.firstName).toBe(payload);
    expect(created.first_name).toBe(payload);
  });

  it('attendance: rows through POST /attendance (overlaps within the file too); a dry run leaves the insights rollups untouched, an import keeps them exact', async () => {
    const get = async (id: number) =>
      (await call('GET', `/employees/${id}`, c.users.admin.token)).json().data as { employee_id: string };
    const { employee_id: manager } = await get(c.emp.manager);
    const rollups = () => ds.query<Array<Record<string, unknown>>>('SELECT * FROM attendance_days ORDER BY day, department_id');
    const csv = [
      'Employee ID,In,Out,work_from_home',
      `${manager},2025-05-05T09:00:00Z,2025-05-05T17:00:00Z,yes`,
      `${manager},2025-05-05T16:00:00Z,2025-05-05T18:00:00Z,no`,
      `${c.emp.report2},2025-05-06T09:00:00+02:00,2025-05-06T12:00:00+02:00,`,
      `NOBODY,2025-05-06T09:00:00Z,,`,
      `${manager},yesterday,,`,
    ].join('\n');
    const before = await rollups();
    const dry = await imported(csv, 'kind=attendance');
    expect(dry).toMatchObject({ status: 'Validated', rows_total: 5, rows_valid: 2, rows_failed: 3 });
    expect((await errorsOf(dry.id)).map((e) => [e.row, e.column, e.message])).toEqual([
      [2, null, expect.stringMatching(/overlap|existing record/i)],
      [4, 'Employee ID', 'Employee not found'],
      [5, 'In', expect.stringMatching(/ISO 8601|date/)],
    ]);
    expect(await rollups()).toEqual(before);

    const done = await imported(csv, 'kind=attendance&dry_run=false&mode=valid-rows');
    expect(done).toMatchObject({ status: 'Completed', rows_valid: 2, rows_failed: 3 });
    const kept = await rollups();
    expect(kept).not.toEqual(before);
    await rebuildInsightRollups(ds);
    expect(await rollups()).toEqual(kept);
  });

  it('leave entitlements: leave type and period by name or id, the rules of POST /leave-entitlements', async () => {
    const admin = c.users.admin.token;
    const period = (
      await call('POST', '/leave-periods', admin, { name: 'P2031', date_start: '2031-01-01', date_end: '2031-12-31' })
    ).json().data.id;
    await call('POST', '/leave-types', admin, { name: 'Annual 2031', default_days: 20 });
    const get = async (id: number) => (await call('GET', `/employees/${id}`, admin)).json().data as { employee_id: string };
    const { employee_id: outsider } = await get(c.emp.outsider);
    const csv = [
      'employee,leave_type,leave_period,days',
      `${outsider},annual 2031,P2031,25`,
      `${outsider},Gardening,${period},3`,
      `${outsider},Annual 2031,P2031,-4`,
    ].join('\n');
    const done = await imported(csv, 'kind=leave-entitlements&dry_run=false&mode=valid-rows');
    expect(done).toMatchObject({ status: 'Completed', rows_valid: 1, rows_failed: 2 });
    expect((await errorsOf(done.id)).map((e) => [e.row, e.field])).toEqual([
      [2, 'leave_type'],
      [3, 'days'],
    ]);
    const list = (
      await call('GET', `/leave-entitlements?filters=${encodeURIComponent(JSON.stringify({ employee: c.emp.outsider }))}`, admin)
    ).json().data;
    expect(list).toContainEqual(expect.objectContaining({ leave_period: period, days: 25 }));
    // A Restricted Admin's rows for an employee outside its departments are refused as the route refuses them.
    const restricted = await imported(
      `employee,leave_type,leave_period,days\n${outsider},Annual 2031,P2031,10\n`,
      'kind=leave-entitlements&dry_run=false',
      c.users.restricted.token,
    );
    expect(restricted).toMatchObject({ status: 'Failed', rows_failed: 1 });
  });
});

describe('leave balance imports: opening entries of the leave ledger (issue 31)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;

  beforeAll(async () => {
    t = await createTestApp({ IMPORT_DIR: mkdtempSync(join(tmpdir(), 'hr-imports-')) });
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
  });
  afterAll(() => t.close());

  it('each row is an opening entry once per employee, type and day, in scope, with the import as its source', async () => {
    const admin = c.users.admin.token;
    const upload = (csv: string, query: string, token = admin) =>
      t.app.inject({
        method: 'POST',
        url: `/app/api/imports?kind=leave-balances&${query}`,
        headers: { ...bearer(token), 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="balances.csv"' },
        payload: csv,
      });
    const imported = async (csv: string, query: string, token = admin) => {
      const res = await upload(csv, query, token);
      expect(res.statusCode).toBe(202);
      let record: ImportBody | null = null;
      await until(async () => {
        record = (await call('GET', `/imports/${res.json().data.id}`, token)).json().data as ImportBody;
        return ['Validated', 'Completed', 'Failed'].includes(record.status);
      }, 20_000);
      const errors = (await call('GET', `/imports/${record!.id}/errors?limit=500`, token)).json().data as Array<{
        row: number;
        field: string;
        message: string;
      }>;
      return { record: record!, errors: errors.map((e) => [e.row, e.field]) };
    };
    const year = new Date().getUTCFullYear();
    for (const y of [year - 1, year])
      await call('POST', '/leave-periods', admin, { name: `B${y}`, date_start: `${y}-01-01`, date_end: `${y}-12-31` });
    const type = (await call('POST', '/leave-types', admin, { name: 'Vacation', default_days: 0 })).json().data.id;
    const code = async (id: number) => (await call('GET', `/employees/${id}`, admin)).json().data.employee_id as string;
    const [outsider, report1] = [await code(c.emp.outsider), await code(c.emp.report1)];
    const csv = [
      'Employee ID,Leave type,Days,Date,Note',
      `${outsider},vacation,7.5,${year - 1}-01-01,from the old system`,
      `${report1},${type},-2,,`,
      `${outsider},Gardening,1,${year}-01-01,`,
      `${outsider},Vacation,1,1990-01-01,`,
      `${outsider},Vacation,1.005,${year}-02-01,`,
      `${outsider},Vacation,3,${year - 1}-01-01,twice`,
    ].join('\n');
    const ledgerOf = async (id: number) =>
      (
        await call(
          'GET',
          `/employees/${id}/leave-ledger?filters=${encodeURIComponent(JSON.stringify({ kind: 'opening' }))}`,
          admin,
        )
      ).json().data as Array<{ date: string; days: number; source: string; source_id: number; note: string | null }>;

    const dry = await imported(csv, 'dry_run=true&mode=valid-rows');
    expect(dry.record).toMatchObject({ status: 'Validated', rows_valid: 2, rows_failed: 4 });
    expect(await ledgerOf(c.emp.outsider)).toEqual([]);

    const done = await imported(csv, 'dry_run=false&mode=valid-rows');
    expect(done.record).toMatchObject({ status: 'Completed', rows_valid: 2, rows_failed: 4 });
    expect(done.errors).toEqual([
      [3, 'leave_type'],
      [4, 'date'],
      [5, 'days'],
      [6, 'date'],
    ]);
    expect(await ledgerOf(c.emp.outsider)).toEqual([
      expect.objectContaining({
        date: `${year - 1}-01-01`,
        days: 7.5,
        source: 'import',
        source_id: done.record.id,
        note: 'from the old system',
      }),
    ]);
    // No date: the first day of today's leave period.
    expect(await ledgerOf(c.emp.report1)).toEqual([expect.objectContaining({ date: `${year}-01-01`, days: -2 })]);
    const balance = (
      await call('GET', `/employees/${c.emp.outsider}/leaves/balance?as_of=${year - 1}-06-30&leave_type=${type}`, admin)
    ).json().data[0];
    expect(balance).toMatchObject({ opening: 7.5, available: 7.5 });

    // The same file again: every row is refused (loaded already), all or nothing.
    const again = await imported(csv.split('\n').slice(0, 3).join('\n'), 'dry_run=false');
    expect(again.record).toMatchObject({ status: 'Failed', rows_failed: 2 });
    expect(again.errors).toEqual([
      [1, 'date'],
      [2, 'date'],
    ]);
    // A Restricted Admin (Engineering) loads balances of its departments only.
    const restricted = await imported(
      `employee,leave_type,days,date\n${outsider},Vacation,1,${year}-03-01\n${report1},Vacation,1,${year}-03-01\n`,
      'dry_run=false&mode=valid-rows',
      c.users.restricted.token,
    );
    expect(restricted.record).toMatchObject({ status: 'Completed', rows_valid: 1, rows_failed: 1 });
    expect(restricted.errors.map(([row]) => row)).toEqual([1]);
  });
});

describe('payroll imports: salaries, payroll employees, payroll data (issue 27)', () => {
  let t: TestApp;
  let call: ReturnType<typeof apiCaller>;
  let token: string;
  let ds: DataSource;

  beforeAll(async () => {
    const demo = await createDemoApp({ IMPORT_DIR: mkdtempSync(join(tmpdir(), 'hr-imports-')) });
    t = demo;
    token = demo.demo.accessToken;
    call = apiCaller(t.app);
    ds = t.app.get(DataSource);
  }, 120_000); // the whole demo, as the other suites that seed it allow
  afterAll(() => t.close());

  async function imported(
    body: string,
    query: string,
    waitMs = 20_000,
  ): Promise<{ id: number; status: string; rows_failed: number; error: string | null }> {
    const res = await t.app.inject({
      method: 'POST',
      url: `/app/api/imports?${query}`,
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: body,
    });
    expect(res.statusCode).toBe(202);
    const id = res.json<{ data: { id: number } }>().data.id;
    let record: { id: number; status: string; rows_failed: number; error: string | null } | null = null;
    await until(async () => {
      record = (await call('GET', `/imports/${id}`, token)).json().data;
      return ['Validated', 'Completed', 'Failed'].includes(record!.status);
    }, waitMs);
    return record!;
  }
  const errorsOf = async (id: number) =>
    (
      (await call('GET', `/imports/${id}/errors`, token)).json().data as Array<{ row: number; field: string; message: string }>
    ).map((e) => [e.row, e.field, e.message]);

  // Hardening IV, item 9: the employees template's own example row failed its dry run on the demo
  // (no nationality "British", no job title "Engineer", and its E0042 overwrote a demo employee), and
  // the leave entitlements' period "2026" was read as id 2026. payroll-data's example names an
  // editable column ("Bonus"), which the demo's payroll does not have.
  it.each(IMPORT_KIND_NAMES.filter((k) => k !== 'payroll-data'))(
    "the %s template's example row passes its own dry run on the demo",
    async (kind) => {
      const template = await t.app.inject({ method: 'GET', url: `/app/api/imports/templates/${kind}`, headers: bearer(token) });
      expect(template.statusCode).toBe(200);
      const done = await imported(template.body, `kind=${kind}&dry_run=true`);
      const errors = await errorsOf(done.id);
      expect({ status: done.status, errors }).toEqual({ status: 'Validated', errors: [] });
    },
  );

  // Issue 41, item 6: a 6 000-row salaries import held the in-process event loop for 2.5 s at a time.
  // The demo's case (SQLite, jobs in the API process): on MariaDB the import outlasts this suite's waits.
  // Timed, so under npm run test:timing (itTimed).
  itTimed(
    'a 6 000-row salaries import lets the event loop run (no pause of 200 ms)',
    async () => {
      const staff = (await call('GET', '/employees?limit=60', token)).json().data as Array<{ employee_id: string }>;
      const rows = Array.from(
        { length: 6000 },
        (_, i) => `${staff[i % staff.length].employee_id},Basic salary,${3000 + (i % 500)}.00`,
      );
      const { result: done, longest } = await longestPause(() =>
        imported(['employee,component,amount', ...rows].join('\n'), 'kind=salaries&dry_run=false&mode=valid-rows', 80_000),
      );
      expect(done).toMatchObject({ status: 'Completed', rows_failed: 0 });
      expect(longest).toBeLessThan(200);
    },
    90_000,
  );

  it('salaries: one component per row set on the salary, the others kept; payroll employees created or updated', async () => {
    const employee = (await call('GET', '/employees?limit=1&sortField=id&sortOrder=ascend', token)).json().data[0];
    const before = (await call('GET', `/employees/${employee.id}/salary`, token)).json().data as Array<{
      component: number;
      amount: string;
    }>;
    const done = await imported(
      `employee,component,amount\n${employee.employee_id},Basic salary,4321.50\n${employee.employee_id},Car allowance,10\n${employee.employee_id},Housing allowance,-5x\n`,
      'kind=salaries&dry_run=false&mode=valid-rows',
    );
    expect(done).toMatchObject({ status: 'Completed', rows_failed: 2 });
    expect((await errorsOf(done.id)).map(([row, field]) => [row, field])).toEqual([
      [2, 'component'],
      [3, 'amount'],
    ]);
    const after = (await call('GET', `/employees/${employee.id}/salary`, token)).json().data as Array<{
      component: number;
      amount: string;
    }>;
    expect(after).toHaveLength(before.length);
    expect(after.map((i) => i.amount)).toContain('4321.50');

    const frequency = await imported(
      `employee,pay_frequency,currency,deduction_group\n${employee.employee_id},4,USD,United Kingdom\n`,
      'kind=payroll-employees&dry_run=false',
    );
    expect(frequency.status).toBe('Completed');
    const settings = (
      await call(
        'GET',
        `/payroll_config/payroll-employees?filters=${encodeURIComponent(JSON.stringify({ employee: employee.id }))}`,
        token,
      )
    ).json().data;
    expect(settings).toEqual([expect.objectContaining({ employee: employee.id, currency: 'USD' })]);
  });

  it('payroll data: editable cells of a payroll set and their rows recomputed as the grid edit does; a payroll that cannot be edited fails the import', async () => {
    const payrolls = (await call('GET', '/payroll_config/payrolls?sortField=date_start&sortOrder=descend', token)).json().data;
    const processed = payrolls.find((p: { status: string }) => p.status === 'Processed');
    const completed = payrolls.find((p: { status: string }) => p.status === 'Completed');
    await ds.query("UPDATE payroll_columns SET editable = ? WHERE variable = 'overtime_hours'", [true]);
    // A run edits the columns it was processed with: processed again, it has the editable one.
    await processPayroll(t.app, token, processed.id);
    const grid = async () => (await call('GET', `/payroll_config/payrolls/${processed.id}/data?limit=1`, token)).json().data;
    const first = await grid();
    const row = first.rows[0];
    const employee = row.employee as { employee_id: string };
    const column = (name: string) => String(first.columns.find((c: { name: string }) => c.name === name).id);
    const done = await imported(
      `employee,column,amount\n${employee.employee_id},Overtime hours,10\n${employee.employee_id},Net pay,1\n`,
      `kind=payroll-data&payroll=${processed.id}&dry_run=false&mode=valid-rows`,
    );
    expect(done).toMatchObject({ status: 'Completed', rows_failed: 1 });
    expect(await errorsOf(done.id)).toEqual([[2, 'column', 'Net pay is not editable']]);
    const after = (await grid()).rows[0];
    expect(Number(after.values[column('Overtime hours')])).toBe(10);
    expect(Number(after.values[column('Overtime pay')])).toBeGreaterThan(Number(row.values[column('Overtime pay')]));

    const refused = await imported(
      `employee,column,amount\n${employee.employee_id},Overtime hours,3\n`,
      `kind=payroll-data&payroll=${completed.id}&dry_run=false`,
    );
    expect(refused).toMatchObject({ status: 'Failed', error: expect.stringMatching(/Completed payroll cannot/) });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/app/api/imports?kind=payroll-data',
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: 'a\n1\n',
    });
    expect(missing.statusCode).toBe(400);
  });
});
