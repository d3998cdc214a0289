import { DataSource } from 'typeorm';
import { bulkEmployees } from '../src/database/seeds/bulk-employees';
import { EmployeeListItemDto } from '../src/employees/dto/employee.dto';
import ExcelJS from 'exceljs';
import { EXPORT_PAGE_SIZE, exportColumns, jsonData } from '../src/common/export/exportable';
import { XLSX_TYPE } from '../src/common/export/sheet-writers';
import { AttendanceDto } from '../src/attendance/dto/attendance.dto';
import { EmployeesService } from '../src/employees/employees.service';
import { buildCompany, Company, employeeBody } from './helpers/company';
import { createDemoApp } from './helpers/demo-app';
import { apiCaller, bearer, createTestApp, createUser, TestApp } from './helpers/test-app';

/** Parses RFC 4180 CSV (quoted cells with doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('exports of lists as CSV and XLSX (issue 27, docs/api/decisions.md §13)', () => {
  let t: TestApp;
  let c: Company;
  let call: ReturnType<typeof apiCaller>;
  const ROWS = EXPORT_PAGE_SIZE + 1_234; // more than a page of an export's reads (and many of MAX_PAGE_SIZE)

  beforeAll(async () => {
    t = await createTestApp();
    c = await buildCompany(t.app);
    call = apiCaller(t.app);
    await bulkEmployees(t.app.get(DataSource), ROWS, [c.departments.platform, c.departments.sales], 'X');
    await t.app
      .get(EmployeesService)
      .create(employeeBody({ first_name: '=HYPERLINK("http://evil.test","x")', last_name: '-1+2' }));
  });
  afterAll(() => t.close());

  const csv = (url: string, token: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/app/api${url}`, headers: { ...bearer(token), ...headers } });

  it("reads its pages 5 000 rows at a time, which a client's own request cannot ask for", async () => {
    const paged = await call('GET', '/employees?limit=500', c.users.admin.token);
    const guessed = await t.app.inject({
      method: 'GET',
      url: '/app/api/employees?limit=500',
      headers: { ...bearer(c.users.admin.token), 'x-export-page-size-key': 'guess' },
    });
    expect(guessed.json().data).toHaveLength(500);
    expect(guessed.json().nextPage).toBe(paged.json().nextPage);
    const res = await csv('/employees?format=csv', c.users.admin.token);
    expect(parseCsv(res.body).length - 1).toBe(paged.json().total);
  });

  it('reads its pages as the list handler answered them, never through JSON text; the hand-over header alone changes nothing', async () => {
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const res = await csv('/employees?format=csv', c.users.admin.token);
      expect(parseCsv(res.body).length - 1).toBeGreaterThan(ROWS);
      // Without the hand-over, each page of 5 000 employees was parsed from about 2 MB of JSON.
      expect(parse.mock.calls.map(([text]) => String(text).length).filter((n) => n > 100_000)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
    // A client that names a read without the process's key gets its page as JSON, as any client does.
    const guessed = await t.app.inject({
      method: 'GET',
      url: '/app/api/employees?limit=3',
      headers: { ...bearer(c.users.admin.token), 'x-export-read': '1' },
    });
    expect(guessed.json()).toMatchObject({ status: 'SUCCESS', data: [{}, {}, {}] });
  });

  it("hands a page over as it is only when it is JSON's own data (what a JSON round trip gives back unchanged)", () => {
    expect(jsonData({ data: [{ id: 1, name: 'a', ok: true, none: null, tags: ['x'], nested: { n: 1.5 } }], nextPage: 2 })).toBe(
      true,
    );
    expect(jsonData(Object.assign(Object.create(null) as object, { id: 1 }))).toBe(true);
    for (const odd of [
      { at: new Date(0) },
      { gone: undefined },
      [undefined],
      { n: NaN },
      { n: Infinity },
      new (class Dto {})(),
      { big: 1n },
    ])
      expect(jsonData(odd)).toBe(false);
  });

  it('answers every matching row, not a page, in the order and with the filters of the JSON list', async () => {
    const res = await csv('/employees?format=csv&sortField=last_name&sortOrder=descend&limit=5&page=3', c.users.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="employees-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [header, ...rows] = parseCsv(res.body);
    // custom_fields is a column per field (none defined here: test/custom-field-values.e2e-spec.ts).
    expect(header).toEqual(
      exportColumns(EmployeeListItemDto).flatMap((col) => (col.field === 'custom_fields' ? [] : [col.field])),
    );
    const json = (await call('GET', '/employees?sortField=last_name&sortOrder=descend&limit=500', c.users.admin.token)).json();
    expect(rows).toHaveLength(json.total);
    expect(json.total).toBeGreaterThan(ROWS);
    // The JSON list's first page, row for row (ids as numbers in the JSON, text in the file).
    expect(rows.slice(0, 500).map((r) => Number(r[0]))).toEqual(json.data.map((e: { id: number }) => e.id));
    expect(new Set(rows.map((r) => r[0])).size).toBe(rows.length);

    const filtered = await csv(
      `/employees?format=csv&filters=${encodeURIComponent(JSON.stringify({ department: c.departments.sales }))}`,
      c.users.admin.token,
    );
    const salesRows = parseCsv(filtered.body).slice(1);
    const department = header.indexOf('department');
    expect(salesRows.length).toBe(
      (
        await call(
          'GET',
          `/employees?filters=${encodeURIComponent(JSON.stringify({ department: c.departments.sales }))}`,
          c.users.admin.token,
        )
      ).json().total,
    );
    expect(salesRows.every((r) => Number(r[department]) === c.departments.sales)).toBe(true);
  });

  it("keeps the caller's scope: a Restricted Admin exports its departments' employees only", async () => {
    const res = await csv('/employees', c.users.restricted.token, { accept: 'text/csv' });
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parseCsv(res.body).slice(1);
    const json = (await call('GET', '/employees', c.users.restricted.token)).json();
    expect(rows).toHaveLength(json.total);
    const department = exportColumns(EmployeeListItemDto)
      .map((col) => col.field)
      .indexOf('department');
    const allowed = [c.departments.engineering, c.departments.platform];
    expect(rows.every((r) => allowed.includes(Number(r[department])))).toBe(true);
    expect(rows.length).toBeGreaterThan(ROWS / 2 - 1); // the Platform half of the bulk employees
  });

  it('neutralizes cells a spreadsheet would run as formulas, and they read back as the text they were', async () => {
    const res = await csv(`/employees?format=csv&search=${encodeURIComponent('evil')}`, c.users.admin.token);
    const [header, ...rows] = parseCsv((await csv('/employees?format=csv', c.users.admin.token)).body);
    const row = rows.find((r) => r[header.indexOf('last_name')] === "'-1+2");
    expect(row?.[header.indexOf('first_name')]).toBe('\'=HYPERLINK("http://evil.test","x")');
    expect(res.statusCode).toBe(200);
    expect(rows.every((r) => r.every((cell) => !/^[=+\-@\t\r]/.test(cell)))).toBe(true);
  });

  it('refuses what the JSON list refuses, and an unknown format, with the error envelope', async () => {
    const bad = await csv('/employees?format=csv&sortField=salary', c.users.admin.token);
    expect([bad.statusCode, bad.headers['content-type'], bad.json().error.code]).toEqual([
      400,
      'application/json; charset=utf-8',
      'VALIDATION_FAILED',
    ]);
    const pdf = await csv('/employees?format=pdf', c.users.admin.token);
    expect([pdf.statusCode, pdf.json().error.details]).toEqual([400, [{ field: 'format', message: 'must be one of csv, xlsx' }]]);
    const employee = await csv('/users?format=csv', c.users.employee.token);
    expect(employee.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/app/api/employees?format=csv' });
    expect([anonymous.statusCode, anonymous.json().error.code, anonymous.headers['www-authenticate']]).toEqual([
      401,
      'UNAUTHORIZED',
      expect.stringMatching(/^Bearer/),
    ]);
    // A route that is not a list answers JSON whatever the Accept header.
    const one = await csv(`/employees/${c.emp.manager}`, c.users.admin.token, { accept: 'text/csv' });
    expect([one.statusCode, one.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
  });

  it('records the export in the audit log: what, in which format, how many rows, with which query', async () => {
    await csv(`/leaves?format=csv&filters=${encodeURIComponent(JSON.stringify({ status: 'Pending' }))}`, c.users.admin.token);
    const entries = (await call('GET', '/audit-log?limit=500', c.users.admin.token)).json().data as Array<{
      action: string;
      resource: string;
      changes: Record<string, [unknown, unknown]>;
      actor: number;
    }>;
    const exports = entries.filter((e) => e.action === 'export');
    const leaves = exports.find((e) => e.resource === 'leaves');
    expect(leaves?.changes).toEqual({
      format: [null, 'csv'],
      rows: [null, 0],
      query: [null, { filters: '{"status":"Pending"}' }],
    });
    expect(leaves?.actor).toBe(c.users.admin.user.id);
    expect(exports.filter((e) => e.resource === 'employees').length).toBeGreaterThanOrEqual(3);
  });

  it('answers XLSX with typed cells, a header row, frozen panes, and formula-like text as text', async () => {
    await call('POST', '/attendance', c.users.admin.token, {
      employee: c.emp.report2,
      in_time: '2026-03-02T09:00:00Z',
      out_time: '2026-03-02T17:00:00Z',
      note: '=1+1',
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/app/api/attendance',
      headers: { ...bearer(c.users.admin.token), accept: XLSX_TYPE },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_TYPE);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="attendance-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const fields = exportColumns(AttendanceDto).map((col) => col.field);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(fields);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.actualRowCount).toBe(2);
    const row = sheet.getRow(2);
    const cell = (field: string) => row.getCell(fields.indexOf(field) + 1);
    expect(cell('id').type).toBe(ExcelJS.ValueType.Number);
    expect(cell('in_time').type).toBe(ExcelJS.ValueType.Date);
    expect((cell('in_time').value as Date).toISOString()).toBe('2026-03-02T09:00:00.000Z');
    expect([cell('note').type, cell('note').value]).toEqual([ExcelJS.ValueType.String, '=1+1']);

    const employees = await csv('/employees?format=xlsx', c.users.admin.token);
    const all = new ExcelJS.Workbook();
    await all.xlsx.load(employees.rawPayload as unknown as ArrayBuffer);
    expect(all.worksheets[0].actualRowCount - 1).toBe((await call('GET', '/employees', c.users.admin.token)).json().total);
  });
});

describe('the payroll grid as a file (issue 27)', () => {
  let t: TestApp;
  let admin: string;
  let payroll: { id: number };

  beforeAll(async () => {
    t = await createDemoApp();
    admin = (await createUser(t.app, 'Admin')).token;
    const list = (
      await apiCaller(t.app)(
        'GET',
        '/payroll_config/payrolls?filters=%7B%22status%22%3A%5B%22Processed%22%2C%22Completed%22%5D%7D',
        admin,
      )
    ).json();
    payroll = list.data[0];
  }, 120_000);
  afterAll(() => t.close());

  it('has every row of the grid, its columns by name, amounts as numbers with their decimals', async () => {
    const grid = (await apiCaller(t.app)('GET', `/payroll_config/payrolls/${payroll.id}/data?limit=500`, admin)).json().data as {
      columns: Array<{ id: number; name: string }>;
      rows: Array<{ employee: { id: number; employee_id: string; name: string }; values: Record<string, string | null> }>;
      total: number;
    };
    expect(grid.total).toBeGreaterThan(0);
    const csvRes = await t.app.inject({
      method: 'GET',
      url: `/app/api/payroll_config/payrolls/${payroll.id}/data?format=csv`,
      headers: bearer(admin),
    });
    expect(csvRes.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="payroll-data-${payroll.id}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    const [header, ...rows] = parseCsv(csvRes.body);
    expect(header).toEqual(['employee', 'employee_id', 'name', ...grid.columns.map((c) => c.name)]);
    expect(rows).toHaveLength(grid.total);
    const first = grid.rows[0];
    expect(rows[0]).toEqual([
      String(first.employee.id),
      first.employee.employee_id,
      first.employee.name,
      ...grid.columns.map((c) => first.values[String(c.id)] ?? ''),
    ]);

    const xlsxRes = await t.app.inject({
      method: 'GET',
      url: `/app/api/payroll_config/payrolls/${payroll.id}/data?format=xlsx`,
      headers: bearer(admin),
    });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsxRes.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.actualRowCount).toBe(grid.total + 1);
    const column = grid.columns.findIndex((c) => first.values[String(c.id)] !== null);
    const cell = sheet.getRow(2).getCell(4 + column);
    const text = first.values[String(grid.columns[column].id)] as string;
    expect([cell.type, cell.value]).toEqual([ExcelJS.ValueType.Number, Number(text)]);
    expect(cell.numFmt).toBe(`#,##0${text.includes('.') ? `.${'0'.repeat(text.split('.')[1].length)}` : ''}`);
  });
});
